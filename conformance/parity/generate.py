#!/usr/bin/python3
"""Writes the golden conformance cases: every declared op x dtype x variant on samples of
special values, layouts, Python numbers, mixed dtypes, out= and error inputs, with the results
(or the errors) of real PyTorch. Development tool: needs Debian's python3-torch (1.13.1) and
python3-numpy and python3-yaml; the cases it writes need neither (conformance/parity/README.md).

    /usr/bin/python3 conformance/parity/generate.py            # all families
    /usr/bin/python3 conformance/parity/generate.py --ops '^add'  # print a summary only
"""
import argparse
import collections
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import torch  # noqa: E402

from generator import catalog, declared, differences, encode, torch_call  # noqa: E402
from generator.cases import make_case, vector_scalar_disagreements  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))
def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ops", help="only ops whose name matches (regex); prints, writes nothing")
    parser.add_argument("--out", default=os.path.join(HERE, "golden"))
    parser.add_argument("--dump", help="with --ops: write the cases to this file")
    args = parser.parse_args()
    torch.set_num_threads(1)
    ops = declared.declared_ops(REPO)
    by_name = {o.name: o for o in ops}
    per_family = collections.defaultdict(list)
    counts = collections.Counter()
    excluded = collections.Counter()
    excluded_ops = collections.defaultdict(set)
    inexpressible = 0  # calls PyTorch's Python API cannot make (not a difference)
    # A dtype PyTorch does not support raises the same error for every sample: two are enough.
    same_error = collections.Counter()
    for op in ops:
        if args.ops and not re.search(args.ops, op.name):
            continue
        for dtype in encode.ALL:
            cases = []
            for sample in catalog.samples(op, by_name, dtype, lambda f, a: torch_call.call(f, a)[0]):
                case = make_case(op, dtype, sample)
                if case is None:
                    inexpressible += 1
                else:
                    cases.append(case)
            for case in cases:
                key = differences.excluded(op, case, cases)
                if key:
                    excluded[key] += 1
                    excluded_ops[key].add(op.base)
                    continue
                if "error" in case["expect"]:
                    key = (op.name, dtype, case["expect"]["error"])
                    same_error[key] += 1
                    if same_error[key] > 2:
                        continue
                per_family[op.family].append(case)
                counts[(op.family, "error" if "error" in case["expect"] else "values")] += 1
    for (family, kind), n in sorted(counts.items()):
        print("%-10s %-6s %6d" % (family, kind, n))
    print("left out (docs/pytorch_parity.md):")
    for key, n in sorted(excluded.items()):
        print("  %-20s %5d  %s\n  %20s        ops: %s" % (key, n, differences.reason(key), "",
                                                      ", ".join(sorted(excluded_ops[key]))))
    print("calls PyTorch's Python API cannot make: %d" % inexpressible)
    print("cases whose values follow PyTorch's scalar loop (its vectorised loop differs):",
          dict(vector_scalar_disagreements))
    if args.ops:
        if args.dump:
            write(args.dump, [c for cs in per_family.values() for c in cs])
        return
    os.makedirs(args.out, exist_ok=True)
    for family, cases in per_family.items():
        write(os.path.join(args.out, family + ".json"), cases)


def write(path, cases):
    with open(path, "w") as f:
        f.write('{"format": "backplane-conformance-cases", "version": 1, "generator": '
                '"conformance/parity/generate.py", "torch": "%s", "cases": [\n' % torch.__version__)
        f.write(",\n".join(json.dumps(c, separators=(",", ":")) for c in cases))
        f.write("\n]}\n")


if __name__ == "__main__":
    main()
