# Index views, the pipeline view and the status bar: models and widgets against real
# informers on an in-process simulated cluster (tst_informersim.h).
cachescope_add_test(NAME tst_indexmodels SOURCES tst_indexmodels.cpp tst_informersim.h LIBRARIES cachescope-ui cachescope-simulator LABELS ui TIMEOUT 180)
cachescope_add_test(NAME tst_indexview SOURCES tst_indexview.cpp tst_informersim.h LIBRARIES cachescope-ui cachescope-simulator LABELS ui TIMEOUT 180)
cachescope_add_test(NAME tst_pipelinemodel SOURCES tst_pipelinemodel.cpp tst_informersim.h LIBRARIES cachescope-ui cachescope-simulator LABELS ui TIMEOUT 180)
cachescope_add_test(NAME tst_pipelineview SOURCES tst_pipelineview.cpp tst_informersim.h LIBRARIES cachescope-ui cachescope-simulator LABELS ui TIMEOUT 180)
cachescope_add_test(NAME tst_clusterstatusbar SOURCES tst_clusterstatusbar.cpp tst_informersim.h LIBRARIES cachescope-ui cachescope-simulator LABELS ui TIMEOUT 180)
