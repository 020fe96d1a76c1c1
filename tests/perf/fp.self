# To display the perf.data header info, please use --header/--header-only options.
#
#
# Total Lost Samples: 0
#
# Samples: 204  of event 'cpu-clock:ppp'
# Event count (approx.): 408817632
#
# Overhead        Period       Samples  Shared Object      Symbol            
# ........  ............  ............  .................  ..................
#
    61.76%     252505008           126  prog               [.] leaf
    34.31%     140280560            70  libwork.so         [.] lib_spin
     3.43%      14028056             7  [kernel.kallsyms]  [k] pvm_irq_enable
     0.49%       2004008             1  [kernel.kallsyms]  [k] __schedule
#
#
