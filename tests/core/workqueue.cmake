# Tests of core/workqueue: one executable per unit.
cachescope_add_test(NAME tst_queue SOURCES tst_queue.cpp LIBRARIES cachescope-core LABELS core)
