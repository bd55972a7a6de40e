"""Samples of the pointwise families: unary, binary and ternary ops (functional variants; the
in-place and out= ones are derived in variants.py)."""
from .encode import ALL, WrappedNumber
from .sample import Sample, python_numbers, special_vector, tensor


def unary(op, dtype, extra=None):
    """Every layout, special values, 0-dim and zero-size tensors; `extra` adds arguments."""
    extra = extra or {}
    cases = [
        ("special values", special_vector(dtype)),
        ("random 3x4", tensor(dtype, [3, 4], seed=(op,))),
        ("transposed 3x4", tensor(dtype, [3, 4], layout="transposed", seed=(op,))),
        ("sliced 2x3 with offset", tensor(dtype, [2, 3], layout="sliced", seed=(op,))),
        ("expanded 3x4 (stride 0)", tensor(dtype, [3, 4], layout="expanded", seed=(op,))),
        ("0-dim", tensor(dtype, [], seed=(op,))),
        ("zero-size 0x3", tensor(dtype, [0, 3])),
    ]
    return [Sample(d, dict(self=t, **extra)) for d, t in cases]


def unary_with_arg(op, dtype, name, values, required=False):
    """unary's samples with argument `name`: the first value on every sample when the argument
    is required, then each other value on the first four samples."""
    base = unary(op, dtype, {name: values[0]} if required else None)
    out = list(base)
    for v in values[1 if required else 0:]:
        out += [Sample(x.description + ", %s=%r" % (name, v), dict(x.args, **{name: v}))
                for x in base[:4]]
    return out


def nan_to_num(op, dtype):
    out = unary(op, dtype)
    for nan, posinf, neginf in [(0.5, None, None), (None, 7.0, -7.0), (1.0, 2.0, 3.0)]:
        out.append(Sample("special values, nan=%s posinf=%s neginf=%s" % (nan, posinf, neginf),
                          dict(self=special_vector(dtype), nan=nan, posinf=posinf,
                               neginf=neginf)))
    return out


def _grid(dtype, other_dtype, limit):
    a = special_vector(dtype, limit)
    b = special_vector(other_dtype, limit)
    return a.reshape(-1, 1), b.reshape(1, -1)


def binary(op, dtype, other="other", extra=None, scalar_other=False):
    """Special-value grids (broadcast), layouts, every other dtype, Python numbers, 0-dim
    operands, zero-size tensors and mismatched shapes. `scalar_other`: the op's `other` is a
    Scalar (a Tensor-Scalar overload)."""
    extra = extra or {}
    out = []

    def add(description, self, o, variants=True, **more):
        args = dict(self=self, **extra)
        args[other] = o
        args.update(more)
        out.append(Sample(description, args, variants))

    if scalar_other:
        for v in python_numbers():
            add("special values with Scalar %r" % (v,), special_vector(dtype), v,
                v in (3, 2.5) or isinstance(v, complex))
        add("transposed 3x4 with Scalar 2", tensor(dtype, [3, 4], layout="transposed",
                                                   seed=(op,)), 2)
        add("0-dim with Scalar 1.5", tensor(dtype, [], seed=(op,)), 1.5)
        add("zero-size with Scalar 3", tensor(dtype, [0, 3]), 3)
        return out
    a, b = _grid(dtype, dtype, 10)
    add("special values grid", a, b)
    add("random 3x4", tensor(dtype, [3, 4], seed=(op, 1)), tensor(dtype, [3, 4], seed=(op, 2)))
    add("broadcast 3x1 with 4", tensor(dtype, [3, 1], seed=(op, 1)), tensor(dtype, [4],
                                                                           seed=(op, 2)))
    add("transposed with sliced", tensor(dtype, [3, 4], layout="transposed", seed=(op, 1)),
        tensor(dtype, [3, 4], layout="sliced", seed=(op, 2)))
    add("expanded with random", tensor(dtype, [3, 4], layout="expanded", seed=(op, 1)),
        tensor(dtype, [3, 4], seed=(op, 2)))
    add("zero-size 0x3 with 3", tensor(dtype, [0, 3]), tensor(dtype, [3], seed=(op,)))
    add("0-dim with 0-dim", tensor(dtype, [], seed=(op, 1)), tensor(dtype, [], seed=(op, 2)))
    add("sizes 2 and 3 do not broadcast", tensor(dtype, [2], seed=(op,)),
        tensor(dtype, [3], seed=(op,)))
    for o in ALL:
        if o != dtype:
            add("with %s" % o, tensor(dtype, [4], seed=(op, 1)), tensor(o, [4], seed=(op, 2)),
                o in ("bool", "int64", "float64", "complex128"))
    for o in ("int64", "float64", "complex64"):
        if o != dtype:
            add("with 0-dim %s" % o, tensor(dtype, [4], seed=(op, 1)),
                tensor(o, [], seed=(op, 3)), False)
    for v in python_numbers():
        add("with Python number %r" % (v,), special_vector(dtype, 8), WrappedNumber(v),
            isinstance(v, (complex, float)))
    return out


