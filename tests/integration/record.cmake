# Recording and replay (core/record) end to end: a churning simulated cluster with faults,
# recorded and replayed through a real informer; the CLI's record, replay and recording info,
# a recorder killed with SIGKILL included.
cachescope_add_test(NAME tst_recordreplay SOURCES tst_recordreplay.cpp simprocess.h ../core/recordingtesthelpers.h
    LIBRARIES cachescope-simulator cachescope-record LABELS integration sim TIMEOUT 300)
target_include_directories(tst_recordreplay PRIVATE "${PROJECT_SOURCE_DIR}/tests/core")
add_dependencies(tst_recordreplay cachescope-sim cachescope-cli)

# A recording served as a cluster (cachescope-sim --replay): kubectl get, get -w and refused
# writes against it, and cachescope-cli get against it equal to cachescope-cli replay get.
cachescope_add_test(NAME tst_simreplay SOURCES tst_simreplay.cpp simprocess.h
    LIBRARIES cachescope-record LABELS integration sim TIMEOUT 300)
add_dependencies(tst_simreplay cachescope-sim cachescope-cli)

# A recording opened as a cluster and travelled through as the app's time bar does
# (RecordingPlayback): an informer's cache at each instant chosen, paused and played.
cachescope_add_test(NAME tst_recordingplayback SOURCES tst_recordingplayback.cpp simprocess.h ../core/recordingtesthelpers.h
    LIBRARIES cachescope-simulator cachescope-record LABELS integration sim TIMEOUT 420)
target_include_directories(tst_recordingplayback PRIVATE "${PROJECT_SOURCE_DIR}/tests/core")
add_dependencies(tst_recordingplayback cachescope-sim cachescope-cli)
