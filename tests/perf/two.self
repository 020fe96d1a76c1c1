# To display the perf.data header info, please use --header/--header-only options.
#
#
# Total Lost Samples: 0
#
# Samples: 232  of event 'cpu-clock'
# Event count (approx.): 464929856
#
# Overhead        Period       Samples  Shared Object      Symbol             
# ........  ............  ............  .................  ...................
#
    66.38%     308617232           154  prog               [.] leaf
    32.33%     150300600            75  libwork.so         [.] lib_spin
     0.43%       2004008             1  [kernel.kallsyms]  [k] clear_page_erms
     0.43%       2004008             1  [kernel.kallsyms]  [k] native_set_pte
     0.43%       2004008             1  prog               [.] fib
# Samples: 232  of event 'task-clock'
# Event count (approx.): 464929856
#
# Overhead        Period       Samples  Shared Object      Symbol             
# ........  ............  ............  .................  ...................
#
    65.09%     302605208           151  prog               [.] leaf
    32.33%     150300600            75  libwork.so         [.] lib_spin
     1.29%       6012024             3  [kernel.kallsyms]  [k] pvm_irq_enable
     0.43%       2004008             1  [kernel.kallsyms]  [k] clear_page_erms
     0.43%       2004008             1  [kernel.kallsyms]  [k] native_set_pte
     0.43%       2004008             1  prog               [.] fib
#
#
