# Tests of core/controller: the process functions, the findings store, the Controller.
cachescope_add_test(NAME tst_controllerfunctions SOURCES tst_controllerfunctions.cpp LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_controllerfindings SOURCES tst_controllerfindings.cpp LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_controller SOURCES tst_controller.cpp LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_controllercommand SOURCES tst_controllercommand.cpp fakelisterwatcher.h LIBRARIES cachescope-clicommands LABELS core)
