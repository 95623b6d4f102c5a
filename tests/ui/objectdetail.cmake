# Object detail and event stream.
cachescope_add_test(NAME tst_objecthistory SOURCES tst_objecthistory.cpp LIBRARIES cachescope-ui LABELS ui)
cachescope_add_test(NAME tst_eventstreammodel SOURCES tst_eventstreammodel.cpp LIBRARIES cachescope-ui LABELS ui)
cachescope_add_test(NAME tst_eventstreamfilter SOURCES tst_eventstreamfilter.cpp LIBRARIES cachescope-ui LABELS ui)
cachescope_add_test(NAME tst_eventstreamview SOURCES tst_eventstreamview.cpp LIBRARIES cachescope-ui LABELS ui)
cachescope_add_test(NAME tst_objectdiffview SOURCES tst_objectdiffview.cpp LIBRARIES cachescope-ui LABELS ui)
