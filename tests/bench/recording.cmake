# Recording (issue 14): overhead on watch ingest, file bytes per event, seek time in a recording
# of a million inputs. Links Qt6::Sql itself to read the file's figures with SQL.
find_package(Qt6 6.4 REQUIRED COMPONENTS Sql)
cachescope_add_bench(bench_recording cachescope-record Qt6::Sql)
# recordedPods(), the informer the recording tests record, from the tests' shared helpers.
target_include_directories(bench_recording PRIVATE "${PROJECT_SOURCE_DIR}/tests/core")
