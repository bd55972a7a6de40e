#!/usr/bin/env python3
"""Prints libtorch_bench's JSON output (with --benchmark_repetitions) as a markdown table of
medians: op | bp us | torch us | bp/torch (below 1: Backplane is faster). Times are the
benchmark's CPU time of the (single) calling thread: on a shared machine the wall time also counts
the time other processes hold the core."""
import json
import statistics
import sys

runs = json.load(open(sys.argv[1]))["benchmarks"]
times = {}
for r in runs:
    if r.get("run_type") == "aggregate":
        continue
    lib, op = r["run_name"].split("/")[:2]
    times.setdefault(op, {}).setdefault(lib, []).append(r["cpu_time"])
print("| op | bp (us) | torch (us) | bp / torch |")
print("|---|---:|---:|---:|")
for op, t in times.items():
    torch = statistics.median(t["torch"])
    if "bp" not in t:
        print(f"| {op} | (not declared) | {torch:.0f} | |")
        continue
    bp = statistics.median(t["bp"])
    print(f"| {op} | {bp:.0f} | {torch:.0f} | {bp / torch:.2f} |")
