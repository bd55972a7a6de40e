"""Backplane from Python: tensors, every declared op, plugins and the conformance suite.

    import backplane as bp
    a = bp.from_numpy(numpy.arange(6, dtype=numpy.int32).reshape(2, 3))   # shares memory
    b = bp.add(a, 2.5)                   # add.Scalar: a Python number is a wrapped scalar
    b.dtype                              # backplane.float32, as in PyTorch
    a.add_(1); bp.add(a, a, out=b)       # in-place methods and out=
    bp.empty(2, 3, device="meta")        # shapes and dtypes only
    bp.load_plugin("/path/libtoy_plugin.so"); a.to("toy:0")

The op functions and Tensor methods are generated from the op declarations (sdk/ops/*.yaml);
docs/python.md is the guide. Everything here is a thin layer over backplane._C.
"""

import builtins as _builtins

import numpy as _np

from backplane import _C
from backplane._C import *  # noqa: F401,F403 (the ops, dtypes, Tensor, device, ...)
from backplane._C import Tensor, device, dtype

# Ops whose names start with "_" (_to_copy, ...), which `import *` leaves out.
globals().update({n: getattr(_C, n) for n in dir(_C) if n[:1] == "_" and n[:2] != "__"})

__all__ = [name for name in dir(_C) if not name.startswith("_")] + ["tensor", "as_tensor"]

# PyTorch's dtype aliases.
float = _C.float32  # noqa: A001
double = _C.float64
half = _C.float16
long = _C.int64
int = _C.int32  # noqa: A001
short = _C.int16
cfloat = _C.complex64
cdouble = _C.complex128
bool = _C.bool  # noqa: A001

# The module's own names (float, int, complex, sum, ...) shadow the builtins here, as in torch.
def _is_python_data(data):
    return isinstance(
        data,
        (_builtins.int, _builtins.float, _builtins.complex, _builtins.bool, list, tuple),
    )


def tensor(data, dtype=None, device=None):
    """A new tensor holding a copy of `data` (numbers, nested lists, a numpy array or a Tensor).

    Python data takes PyTorch's default dtypes: floats float32, ints int64, complex complex64.
    """
    if isinstance(data, Tensor):
        result = data.clone()
    else:
        array = _np.array(data)
        if _is_python_data(data):
            if array.dtype == _np.float64:
                array = array.astype(_np.float32)
            elif array.dtype == _np.complex128:
                array = array.astype(_np.complex64)
        result = _C.from_numpy(_np.ascontiguousarray(array)).clone()
    if dtype is not None or device is not None:
        result = result.to(device=device, dtype=dtype)
    return result


def as_tensor(data, dtype=None, device=None):
    """Like tensor(), but a numpy array of a supported dtype is shared, not copied."""
    if isinstance(data, _np.ndarray) and dtype is None and device is None:
        return _C.from_numpy(data)
    return tensor(data, dtype=dtype, device=device)


_declared_to = Tensor.to


def _to(self, *args, **kwargs):
    """The declared overloads of to (below), and also to(device) and to(device=..., dtype=...),
    which the declarations lack (PyTorch's to.dtype_layout): _to_copy when anything changes.

    """
    try:
        return _declared_to(self, *args, **kwargs)
    except TypeError:
        pass
    dtype, device = kwargs.pop("dtype", None), kwargs.pop("device", None)
    copy, non_blocking = kwargs.pop("copy", False), kwargs.pop("non_blocking", False)
    if kwargs or len(args) > 2:
        return _declared_to(self, *args, **kwargs)  # raises the declared overloads' TypeError
    for arg in args:
        if isinstance(arg, _C.dtype):
            dtype = arg
        else:
            device = arg
    if isinstance(device, str):
        device = _C.device(device)
    if not copy and (dtype is None or dtype == self.dtype) and (
        device is None or device == self.device
    ):
        return self
    return _C._to_copy(self, dtype=dtype, device=device, non_blocking=non_blocking)


_to.__doc__ += _declared_to.__doc__


def _cpu(self):
    return self if self.device.type == "cpu" else _to(self, device="cpu")


def _tolist(self):
    return _cpu(self).numpy().tolist()


def _item(self):
    if self.numel() != 1:
        raise RuntimeError(
            "a Tensor with %d elements cannot be converted to Scalar" % self.numel()
        )
    return _cpu(self).numpy().reshape(()).item()


def _repr(self):
    if self.device.type == "meta" or self.dtype == _C.bfloat16:
        body = "..., size=%s" % (tuple(self.shape),)
    else:
        body = _np.array2string(_cpu(self).numpy(), separator=", ", prefix="tensor(")
    extra = ""
    if self.device.type != "cpu":
        extra += ", device='%s'" % self.device
    if self.dtype not in (_C.float32, _C.int64, _C.bool):
        extra += ", dtype=%r" % self.dtype
    return "tensor(%s%s)" % (body, extra)


def _binary(name):
    op = getattr(_C, name)
    return lambda self, other: op(self, other)


Tensor.to = _to
Tensor.cpu = _cpu
Tensor.tolist = _tolist
Tensor.item = _item
Tensor.__repr__ = _repr
Tensor.__array__ = lambda self, dtype=None: _np.asarray(_cpu(self).numpy(), dtype=dtype)
def _len(self):
    if self.ndim == 0:
        raise TypeError("len() of a 0-d tensor")
    return self.shape[0]


Tensor.__len__ = _len


def _bool(self):
    if self.numel() != 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return _builtins.bool(_item(self))


Tensor.__bool__ = _bool
Tensor.__float__ = lambda self: _builtins.float(_item(self))
Tensor.__int__ = lambda self: _builtins.int(_item(self))
Tensor.__add__ = _binary("add")
Tensor.__radd__ = _binary("add")
Tensor.__sub__ = _binary("sub")
Tensor.__rsub__ = lambda self, other: _C.rsub(self, other)
Tensor.__mul__ = _binary("mul")
Tensor.__rmul__ = _binary("mul")
Tensor.__truediv__ = _binary("div")
Tensor.__neg__ = lambda self: _C.neg(self)
Tensor.__iadd__ = lambda self, other: self.add_(other)
Tensor.__isub__ = lambda self, other: self.sub_(other)
Tensor.__imul__ = lambda self, other: self.mul_(other)
Tensor.__eq__ = _binary("eq")
Tensor.__ne__ = _binary("ne")
Tensor.__lt__ = _binary("lt")
Tensor.__le__ = _binary("le")
Tensor.__gt__ = _binary("gt")
Tensor.__ge__ = _binary("ge")
Tensor.__hash__ = object.__hash__
