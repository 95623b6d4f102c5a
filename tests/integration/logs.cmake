# A pod's log through LogStream against the in-process simulator (HTTP/2 and HTTP/1.1).
cachescope_add_test(NAME tst_logstream SOURCES tst_logstream.cpp LIBRARIES cachescope-simulator cachescope-core LABELS integration sim)
