"""python3 -m backplane.conformance runs the CLI's engine with the CLI's flags."""

import json
import os
import subprocess
import sys

EXPECTED = os.environ.get("BP_CPU_EXPECTED_FAILURES", "")


def _run(*args):
    return subprocess.run([sys.executable, "-m", "backplane.conformance", *args],
                          capture_output=True, text=True, timeout=600)


def test_help_lists_the_clis_flags():
    r = _run("--help")
    assert r.returncode == 0
    assert "--backend" in r.stdout + r.stderr and "--ops" in r.stdout + r.stderr


def test_a_run_on_the_cpu_passes_and_writes_json(tmp_path):
    report = tmp_path / "r.json"
    r = _run("--backend", "cpu", "--ops", "add,neg", "--expected-failures", EXPECTED,
             "--json", str(report))
    assert r.returncode == 0, r.stdout + r.stderr
    data = json.loads(report.read_text())
    assert "add.Tensor" in json.dumps(data) and "neg" in json.dumps(data)


def test_a_usage_error_exits_2():
    r = _run("--no-such-flag")
    assert r.returncode == 2
    assert "--no-such-flag" in r.stderr
