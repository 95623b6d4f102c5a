# Tests of core/cache: cachescope_add_test(NAME tst_x SOURCES tst_x.cpp LIBRARIES cachescope-core LABELS core)
