# Tests of core/cache: cachescope_add_test(NAME tst_x SOURCES tst_x.cpp LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_reflector SOURCES tst_reflector.cpp fakelisterwatcher.h LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_backoff SOURCES tst_backoff.cpp LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_sharedindexinformer SOURCES tst_sharedindexinformer.cpp fakelisterwatcher.h LIBRARIES cachescope-core LABELS core)
