"""load_plugin with the sample plugin (samples/c_plugin): tensors on its device run its kernels."""

import os

import numpy as np
import pytest

import backplane as bp

TOY = os.environ.get("BP_TOY_PLUGIN", "")


@pytest.fixture(scope="module")
def toy():
    if not os.path.exists(TOY):
        pytest.fail("BP_TOY_PLUGIN does not name the sample plugin: %r" % TOY)
    assert bp.load_plugin(TOY) == ["toy"]
    assert bp.load_plugin(TOY) == ["toy"]  # a second load of the same file is a no-op
    return bp.device("toy:0")


def test_tensors_on_the_plugin_device_compute_like_the_cpu(toy):
    a = bp.tensor([1.0, 2.0, 3.0]).to(toy)
    b = bp.tensor([0.5, 0.5, 0.5]).to(toy)
    assert a.device == toy
    r = bp.add(a, b, alpha=2)
    assert r.device == toy
    assert r.cpu().tolist() == [2.0, 3.0, 4.0]
    np.testing.assert_allclose(bp.mul(a, 2.0).cpu().numpy(), [2.0, 4.0, 6.0])


def test_the_plugin_device_is_described_to_dlpack_as_an_extension_device(toy):
    assert bp.ones(2).to(toy).__dlpack_device__() == (12, 0)


def test_loading_a_missing_plugin_raises_with_the_path():
    with pytest.raises(RuntimeError, match="/no/such/plugin.so"):
        bp.load_plugin("/no/such/plugin.so")