def scalar_tensor(op, dtype):
    """Scalar self, Tensor other (remainder.Scalar_Tensor, pow.Scalar, bitwise_and.Scalar_Tensor)."""
    out = []
    for v in python_numbers():
        out.append(Sample("Scalar %r with special values" % (v,),
                          dict(self=v, other=special_vector(dtype))))
    return out


def ternary_where(op, dtype):
    out = []
    cond = tensor("bool", [3, 4], seed=(op, "cond"))
    out.append(Sample("random 3x4", dict(condition=cond, self=tensor(dtype, [3, 4], seed=(op, 1)),
                                         other=tensor(dtype, [3, 4], seed=(op, 2)))))
    out.append(Sample("broadcast", dict(condition=tensor("bool", [3, 1], seed=(op, "c")),
                                        self=tensor(dtype, [4], seed=(op, 1)),
                                        other=tensor(dtype, [3, 4], layout="transposed",
                                                     seed=(op, 2)))))
    for o in ALL:
        out.append(Sample("with %s" % o, dict(condition=tensor("bool", [4], seed=(op, "c")),
                                              self=tensor(dtype, [4], seed=(op, 1)),
                                              other=tensor(o, [4], seed=(op, 2)))))
    out.append(Sample("condition not bool", dict(condition=tensor("uint8", [4], seed=(op,)),
                                                 self=tensor(dtype, [4], seed=(op, 1)),
                                                 other=tensor(dtype, [4], seed=(op, 2)))))
    out.append(Sample("zero-size", dict(condition=tensor("bool", [0, 2]),
                                        self=tensor(dtype, [0, 2]), other=tensor(dtype, [2]))))
    return out


def clamp(op, dtype):
    out = []
    for lo, hi in [(-1, 2), (None, 0.5), (-0.0, None), (0.0, -0.0), (3, -3), (float("nan"), 1),
                   (True, None), (None, None), (1.5, 2.5)]:
        out.append(Sample("special values, min=%r max=%r" % (lo, hi),
                          dict(self=special_vector(dtype), min=lo, max=hi)))
    out.append(Sample("transposed, min=-1 max=1",
                      dict(self=tensor(dtype, [3, 4], layout="transposed", seed=(op,)),
                           min=-1, max=1)))
    return out


def clamp_tensor(op, dtype):
    out = []
    x = special_vector(dtype, 12)
    a, b = x.reshape(-1, 1), x.reshape(1, -1)
    out.append(Sample("special values grid, min tensor", dict(self=a, min=b, max=None)))
    out.append(Sample("special values grid, max tensor", dict(self=a, min=None, max=b)))
    out.append(Sample("special values grid, min and max", dict(self=a, min=b, max=b.flip(1))))
    out.append(Sample("both None", dict(self=a, min=None, max=None)))
    for o in ALL:
        out.append(Sample("min %s" % o, dict(self=tensor(dtype, [4], seed=(op, 1)),
                                             min=tensor(o, [4], seed=(op, 2)), max=None)))
    return out


