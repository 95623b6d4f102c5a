# Cluster + InformerFactory against an in-process simulated cluster.
cachescope_add_test(NAME tst_cluster SOURCES tst_cluster.cpp LIBRARIES cachescope-simulator cachescope-core LABELS integration)
