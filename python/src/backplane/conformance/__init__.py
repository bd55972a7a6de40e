"""The conformance suite from Python: the same engine and flags as backplane-conformance.

    from backplane import conformance
    status = conformance.run(["--ops", "add", "--json", "out/add.json"])   # 0: the verdict passes

From a shell: python3 -m backplane.conformance --backend path/to/plugin.so --profile tier1
(docs/conformance_guide.md lists the flags; docs/python.md has a pytest file for vendors' CI).
"""

from backplane import _C


def run(args):
    """Runs the CLI with `args` (a list of strings) in this process; returns its exit status:
    0 the verdict passes, 1 it fails, 2 a usage error. Output goes to this process's
    stdout and stderr."""
    return _C.run_conformance([str(a) for a in args])
