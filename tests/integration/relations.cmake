# Relations and Events of objects from the informers' indexes, against the in-process simulator.
cachescope_add_test(NAME tst_relations SOURCES tst_relations.cpp LIBRARIES cachescope-simulator cachescope-core LABELS integration TIMEOUT 300)
# `cachescope-cli tree` and `events`: their printing, and end to end against the cachescope-sim binary.
cachescope_add_test(NAME tst_clirelations SOURCES tst_clirelations.cpp simprocess.h LIBRARIES cachescope-clicommands LABELS integration TIMEOUT 300)
add_dependencies(tst_clirelations cachescope-sim cachescope-cli)
