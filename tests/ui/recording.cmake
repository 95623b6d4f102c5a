# The time bar of an open recording: what it shows and what it asks.
cachescope_add_test(NAME tst_recordingbar SOURCES tst_recordingbar.cpp LIBRARIES cachescope-ui LABELS ui)

# Recording a session from the app (File → Record Session…) and travelling through a recording
# (the time bar's seeks and steps), in the assembled window against an in-process simulator.
cachescope_add_test(NAME tst_sessionrecorder SOURCES tst_sessionrecorder.cpp LIBRARIES cachescope-ui cachescope-simulator LABELS ui integration TIMEOUT 300)
cachescope_add_test(NAME tst_recordingcontroller SOURCES tst_recordingcontroller.cpp LIBRARIES cachescope-ui cachescope-simulator LABELS ui integration TIMEOUT 300)
