# To display the perf.data header info, please use --header/--header-only options.
#
#
# Total Lost Samples: 0
#
# Samples: 40  of event 'cpu-clock:ppp'
# Event count (approx.): 404040400
#
# Overhead        Period       Samples  Shared Object      Symbol            
# ........  ............  ............  .................  ..................
#
    62.50%     252525250            25  prog               [.] leaf
    35.00%     141414140            14  libwork.so         [.] lib_spin
     2.50%      10101010             1  [kernel.kallsyms]  [k] pvm_irq_enable
#
#
