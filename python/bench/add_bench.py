"""The fixed cost of one op call from Python: backplane.add on 1-element tensors next to
torch.add (and numpy.add) in the same process. A benchmark, not a test; torch is optional.

    bazel build //python:backplane
    PYTHONPATH=bazel-bin/python /usr/bin/python3 python/bench/add_bench.py [--seconds 1]
"""

import argparse
import timeit

import numpy as np

import backplane as bp


def per_call_ns(stmt, seconds):
    timer = timeit.Timer(stmt)
    n, _ = timer.autorange()  # at least 0.2 s
    runs = max(3, int(seconds / 0.2))
    best = min(timer.repeat(repeat=runs, number=n))
    return best / n * 1e9


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    seconds = parser.parse_args().seconds

    a, b = bp.ones(1), bp.ones(1)
    rows = [
        ("backplane.add(a, b)", lambda: bp.add(a, b)),
        ("backplane.add(a, 2.5)", lambda: bp.add(a, 2.5)),
        ("a.add_(b)", lambda: a.add_(b)),
    ]
    try:
        import torch

        torch.set_num_threads(1)
        ta, tb = torch.ones(1), torch.ones(1)
        rows += [
            ("torch.add(a, b)", lambda: torch.add(ta, tb)),
            ("torch.add(a, 2.5)", lambda: torch.add(ta, 2.5)),
            ("torch a.add_(b)", lambda: ta.add_(tb)),
        ]
    except ImportError:
        print("torch is not installed: backplane and numpy only")
    na, nb = np.ones(1, np.float32), np.ones(1, np.float32)
    rows.append(("numpy.add(a, b)", lambda: np.add(na, nb)))
    print("%-24s %10s" % ("1-element float32", "ns/call"))
    for name, fn in rows:
        print("%-24s %10.0f" % (name, per_call_ns(fn, seconds)))


if __name__ == "__main__":
    main()
