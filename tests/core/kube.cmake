cachescope_add_test(NAME tst_jsontoyaml SOURCES tst_jsontoyaml.cpp LIBRARIES cachescope-core LABELS core)
