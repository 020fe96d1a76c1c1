# To display the perf.data header info, please use --header/--header-only options.
#
#
# Total Lost Samples: 0
#
# Samples: 220  of event 'cpu-clock:ppp'
# Event count (approx.): 440881760
#
# Overhead        Period       Samples  Shared Object      Symbol                             
# ........  ............  ............  .................  ...................................
#
    63.18%     278557112           139  prog               [.] leaf
    34.09%     150300600            75  libwork.so         [.] lib_spin
     1.36%       6012024             3  [kernel.kallsyms]  [k] pvm_irq_enable
     0.91%       4008016             2  prog               [.] fib
     0.45%       2004008             1  libc.so.6          [.] pthread_mutex_lock@@GLIBC_2.2.5
#
#
