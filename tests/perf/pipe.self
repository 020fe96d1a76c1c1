# To display the perf.data header info, please use --header/--header-only options.
#
#
# Total Lost Samples: 0
#
# Samples: 222  of event 'cpu-clock:ppp'
# Event count (approx.): 444889776
#
# Overhead        Period       Samples  Shared Object      Symbol            
# ........  ............  ............  .................  ..................
#
    64.41%     286573144           143  prog               [.] leaf
    32.88%     146292584            73  libwork.so         [.] lib_spin
     2.25%      10020040             5  [kernel.kallsyms]  [k] pvm_irq_enable
     0.45%       2004008             1  prog               [.] fib
#
#
