# To display the perf.data header info, please use --header/--header-only options.
#
#
# Total Lost Samples: 0
#
# Samples: 206  of event 'cpu-clock:ppp'
# Event count (approx.): 412825648
#
# Overhead        Period       Samples  Shared Object      Symbol            
# ........  ............  ............  .................  ..................
#
    63.59%     262525048           131  prog               [.] leaf
    33.01%     136272544            68  libwork.so         [.] lib_spin
     2.43%      10020040             5  [kernel.kallsyms]  [k] pvm_irq_enable
     0.49%       2004008             1  [kernel.kallsyms]  [k] __get_user_8
     0.49%       2004008             1  prog               [.] fib
#
#
