# Tests of core/sim: cachescope_add_test(NAME tst_x SOURCES tst_x.cpp LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_simapi SOURCES tst_simapi.cpp tst_simclient.h LIBRARIES cachescope-simulator LABELS core sim)
