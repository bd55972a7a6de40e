#!/usr/bin/env python3
"""Prints libtorch_bench's JSON output (run with --benchmark_repetitions=9
--benchmark_enable_random_interleaving=true --benchmark_format=json) as two markdown tables of
medians over the repetitions, in the binary's registration order:

- per case: bp and torch time, bp / torch (below 1: Backplane is faster), Backplane's throughput,
  each library's fraction of the limit the case is held to (the benchmark's label names a
  limit/<name> benchmark of the same run: GB/s against GB/s where both count bytes, elements/s
  against elements/s otherwise), and each library's page faults per call;
- the limits themselves.

Times are the benchmark's CPU time of the (single) calling thread: on a shared machine the wall
time also counts the time other processes hold the core."""
import json
import statistics
import sys


def median(runs, key):
    values = [r[key] for r in runs if key in r]
    return statistics.median(values) if values else None


def us(run):
    scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[run["time_unit"]]
    return run["cpu_time"] * scale


def fmt_time(t):
    if t is None:
        return ""
    for digits, above in ((0, 100), (1, 10), (2, 1)):
        if t >= above:
            return f"{t:.{digits}f}"
    return f"{t:.3f}"


def fmt_faults(f):
    if f is None:
        return ""
    if f == 0:
        return "0"
    if f < 0.01:
        return "<0.01"
    return f"{f:.3g}" if f < 1000 else f"{f:.0f}"


def throughput(stats):
    if stats["bytes"] is not None:
        return f"{stats['bytes'] / 1e9:.1f} GB/s"
    if stats["items"] is not None:
        return f"{stats['items'] / 1e9:.2f} G/s"
    return ""


def main(path):
    runs = json.load(open(path))["benchmarks"]
    grouped, order = {}, {}
    for r in runs:
        if r.get("run_type") == "aggregate":
            continue
        lib, case = r["run_name"].split("/")[:2]
        grouped.setdefault((lib, case), []).append(r)
        order[case] = min(order.get(case, 1 << 30), r.get("family_index", 0))
    stats = {}
    for key, rs in grouped.items():
        stats[key] = {
            "us": statistics.median([us(r) for r in rs]),
            "bytes": median(rs, "bytes_per_second"),
            "items": median(rs, "items_per_second"),
            "faults": median(rs, "faults_per_call"),
            "label": rs[0].get("label", ""),
        }

    def fraction(case_stats, limit_stats):
        for key in ("bytes", "items"):
            if case_stats[key] is not None and limit_stats[key] is not None:
                return f"{case_stats[key] / limit_stats[key]:.2f}"
        return ""

    print("| case | bp (us) | torch (us) | bp / torch | bp throughput | bp of limit | "
          "torch of limit | limit | bp faults/call | torch faults/call |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---:|---:|")
    cases = sorted({c for lib, c in stats if lib != "limit"}, key=lambda c: order[c])
    for case in cases:
        bp, torch = stats.get(("bp", case)), stats.get(("torch", case))
        if bp is None:
            print(f"| {case} | (not declared) | {fmt_time(torch['us'])} | | | | | | | "
                  f"{fmt_faults(torch['faults'])} |")
            continue
        label = bp["label"] or (torch["label"] if torch else "")
        limit = stats.get(("limit", label)) if label else None
        row = [case, fmt_time(bp["us"]), fmt_time(torch["us"]) if torch else "",
               f"{bp['us'] / torch['us']:.2f}" if torch else "", throughput(bp),
               fraction(bp, limit) if limit else "",
               fraction(torch, limit) if limit and torch else "",
               f"{label} ({throughput(limit)})" if limit else "",
               fmt_faults(bp["faults"]), fmt_faults(torch["faults"]) if torch else ""]
        print("| " + " | ".join(row) + " |")

    print()
    print("| limit | us | GB/s | G elements/s | faults/call |")
    print("|---|---:|---:|---:|---:|")
    limits = sorted((c for lib, c in stats if lib == "limit"), key=lambda c: order[c])
    for name in limits:
        s = stats[("limit", name)]
        gbs = f"{s['bytes'] / 1e9:.1f}" if s["bytes"] is not None else ""
        items = f"{s['items'] / 1e9:.2f}" if s["items"] is not None else ""
        note = f" ({s['label']})" if s["label"] else ""
        print(f"| {name}{note} | {fmt_time(s['us'])} | {gbs} | {items} | "
              f"{fmt_faults(s['faults'])} |")


if __name__ == "__main__":
    main(sys.argv[1])
