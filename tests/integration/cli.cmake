# cachescope-cli get and watch against the cachescope-sim binary, compared with kubectl.
cachescope_add_test(NAME tst_cligetwatch SOURCES tst_cligetwatch.cpp simprocess.h LIBRARIES Qt6::Core LABELS integration sim TIMEOUT 300)
add_dependencies(tst_cligetwatch cachescope-sim cachescope-cli)
# cachescope-cli rejects malformed selectors before any request (against a server that never answers).
cachescope_add_test(NAME tst_cliselectors SOURCES tst_cliselectors.cpp LIBRARIES Qt6::Network LABELS integration)
add_dependencies(tst_cliselectors cachescope-cli)
# The corpus of broken kubeconfig files: cachescope-cli fails at once with one clear error each.
cachescope_add_test(NAME tst_kubeconfigcorpus SOURCES tst_kubeconfigcorpus.cpp simprocess.h clirun.h LIBRARIES cachescope-core LABELS integration TIMEOUT 300)
add_dependencies(tst_kubeconfigcorpus cachescope-sim cachescope-cli)

# TLS failures, one row per fault, through cachescope-cli against simulators serving bad certificates.
cachescope_add_test(NAME tst_tlsfailures SOURCES tst_tlsfailures.cpp simprocess.h clirun.h LIBRARIES Qt6::Core LABELS integration TIMEOUT 300)
add_dependencies(tst_tlsfailures cachescope-sim cachescope-cli)

# Secrets never leak: the CLI's outputs, recordings and the window searched for a known token,
# client key and Secret value.
cachescope_add_test(NAME tst_secretsneverleak SOURCES tst_secretsneverleak.cpp clirun.h LIBRARIES cachescope-ui cachescope-simulator LABELS integration sim TIMEOUT 300)
add_dependencies(tst_secretsneverleak cachescope-cli)
