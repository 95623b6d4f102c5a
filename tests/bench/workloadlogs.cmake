# A workload's merged Logs tab following a simulated Deployment's pods (issue 15).
cachescope_add_bench(bench_workloadlogs cachescope-ui cachescope-simulator)
