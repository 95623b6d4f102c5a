# Tests of core/relations: the implicit edges read from objects, Event records.
cachescope_add_test(NAME tst_implicitreferences SOURCES tst_implicitreferences.cpp LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_eventrecord SOURCES tst_eventrecord.cpp LIBRARIES cachescope-core LABELS core)
