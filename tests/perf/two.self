# To display the perf.data header info, please use --header/--header-only options.
#
#
# Total Lost Samples: 0
#
# Samples: 207  of event 'cpu-clock'
# Event count (approx.): 414829656
#
# Overhead        Period       Samples  Shared Object         Symbol            
# ........  ............  ............  ....................  ..................
#
    64.25%     266533064           133  prog                  [.] leaf
    30.43%     126252504            63  libwork.so            [.] lib_spin
     3.38%      14028056             7  [kernel.kallsyms]     [k] pvm_irq_enable
     0.97%       4008016             2  prog                  [.] fib
     0.48%       2004008             1  [kernel.kallsyms]     [k] __get_user_8
     0.48%       2004008             1  ld-linux-x86-64.so.2  [.] dl_main
# Samples: 207  of event 'task-clock'
# Event count (approx.): 414829656
#
# Overhead        Period       Samples  Shared Object         Symbol            
# ........  ............  ............  ....................  ..................
#
    62.80%     260521040           130  prog                  [.] leaf
    30.92%     128256512            64  libwork.so            [.] lib_spin
     4.35%      18036072             9  [kernel.kallsyms]     [k] pvm_irq_enable
     0.97%       4008016             2  prog                  [.] fib
     0.48%       2004008             1  [kernel.kallsyms]     [k] __get_user_8
     0.48%       2004008             1  ld-linux-x86-64.so.2  [.] dl_main
#
#
