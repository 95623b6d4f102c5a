# The Logs tab: its ring of lines, and the view against the in-process simulated cluster.
cachescope_add_test(NAME tst_logbuffer SOURCES tst_logbuffer.cpp LIBRARIES cachescope-models LABELS ui)
