# Initial sync of an informer from the simulator, the whole client chain.
cachescope_add_bench(bench_informersync cachescope-simulator cachescope-core)