def lerp(op, dtype):
    out = []
    x = special_vector(dtype, 12)
    for w in [0.0, 0.25, 0.5, 0.75, 1.0, -1.0, 2.0, float("inf"), float("nan"), 3]:
        out.append(Sample("special values grid, weight %r" % w,
                          dict(self=x.reshape(-1, 1), end=x.reshape(1, -1), weight=w)))
    out.append(Sample("same shapes, weight 0.75", dict(self=x, end=x.flip(0), weight=0.75)))
    out.append(Sample("end float64", dict(self=tensor(dtype, [4], seed=(op, 1)),
                                          end=tensor("float64", [4], seed=(op, 2)), weight=0.5)))
    return out


def addcmul(op, dtype):
    out = []
    x = special_vector(dtype, 10)
    for v in [1, 2, 0.5, -1.5, True, complex(0, 1)]:
        out.append(Sample("special values, value %r" % (v,),
                          dict(self=x.reshape(-1, 1, 1), tensor1=x.reshape(1, -1, 1),
                               tensor2=tensor(dtype, [1, 1, 3], seed=(op,)), value=v)))
    out.append(Sample("same shapes, value 2", dict(self=x, tensor1=x.flip(0), tensor2=x, value=2)))
    for o in ALL:
        out.append(Sample("tensor2 %s" % o, dict(self=tensor(dtype, [4], seed=(op, 1)),
                                                 tensor1=tensor(dtype, [4], seed=(op, 2)),
                                                 tensor2=tensor(o, [4], seed=(op, 3)), value=1)))
    return out


def lerp_tensor(op, dtype):
    """lerp with a Tensor weight: the special-values grid with 0-dim weights, a weight of the
    grid's shape, and weights of another dtype."""
    out = []
    x = special_vector(dtype, 12)
    floating = dtype.startswith(("float", "bfloat", "complex"))
    # Weights above -0.5 (below it, lerp-weight leaves the case out): extrapolation both ways.
    bounds = dict(low=-0.45, high=1.5) if floating else {}
    for w in [0.0, 0.25, 0.75, 1.0, -1.0, 2.0, float("inf"), float("nan")] if floating else [1]:
        out.append(Sample("special values grid, 0-dim weight %r" % w,
                          dict(self=x.reshape(-1, 1), end=x.reshape(1, -1),
                               weight=tensor(dtype, [], vals=[w])), w in (0.25, 0.75)))
    out.append(Sample("random 3x4, weight transposed 3x4",
                      dict(self=tensor(dtype, [3, 4], seed=(op, 1)),
                           end=tensor(dtype, [3, 4], seed=(op, 2)),
                           weight=tensor(dtype, [3, 4], layout="transposed", seed=(op, 3),
                                         **bounds))))
    out.append(Sample("weight broadcast 4 over 3x4",
                      dict(self=tensor(dtype, [3, 4], seed=(op, 1)),
                           end=tensor(dtype, [3, 4], layout="sliced", seed=(op, 2)),
                           weight=tensor(dtype, [4], seed=(op, 3), **bounds))))
    for o in ("float64", "float32", "complex64"):
        if o != dtype:
            out.append(Sample("weight %s" % o, dict(self=tensor(dtype, [4], seed=(op, 1)),
                                                    end=tensor(dtype, [4], seed=(op, 2)),
                                                    weight=tensor(o, [4], seed=(op, 3))), False))
    out.append(Sample("end float64", dict(self=tensor(dtype, [4], seed=(op, 1)),
                                          end=tensor("float64", [4], seed=(op, 2)),
                                          weight=tensor(dtype, [4], seed=(op, 3))), False))
    return out


