# cachescope-cli get and watch against the cachescope-sim binary, compared with kubectl.
cachescope_add_test(NAME tst_cligetwatch SOURCES tst_cligetwatch.cpp simprocess.h LIBRARIES Qt6::Core LABELS integration sim TIMEOUT 300)
add_dependencies(tst_cligetwatch cachescope-sim cachescope-cli)
# cachescope-cli rejects malformed selectors before any request (against a server that never answers).
cachescope_add_test(NAME tst_cliselectors SOURCES tst_cliselectors.cpp LIBRARIES Qt6::Network LABELS integration)
add_dependencies(tst_cliselectors cachescope-cli)
