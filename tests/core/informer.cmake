# Tests of the informer layer of core/cache (ListerWatcher, Reflector, SharedIndexInformer, factory).
cachescope_add_test(NAME tst_backoff SOURCES tst_backoff.cpp LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_reflector SOURCES tst_reflector.cpp fakelisterwatcher.h LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_sharedindexinformer SOURCES tst_sharedindexinformer.cpp fakelisterwatcher.h LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_notificationbatcher SOURCES tst_notificationbatcher.cpp LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_informerthreads SOURCES tst_informerthreads.cpp fakelisterwatcher.h LIBRARIES cachescope-core LABELS core)
