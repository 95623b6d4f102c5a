# Tests of the live resource table and the resource tree. The model test runs real
# informers against an in-process SimCluster.
cachescope_add_test(NAME tst_resourcetablemodel SOURCES tst_resourcetablemodel.cpp LIBRARIES cachescope-ui cachescope-simulator LABELS ui TIMEOUT 300)
cachescope_add_test(NAME tst_resourcefilterproxymodel SOURCES tst_resourcefilterproxymodel.cpp LIBRARIES cachescope-ui LABELS ui)
cachescope_add_test(NAME tst_resourcetreemodel SOURCES tst_resourcetreemodel.cpp LIBRARIES cachescope-ui LABELS ui)
cachescope_add_test(NAME tst_resourcetableview SOURCES tst_resourcetableview.cpp LIBRARIES cachescope-ui LABELS ui)
target_include_directories(tst_resourcetableview PRIVATE "${PROJECT_SOURCE_DIR}/tests/core")
# What the command bar finds (a model: no widgets).
cachescope_add_test(NAME tst_commandbarmodel SOURCES tst_commandbarmodel.cpp LIBRARIES cachescope-models LABELS ui)
# Back and Forward (a model: no widgets).
cachescope_add_test(NAME tst_navigationhistory SOURCES tst_navigationhistory.cpp LIBRARIES cachescope-models LABELS ui)
