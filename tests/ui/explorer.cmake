# The assembled window (Explorer) against an in-process simulated cluster.
cachescope_add_test(NAME tst_explorer SOURCES tst_explorer.cpp LIBRARIES cachescope-ui cachescope-simulator LABELS ui integration TIMEOUT 300)
