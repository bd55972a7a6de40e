"""Tensors to and from numpy and DLPack keep dtype, shape and strides and share memory."""

import numpy as np
import pytest

import backplane as bp

NUMPY_DTYPES = [np.bool_, np.uint8, np.int8, np.int16, np.int32, np.int64, np.float16,
                np.float32, np.float64, np.complex64, np.complex128]


def _sample(dtype):
    return (np.arange(24) % 3).astype(dtype).reshape(2, 3, 4)


@pytest.mark.parametrize("dtype", NUMPY_DTYPES, ids=lambda d: np.dtype(d).name)
def test_numpy_round_trip_keeps_dtype_shape_strides_and_memory(dtype):
    a = _sample(dtype)
    t = bp.from_numpy(a)
    assert t.dtype.name == np.dtype(dtype).name
    assert t.shape == (2, 3, 4)
    assert t.stride() == tuple(s // a.itemsize for s in a.strides)
    b = t.numpy()
    assert b.dtype == a.dtype and b.shape == a.shape and b.strides == a.strides
    assert np.shares_memory(a, b)
    np.testing.assert_array_equal(a, b)


def test_strided_numpy_views_stay_views():
    a = np.arange(24, dtype=np.float32).reshape(4, 6)[::2, 1::2].T  # non-contiguous
    t = bp.from_numpy(a)
    assert t.stride() == (2, 12)
    assert not t.is_contiguous()
    b = t.numpy()
    assert b.strides == a.strides and np.shares_memory(a, b)
    np.testing.assert_array_equal(bp.mul(t, 2).numpy(), a * 2)


def test_writes_through_either_side_are_seen_by_the_other():
    a = np.zeros(4, dtype=np.float32)
    t = bp.from_numpy(a)
    t.add_(1.5)
    np.testing.assert_array_equal(a, [1.5] * 4)
    a[0] = 7
    assert t.numpy()[0] == 7


def test_the_array_outlives_the_tensor_and_the_tensor_the_array():
    t = bp.from_numpy(np.arange(3, dtype=np.int64))
    b = bp.mul(t, 2).numpy()  # the only reference to the result tensor is the array's base
    del t
    np.testing.assert_array_equal(b, [0, 2, 4])


def test_negative_strides_raise_value_error_as_in_pytorch():
    with pytest.raises(ValueError, match="At least one stride in the given numpy array is negative"):
        bp.from_numpy(np.arange(4, dtype=np.float32)[::-1])


def test_unsupported_numpy_dtypes_raise_type_error():
    with pytest.raises(TypeError, match="can't convert np.ndarray of type"):
        bp.from_numpy(np.array(["a"]))


def test_bfloat16_and_meta_tensors_have_no_numpy_form():
    with pytest.raises(TypeError, match="Got unsupported ScalarType BFloat16"):
        bp.ones(2, dtype=bp.bfloat16).numpy()
    with pytest.raises(TypeError, match="can't convert meta device type tensor to numpy"):
        bp.ones(2, device="meta").numpy()


@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.int64, np.float32, np.float64,
                                   np.complex64], ids=lambda d: np.dtype(d).name)
def test_dlpack_from_numpy_shares_memory(dtype):
    a = _sample(dtype)[:, 1:, ::2]
    t = bp.from_dlpack(a)
    assert t.dtype.name == np.dtype(dtype).name
    assert t.shape == a.shape
    assert t.stride() == tuple(s // a.itemsize for s in a.strides)
    assert t.data_ptr() == a.ctypes.data
    np.testing.assert_array_equal(t.numpy(), a)


def test_dlpack_to_numpy_shares_memory():
    t = bp.mul(bp.arange(12, dtype=bp.float32).view(3, 4).transpose(0, 1), 1.0)
    assert t.__dlpack_device__() == (1, 0)
    a = np.from_dlpack(t)
    assert a.shape == (4, 3) and a.dtype == np.float32
    assert a.ctypes.data == t.data_ptr()
    np.testing.assert_array_equal(a, t.numpy())
    t.zero_()
    assert not a.any()


def test_a_dlpack_capsule_is_consumed_once():
    capsule = bp.arange(3).__dlpack__()
    t = bp.from_dlpack(capsule)
    np.testing.assert_array_equal(t.numpy(), [0, 1, 2])
    with pytest.raises(TypeError, match="unused 'dltensor' capsule"):
        bp.from_dlpack(capsule)


def test_meta_tensors_cannot_be_exported():
    with pytest.raises(BufferError, match="Cannot pack tensors on meta"):
        bp.ones(2, device="meta").__dlpack__()


def test_dlpack_with_torch_both_ways(torch):
    t = bp.arange(6, dtype=bp.float32)
    u = torch.utils.dlpack.from_dlpack(t.__dlpack__())
    assert u.data_ptr() == t.data_ptr() and u.tolist() == t.tolist()
    v = bp.from_dlpack(torch.arange(4, dtype=torch.int32))
    assert v.dtype == bp.int32 and v.tolist() == [0, 1, 2, 3]
