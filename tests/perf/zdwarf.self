# To display the perf.data header info, please use --header/--header-only options.
#
#
# Total Lost Samples: 0
#
# Samples: 39  of event 'cpu-clock:ppp'
# Event count (approx.): 393939390
#
# Overhead        Period       Samples  Shared Object  Symbol      
# ........  ............  ............  .............  ............
#
    64.10%     252525250            25  prog           [.] leaf
    35.90%     141414140            14  libwork.so     [.] lib_spin
#
#
