"""PyTorch's calling conventions: wrapped scalars, out=, in-place methods, keywords, meta."""

import numpy as np
import pytest

import backplane as bp
from conftest import floats


def test_python_numbers_promote_as_wrapped_scalars():
    i = bp.tensor([1, 2, 3], dtype=bp.int32)
    r = bp.add(i, 2.5)
    assert r.dtype == bp.float32
    assert r.tolist() == [3.5, 4.5, 5.5]
    assert bp.add(i, 2).dtype == bp.int32
    assert bp.mul(bp.tensor([1, 2], dtype=bp.uint8), True).dtype == bp.uint8
    assert bp.add(floats(2), 1j).dtype == bp.complex64
    assert bp.eq(bp.tensor([2], dtype=bp.int8), 2.5).tolist() == [False]


def test_keyword_arguments_and_alpha():
    a, b = floats(3), floats(3)
    np.testing.assert_allclose(bp.add(a, b, alpha=2).numpy(), a.numpy() + 2 * b.numpy())
    np.testing.assert_allclose(bp.add(input=a, other=b).numpy(), a.numpy() + b.numpy())
    np.testing.assert_allclose(bp.sum(a, dim=0, keepdim=True).numpy(), [a.numpy().sum()],
                               rtol=1e-6)


def test_out_writes_into_the_given_tensor_and_returns_it():
    a, b = floats(2, 2), floats(2, 2)
    out = bp.empty(0)
    r = bp.add(a, b, out=out)
    assert r is out
    assert out.shape == (2, 2)
    np.testing.assert_allclose(out.numpy(), a.numpy() + b.numpy())
    values, indices = bp.empty(0), bp.empty(0, dtype=bp.int64)
    r = bp.cummax(bp.tensor([1.0, 3.0, 2.0]), 0, out=(values, indices))
    assert r[0] is values and r[1] is indices
    assert values.tolist() == [1.0, 3.0, 3.0] and indices.tolist() == [0, 1, 1]


def test_in_place_methods_modify_and_return_self():
    a = bp.tensor([1.0, 2.0])
    version = a._version()
    r = a.mul_(3)
    assert r is a
    assert a.tolist() == [3.0, 6.0]
    assert a._version() > version
    a.add_(bp.tensor([1.0, 1.0]), alpha=2)
    assert a.tolist() == [5.0, 8.0]


def test_methods_and_views_share_storage():
    a = bp.arange(6, dtype=bp.float32)
    v = a.view(2, 3)
    assert v.shape == (2, 3) and v._is_alias_of(a)
    t = v.transpose(0, 1)
    assert t.stride() == (1, 3)
    v.fill_(1.0)
    assert a.tolist() == [1.0] * 6


def test_varargs_sizes_and_factories():
    assert bp.zeros(2, 3).shape == (2, 3)
    assert bp.ones((4,), dtype=bp.int64).tolist() == [1, 1, 1, 1]
    assert bp.full([2], 7, dtype=bp.int16).dtype == bp.int16
    assert bp.arange(5).dtype == bp.int64


def test_meta_device_gives_shapes_and_dtypes_of_real_runs():
    cases = [
        lambda d: bp.add(bp.ones(3, 1, device=d), bp.ones(1, 4, dtype=bp.int32, device=d)),
        lambda d: bp.sum(bp.ones(2, 3, 4, device=d), [0, 2], keepdim=True),
        lambda d: bp.ones(2, 3, device=d).transpose(0, 1).contiguous(),
        lambda d: bp.max(bp.ones(5, 2, device=d), 0),
        lambda d: bp.cumsum(bp.ones(3, 2, dtype=bp.int32, device=d), 1),
        lambda d: bp.mul(bp.ones(2, 2, dtype=bp.uint8, device=d), 2.5),
    ]
    for case in cases:
        real, meta = case("cpu"), case("meta")
        real = real if isinstance(real, tuple) else (real,)
        meta = meta if isinstance(meta, tuple) else (meta,)
        for r, m in zip(real, meta):
            assert m.device.type == "meta"
            assert (m.shape, m.stride(), m.dtype) == (r.shape, r.stride(), r.dtype)


def test_tensors_move_between_devices():
    a = floats(3)
    m = a.to("meta")
    assert m.device == bp.device("meta") and m.shape == (3,)
    assert a.to(bp.float64).dtype == bp.float64
    assert a.to("cpu") is a


def test_python_operators():
    a = bp.tensor([1.0, 2.0])
    assert (a + 1).tolist() == [2.0, 3.0]
    assert (2 * a).tolist() == [2.0, 4.0]
    assert (1 - a).tolist() == [0.0, -1.0]
    assert (a / 2).tolist() == [0.5, 1.0]
    assert (a == 2).tolist() == [False, True]
    assert (-a).tolist() == [-1.0, -2.0]
    assert bp.tensor([3]).item() == 3 and float(bp.tensor([2.5])) == 2.5
    assert bool(bp.tensor([1])) and not bool(bp.tensor([0]))
    with pytest.raises(RuntimeError, match="more than one value is ambiguous"):
        bool(a)
    with pytest.raises(RuntimeError, match="a Tensor with 2 elements cannot be converted"):
        a.item()
