# The simulator's HTTP/2 transport: negotiation, many streams on one connection, the
# verbs, cancelled streams, and the connection-level faults over HTTP/2 and HTTP/1.1.
cachescope_add_test(NAME tst_simhttp2 SOURCES tst_simhttp2.cpp ../core/tst_simclient.h LIBRARIES cachescope-simulator LABELS integration sim)
target_include_directories(tst_simhttp2 PRIVATE "${PROJECT_SOURCE_DIR}/tests/core")
