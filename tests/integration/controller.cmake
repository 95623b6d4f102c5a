# Controllers on informers against the in-process simulated cluster.
cachescope_add_test(NAME tst_controllersim SOURCES tst_controllersim.cpp LIBRARIES cachescope-simulator cachescope-core LABELS integration TIMEOUT 300)
# `cachescope-cli control` against the cachescope-sim binary.
cachescope_add_test(NAME tst_controllercli SOURCES tst_controllercli.cpp simprocess.h LIBRARIES Qt6::Core LABELS integration TIMEOUT 300)
add_dependencies(tst_controllercli cachescope-sim cachescope-cli)
# The controller lifecycle the app drives (ControllerSession), without widgets.
cachescope_add_test(NAME tst_controllersession SOURCES tst_controllersession.cpp LIBRARIES cachescope-simulator cachescope-core LABELS integration TIMEOUT 300)
