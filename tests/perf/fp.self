# To display the perf.data header info, please use --header/--header-only options.
#
#
# Total Lost Samples: 0
#
# Samples: 248  of event 'cpu-clock:ppp'
# Event count (approx.): 496993984
#
# Overhead        Period       Samples  Shared Object      Symbol                   
# ........  ............  ............  .................  .........................
#
    65.73%     326653304           163  prog               [.] leaf
    32.66%     162324648            81  libwork.so         [.] lib_spin
     1.21%       6012024             3  [kernel.kallsyms]  [k] pvm_irq_enable
     0.40%       2004008             1  [kernel.kallsyms]  [k] page_counter_uncharge
#
#
