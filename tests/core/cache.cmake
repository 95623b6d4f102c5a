# Tests of core/cache: cachescope_add_test(NAME tst_x SOURCES tst_x.cpp LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_kubeobject SOURCES tst_kubeobject.cpp LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_indexer SOURCES tst_indexer.cpp cachetesthelpers.h LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_deltafifo SOURCES tst_deltafifo.cpp cachetesthelpers.h LIBRARIES cachescope-core LABELS core)
