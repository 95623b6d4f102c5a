# The app's stack against a churning, faulty cachescope-sim for a long run (README: Soak).
cachescope_add_bench(bench_soak cachescope-ui)
add_dependencies(bench_soak cachescope-sim)
set_target_properties(bench_soak PROPERTIES EXCLUDE_FROM_ALL OFF) # soak_smoke runs it, benchmarks on or off
# CI's short soak: a minute, descriptors and threads must stay flat after the warm-up.
add_test(NAME soak_smoke COMMAND bench_soak --seconds 60 --warmup 15 --sample 3 --churn 300 --pods 1000 --check)
set_tests_properties(soak_smoke PROPERTIES TIMEOUT 240 LABELS "soak;integration" ENVIRONMENT "QT_QPA_PLATFORM=offscreen;LANG=C.UTF-8;LC_ALL=C.UTF-8")
