# The explorer's live table against a large simulated cluster.
cachescope_add_bench(bench_explorer cachescope-ui cachescope-simulator)
