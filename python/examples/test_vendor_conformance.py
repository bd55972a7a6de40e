"""An example for vendors' CI: copy this file, set BP_PLUGIN to your plugin, run pytest.

    BP_PLUGIN=/path/to/libmy_plugin.so PYTHONPATH=<backplane build>/python python3 -m pytest test_vendor_conformance.py

It runs the conformance suite on the plugin (the same engine and flags as backplane-conformance)
and fails with the suite's summary when the verdict fails, then checks a few ops by hand on the
plugin's device. Without BP_PLUGIN it tests the sample plugin when it is found (Backplane's own
CI), else it skips visibly.
"""

import os
import subprocess
import sys

import numpy as np
import pytest

PLUGIN = os.environ.get("BP_PLUGIN") or os.environ.get("BP_TOY_PLUGIN", "")
OPS = os.environ.get("BP_CONFORMANCE_OPS", "add,mul,neg")  # "" for every op

pytestmark = pytest.mark.skipif(not os.path.exists(PLUGIN),
                                reason="set BP_PLUGIN to the plugin to test")


def test_conformance_verdict_passes(tmp_path):
    args = ["--backend", PLUGIN, "--report-dir", str(tmp_path)]
    if OPS:
        args += ["--ops", OPS]
    # A child process: a crashing kernel fails this test, not the pytest run.
    r = subprocess.run([sys.executable, "-m", "backplane.conformance", *args],
                       capture_output=True, text=True)
    assert r.returncode == 0, "conformance failed:\n" + r.stdout[-4000:] + r.stderr[-4000:]


def test_ops_on_the_device_match_the_cpu():
    import backplane as bp

    (backend,) = bp.load_plugin(PLUGIN)
    device = bp.device(backend + ":0")
    x = np.linspace(-2, 2, 12, dtype=np.float32).reshape(3, 4)
    on_device = bp.tensor(x).to(device)
    np.testing.assert_allclose(bp.add(on_device, on_device).cpu().numpy(), x + x)
    np.testing.assert_allclose(bp.mul(on_device, 0.5).cpu().numpy(), x * 0.5)
