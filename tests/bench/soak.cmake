# The app's stack against a churning, faulty cachescope-sim for a long run (README: Soak).
cachescope_add_bench(bench_soak cachescope-ui cachescope-simulator Qt6::Test)
target_include_directories(bench_soak PRIVATE "${CMAKE_SOURCE_DIR}/tests/support") # simclusterfixture.h
add_dependencies(bench_soak cachescope-sim)
set_target_properties(bench_soak PROPERTIES EXCLUDE_FROM_ALL OFF) # soak_smoke runs it, benchmarks on or off
# CI's short soak: a minute, descriptors and threads must stay flat after the warm-up.
add_test(NAME soak_smoke COMMAND bench_soak --seconds 60 --warmup 15 --sample 3 --churn 300 --pods 1000 --check)
set_tests_properties(soak_smoke PROPERTIES TIMEOUT 240 LABELS "soak;integration" ENVIRONMENT "QT_QPA_PLATFORM=offscreen;LANG=C.UTF-8;LC_ALL=C.UTF-8")
# The demo at scale: `cachescope --demo --demo-pods 100000 --demo-churn 2000`'s cluster in-process,
# the pods shown; events must flow with no relist, and the cache converge once the churn stops.
# Not in the sanitizer build: there 100k pods cost minutes of CPU and several GB more, and the
# same code runs under it in soak_smoke at 1,000 pods. Run alone (RUN_SERIAL): it takes both cores
# for two minutes, and the tests beside it ran out of their time (tst_resourcetablemodel).
if(NOT CACHESCOPE_SANITIZE)
    add_test(NAME demo_scale_smoke COMMAND bench_soak --demo --pods 100000 --churn 2000 --seconds 40 --warmup 10 --sample 5 --check)
    set_tests_properties(demo_scale_smoke PROPERTIES RUN_SERIAL TRUE TIMEOUT 900 LABELS "soak;integration" ENVIRONMENT "QT_QPA_PLATFORM=offscreen;LANG=C.UTF-8;LC_ALL=C.UTF-8")
endif()
