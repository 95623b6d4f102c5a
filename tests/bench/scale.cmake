# A large cluster through the client, each side a process: the simulator, an informer, cachescope-cli and kubectl.
cachescope_add_bench(bench_scale cachescope-core)
