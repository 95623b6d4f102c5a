# Tests of core/record: the recording's writer, reader and replay on temporary files. Links
# Qt6::Sql itself to read the file's columns with SQL, as `sqlite3` users do.
find_package(Qt6 6.4 REQUIRED COMPONENTS Sql)
cachescope_add_test(NAME tst_recording SOURCES tst_recording.cpp fakelisterwatcher.h recordingtesthelpers.h LIBRARIES cachescope-record Qt6::Sql LABELS core)
