# The Logs tab: its ring of lines, and the view against the in-process simulated cluster.
cachescope_add_test(NAME tst_logbuffer SOURCES tst_logbuffer.cpp LIBRARIES cachescope-models LABELS ui)
cachescope_add_test(NAME tst_logview SOURCES tst_logview.cpp LIBRARIES cachescope-ui cachescope-simulator LABELS ui integration sim TIMEOUT 240)
cachescope_add_test(NAME tst_workloadlogview SOURCES tst_workloadlogview.cpp LIBRARIES cachescope-ui cachescope-simulator LABELS ui integration sim TIMEOUT 240)
