# Tests of core/workqueue: one executable per unit.
cachescope_add_test(NAME tst_queue SOURCES tst_queue.cpp LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_delayingqueue SOURCES tst_delayingqueue.cpp queuetesthelpers.h LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_ratelimiter SOURCES tst_ratelimiter.cpp LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_ratelimitingqueue SOURCES tst_ratelimitingqueue.cpp queuetesthelpers.h LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_queuemetrics SOURCES tst_queuemetrics.cpp LIBRARIES cachescope-core LABELS core)
