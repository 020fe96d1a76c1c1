# To display the perf.data header info, please use --header/--header-only options.
#
#
# Total Lost Samples: 0
#
# Samples: 228  of event 'cpu-clock:ppp'
# Event count (approx.): 456913824
#
# Overhead        Period       Samples  Shared Object         Symbol                    
# ........  ............  ............  ....................  ..........................
#
    64.04%     292585168           146  prog                  [.] leaf
    32.89%     150300600            75  libwork.so            [.] lib_spin
     1.32%       6012024             3  [kernel.kallsyms]     [k] pvm_irq_enable
     0.44%       2004008             1  [kernel.kallsyms]     [k] clear_page_erms
     0.44%       2004008             1  ld-linux-x86-64.so.2  [.] _dl_map_object_from_fd
     0.44%       2004008             1  libc.so.6             [.] __res_thread_freeres
     0.44%       2004008             1  prog                  [.] fib
#
#
