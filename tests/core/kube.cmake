# Tests of core/kube: cachescope_add_test(NAME tst_x SOURCES tst_x.cpp LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_jsontoyaml SOURCES tst_jsontoyaml.cpp LIBRARIES cachescope-core LABELS core)
cachescope_add_test(NAME tst_kubeconfig SOURCES tst_kubeconfig.cpp LIBRARIES cachescope-core LABELS core)
