# To display the perf.data header info, please use --header/--header-only options.
#
# comm: spinner
#
# Total Lost Samples: 0
#
# Samples: 204  of event 'cpu-clock:ppp'
# Event count (approx.): 408817632
#
# Overhead        Period       Samples  Shared Object  Symbol      
# ........  ............  ............  .............  ............
#
    26.47%     108216432            54  libwork.so     [.] lib_spin
#
#
