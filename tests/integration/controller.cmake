# Controllers (issue 7) on informers against the in-process simulated cluster.
cachescope_add_test(NAME tst_controllersim SOURCES tst_controllersim.cpp LIBRARIES cachescope-simulator cachescope-core LABELS integration TIMEOUT 300)
