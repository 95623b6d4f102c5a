# The time bar of an open recording: what it shows and what it asks.
cachescope_add_test(NAME tst_recordingbar SOURCES tst_recordingbar.cpp LIBRARIES cachescope-ui LABELS ui)
