# Tests of core/record: the recording's writer, reader and replay on temporary files.
cachescope_add_test(NAME tst_recording SOURCES tst_recording.cpp fakelisterwatcher.h recordingtesthelpers.h LIBRARIES cachescope-record LABELS core)
