# Recording and replay (core/record) end to end: a churning simulated cluster with faults,
# recorded and replayed through a real informer; the CLI's record, replay and recording info,
# a recorder killed with SIGKILL included.
cachescope_add_test(NAME tst_recordreplay SOURCES tst_recordreplay.cpp simprocess.h ../core/recordingtesthelpers.h
    LIBRARIES cachescope-simulator cachescope-record LABELS integration sim TIMEOUT 300)
target_include_directories(tst_recordreplay PRIVATE "${PROJECT_SOURCE_DIR}/tests/core")
add_dependencies(tst_recordreplay cachescope-sim cachescope-cli)
