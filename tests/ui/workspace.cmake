cachescope_add_test(NAME tst_contextlistmodel SOURCES tst_contextlistmodel.cpp LIBRARIES cachescope-ui cachescope-simulator LABELS ui)
