# Tests of core/util (the clock, token bucket and sequenced ring are tested through their users in
# workqueue.cmake and kube.cmake).
cachescope_add_test(NAME tst_linediff SOURCES tst_linediff.cpp LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_rfc3339 SOURCES tst_rfc3339.cpp LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_stringinterner SOURCES tst_stringinterner.cpp LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_valueinterner SOURCES tst_valueinterner.cpp LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_processmemory SOURCES tst_processmemory.cpp LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_backgroundpool SOURCES tst_backgroundpool.cpp LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_chunkedvector SOURCES tst_chunkedvector.cpp LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_seriallane SOURCES tst_seriallane.cpp LIBRARIES cachescope-core LABELS core)