def masked_fill(op, dtype, tensor_value=False):
    """masked_fill: special values under a mask, numbers of every kind as the value (0-dim tensors
    of several dtypes for masked_fill.Tensor), broadcast masks and selves, bad masks."""
    out = []
    x = special_vector(dtype)
    mask = tensor("bool", list(x.shape), seed=(op, "mask"))

    def value(v, vdtype=None):
        if not tensor_value:
            return v
        if vdtype is None:
            vdtype = ("bool" if isinstance(v, bool) else "int64" if isinstance(v, int) else
                      "complex64" if isinstance(v, complex) else "float64")
        return tensor(vdtype, [], vals=[v])

    for v in [2.5, -3, True, -0.0, float("nan"), float("inf"), complex(0, 1), 300, 1e10]:
        out.append(Sample("special values, value %r" % (v,), dict(self=x, mask=mask, value=value(v)),
                          v in (2.5, -3)))
    if tensor_value:
        out.append(Sample("special values, value 0-dim %s" % dtype,
                          dict(self=x, mask=mask, value=tensor(dtype, [], seed=(op, "v")))))
        out.append(Sample("1-dim value", dict(self=x, mask=mask, value=tensor(dtype, [1], seed=(op,))),
                          False))
    out.append(Sample("transposed 3x4, mask broadcast 4",
                      dict(self=tensor(dtype, [3, 4], layout="transposed", seed=(op, 1)),
                           mask=tensor("bool", [4], seed=(op, 2)), value=value(2))))
    out.append(Sample("sliced 2x3, mask expanded",
                      dict(self=tensor(dtype, [2, 3], layout="sliced", seed=(op, 1)),
                           mask=tensor("bool", [2, 3], layout="expanded", seed=(op, 2)),
                           value=value(-1))))
    out.append(Sample("self 4 broadcast to the mask's 3x4",
                      dict(self=tensor(dtype, [4], seed=(op, 1)),
                           mask=tensor("bool", [3, 4], seed=(op, 2)), value=value(1))))
    out.append(Sample("0-dim", dict(self=tensor(dtype, [], seed=(op, 1)),
                                    mask=tensor("bool", [], vals=[True]), value=value(3))))
    out.append(Sample("zero-size 0x3", dict(self=tensor(dtype, [0, 3]),
                                            mask=tensor("bool", [3], seed=(op,)), value=value(3))))
    out.append(Sample("sizes 2 and 3 do not broadcast",
                      dict(self=tensor(dtype, [2], seed=(op,)), mask=tensor("bool", [3], seed=(op,)),
                           value=value(1)), False))
    for m in ("uint8", "int64", "float32"):
        out.append(Sample("mask %s" % m, dict(self=tensor(dtype, [4], seed=(op, 1)),
                                              mask=tensor(m, [4], vals=[1, 0, 0, 1]),
                                              value=value(2)), False))
    return out


def where_scalars(op, dtype, self_number, other_number):
    """where with a number for self, other or both; the column's dtype is the tensor operand's
    (where.Scalar: the condition's, bool; other columns give PyTorch's condition error)."""
    out = []
    cond_dtype = "bool" if not (self_number and other_number) else dtype
    if cond_dtype not in ("bool", "uint8"):
        cond_dtype = None
    for v in python_numbers() + [300, -1]:
        if self_number and other_number:
            pairs = [(v, w) for w in (3, 2.5, True, complex(0, 1))]
        else:
            pairs = [(v, v)]
        for a, b in pairs:
            if cond_dtype is None:
                break
            args = dict(condition=tensor(cond_dtype, [3, 4], seed=(op, "c"), low=0, high=1))
            args["self"] = a if self_number else tensor(dtype, [3, 4], layout="transposed",
                                                        seed=(op, 1))
            args["other"] = b if other_number else tensor(dtype, [4], seed=(op, 2))
            out.append(Sample("number %r, %r" % (a, b) if self_number and other_number else
                              "number %r" % (v,), args))
    if not (self_number and other_number):
        t = tensor(dtype, [], seed=(op, 3))
        args = dict(condition=tensor("bool", [2, 3], seed=(op, "c")))
        args["self"] = 1.5 if self_number else t
        args["other"] = 1.5 if other_number else t
        out.append(Sample("0-dim tensor", args))
    return out
