# Tests of the workqueue timeline: the model from scripted feeds and a real queue, the painter offscreen.
cachescope_add_test(NAME tst_timelinemodel SOURCES tst_timelinemodel.cpp LIBRARIES cachescope-ui LABELS ui)
cachescope_add_test(NAME tst_timelinewidget SOURCES tst_timelinewidget.cpp LIBRARIES cachescope-ui LABELS ui)
# The controller panel's findings table.
cachescope_add_test(NAME tst_findingstablemodel SOURCES tst_findingstablemodel.cpp LIBRARIES cachescope-ui LABELS ui)
cachescope_add_test(NAME tst_controllerpanel SOURCES tst_controllerpanel.cpp LIBRARIES cachescope-ui LABELS ui)
