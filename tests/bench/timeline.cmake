# The workqueue timeline under a controller's load: ingest cost per event and frame times.
cachescope_add_bench(bench_timeline cachescope-ui)
