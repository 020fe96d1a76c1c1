# To display the perf.data header info, please use --header/--header-only options.
#
#
# Total Lost Samples: 0
#
# Samples: 52  of event 'cpu-clock:ppp'
# Event count (approx.): 525252520
#
# Overhead        Period       Samples  Shared Object  Symbol                                                                                                                          
# ........  ............  ............  .............  ................................................................................................................................
#
    44.23%     232323230            23  cxx            [.] _Z5churnIjET_S0_
    40.38%     212121210            21  cxx            [.] _Z5churnImET_S0_
    11.54%      60606060             6  cxx            [.] _ZSt16__introsort_loopIN9__gnu_cxx17__normal_iteratorIPjSt6vectorIjSaIjEEEElNS0_5__ops15_Iter_less_iterEEvT_S9_T0_T1_.isra.0
     3.85%      20202020             2  cxx            [.] _ZL9sort_someRSt6vectorIjSaIjEEj
#
#
