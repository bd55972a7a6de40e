"""PyTorch values as the case-file JSON of docs/conformance.md ("Case files")."""
import math

import numpy
import torch

DTYPES = {
    "bool": torch.bool,
    "uint8": torch.uint8,
    "int8": torch.int8,
    "int16": torch.int16,
    "int32": torch.int32,
    "int64": torch.int64,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float32": torch.float32,
    "float64": torch.float64,
    "complex64": torch.complex64,
    "complex128": torch.complex128,
}
DTYPE_NAMES = {v: k for k, v in DTYPES.items()}
INTEGRAL = ["bool", "uint8", "int8", "int16", "int32", "int64"]
FLOATING = ["float16", "bfloat16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
ALL = INTEGRAL + FLOATING + COMPLEX


class UnknownDtype(Exception):
    """A PyTorch dtype Backplane does not have (complex32, quantized types)."""


def dtype_name(dtype):
    if dtype not in DTYPE_NAMES:
        raise UnknownDtype(str(dtype))
    return DTYPE_NAMES[dtype]


_SINGLE = (torch.float32, torch.float16, torch.bfloat16, torch.complex64)


def _shortest_single(v):
    """The shortest decimal that reads back (through a double) as the float32 value v: halves
    the size of the golden files."""
    short = float(repr(numpy.float32(v)))
    return short if numpy.float32(short) == numpy.float32(v) else v


def real(v, compact=True, dtype=None):
    """A real number: JSON's, or "nan", "inf", "-inf", "-0.0". `compact` writes integral values
    as integers (a dtype-typed element); Scalars keep the float form so they stay floats."""
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v == 0 and math.copysign(1.0, v) < 0:
        return "-0.0"
    if compact and v.is_integer() and abs(v) < 2**53:
        return int(v)
    return _shortest_single(v) if dtype in _SINGLE else v


def element(v, dtype):
    if dtype == torch.bool:
        return bool(v)
    if not dtype.is_floating_point and not dtype.is_complex:
        return int(v)
    if dtype.is_complex:
        v = complex(v)
        return [real(v.real, dtype=dtype), real(v.imag, dtype=dtype)]
    return real(v, dtype=dtype)


def values(t):
    """A tensor's values, row-major."""
    flat = t.detach().contiguous().reshape(-1)
    if flat.dtype == torch.bfloat16 or flat.dtype == torch.float16:
        flat = flat.to(torch.float64)  # exact: tolist() of float64 keeps every bit
    return [element(v, t.dtype) for v in flat.tolist()]


def tensor(t):
    """An argument: the short form when contiguous from offset 0 with its own whole storage,
    else its geometry and whole storage."""
    storage_numel = t.storage().size()
    j = {"dtype": dtype_name(t.dtype), "sizes": list(t.shape)}
    if t.is_contiguous() and t.storage_offset() == 0 and storage_numel == t.numel():
        j["values"] = values(t)
    else:
        base = t.as_strided((storage_numel,), (1,), 0)
        j["strides"] = list(t.stride())
        j["storage_offset"] = t.storage_offset()
        j["storage"] = values(base)
    return j


def wrapped_number(v):
    """A Python number passed for a Tensor argument (PyTorch wraps it: a 0-dim tensor that takes
    part in type promotion as a Scalar does)."""
    if isinstance(v, bool):
        dtype = torch.bool
    elif isinstance(v, int):
        dtype = torch.int64
    elif isinstance(v, float):
        dtype = torch.float64
    else:
        dtype = torch.complex128
    return {"dtype": dtype_name(dtype), "sizes": [], "values": [element(v, dtype)],
            "wrapped_number": True}


def scalar(v):
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, complex):
        return {"real": real(v.real, False), "imag": real(v.imag, False)}
    return real(v, False)


def argument(v):
    """Any argument value (a schema-typed value of a case's "args")."""
    if isinstance(v, WrappedNumber):
        return wrapped_number(v.value)
    if isinstance(v, torch.Tensor):
        return tensor(v)
    if isinstance(v, torch.dtype):
        return dtype_name(v)
    if isinstance(v, torch.memory_format):
        return {torch.contiguous_format: "contiguous_format",
                torch.channels_last: "channels_last",
                torch.preserve_format: "preserve_format"}[v]
    if isinstance(v, torch.device):
        return "<device>"
    if isinstance(v, (list, tuple)):
        return [argument(x) for x in v]
    if v is None or isinstance(v, str):
        return v
    return scalar(v)


class WrappedNumber:
    """A Python number given for a Tensor argument."""

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return repr(self.value)


def output(t):
    """An expected output: values with the sizes, strides and storage offset PyTorch gave."""
    j = {"dtype": dtype_name(t.dtype), "sizes": list(t.shape), "values": values(t)}
    if t.numel() > 1:
        j["strides"] = list(t.stride())
    return j
