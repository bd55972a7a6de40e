"""Which samples each declared op gets: a sampler per functional op, and the in-place and out=
variants derived from their functional op's samples."""
import functools

import torch

from . import copies, encode, factories, pointwise, reductions, views
from .encode import DTYPES
from .sample import Sample, tensor

UNARY = ["neg", "exp", "abs", "log", "sqrt", "sin", "tanh", "sigmoid", "erf", "ceil",
         "reciprocal", "isnan", "logical_not", "bitwise_not", "digamma"]
BINARY_TENSOR = ["add.Tensor", "mul.Tensor", "sub.Tensor", "div.Tensor", "remainder.Tensor",
                 "maximum", "atan2", "hypot", "gcd", "eq.Tensor", "lt.Tensor", "logical_and",
                 "bitwise_and.Tensor"]
BINARY_SCALAR = ["add.Scalar", "mul.Scalar", "sub.Scalar", "div.Scalar", "remainder.Scalar",
                 "eq.Scalar", "lt.Scalar", "bitwise_and.Scalar"]
FLOATS = [torch.float64, torch.float32, torch.int64, torch.complex128, torch.bool]


def _alpha(sampler, op, dtype):
    s = sampler(op, dtype)
    base = s[1]
    for alpha in [2, -0.5, True, complex(0, 1)]:
        s.append(Sample(base.description + ", alpha %r" % (alpha,), dict(base.args, alpha=alpha),
                        alpha == 2))
    return s


def _rounding(sampler, op, dtype):
    s = [Sample(x.description + ", floor", dict(x.args, rounding_mode="floor"))
         for x in sampler(op, dtype)]
    for x in sampler(op, dtype)[:4]:
        s.append(Sample(x.description + ", trunc", dict(x.args, rounding_mode="trunc")))
        s.append(Sample(x.description + ", None", dict(x.args, rounding_mode=None)))
    s.append(Sample("rounding mode 'round'", dict(s[0].args, rounding_mode="round")))
    return s


def _reduction(op, dtype):
    R = reductions
    if op == "sum.dim_IntList" or op == "mean.dim":
        s = R.reduce_dims(op, dtype)
        return s + R.with_dtype_arg(s, FLOATS)
    if op == "prod.dim_int":
        s = R.reduce_dims(op, dtype, dim_is_list=False)
        return s + R.with_dtype_arg(s, FLOATS)
    if op == "amax" or op == "logsumexp":
        return R.reduce_dims(op, dtype, all_dims=(op == "amax"))
    if op in ("max.dim", "all.dim", "any.dim"):
        return R.reduce_dims(op, dtype, dim_is_list=False)
    if op == "argmax":
        s = R.reduce_dims(op, dtype, dim_is_list=False)
        return s + [Sample(x.description + ", dim None", dict(x.args, dim=None)) for x in s[:2]]
    if op == "var.correction":
        s = R.reduce_dims(op, dtype)
        for c in [0, 2, None]:
            s += [Sample(x.description + ", correction %r" % c, dict(x.args, correction=c))
                  for x in s[:3]]
        return s + [Sample("dim None", dict(s[0].args, dim=None))]
    if op.startswith("norm."):
        s = []
        for p in [2, 1, 0, 3.5, float("inf"), float("-inf"), None]:
            s += [Sample(x.description + ", p %r" % (p,), dict(x.args, p=p))
                  for x in R.reduce_dims(op, dtype)[::3]]
        if op.endswith("_dtype"):
            s = [Sample(x.description + ", dtype %s" % d, dict(x.args, dtype=d))
                 for x in s[:12] for d in (torch.float64, torch.complex128, torch.float32)]
        return s
    raise KeyError(op)


def _along_dim(op, dtype):
    s = reductions.along_dim(op, dtype)
    if op in ("cumsum", "softmax.int", "log_softmax.int"):
        s += [Sample(x.description + ", dtype %s" % d, dict(x.args, dtype=d))
              for x in s[:2] for d in FLOATS]
    return s


def _scalar_first(op, dtype):
    """Scalar self, Tensor other: remainder.Scalar_Tensor, pow.Scalar, bitwise_and.Scalar_Tensor."""
    key = "exponent" if op.startswith("pow") else "other"
    return [Sample(x.description, {"self": x.args["self"], key: x.args["other"]})
            for x in pointwise.scalar_tensor(op, dtype)]


def _pow(op, dtype):
    if op == "pow.Tensor_Tensor":
        s = pointwise.binary(op, dtype, other="exponent")
    else:
        s = pointwise.binary(op, dtype, other="exponent", scalar_other=True)
    return s


def functional_sampler(name):
    """The sampler of a functional (or stand-alone) op: f(op, dtype) -> [Sample]."""
    base = name.split(".")[0]
    if base in UNARY:
        return pointwise.unary
    if base == "nan_to_num":
        return pointwise.nan_to_num
    if name in ("add.Tensor", "sub.Tensor"):
        return functools.partial(_alpha, pointwise.binary)
    if name in BINARY_TENSOR:
        return pointwise.binary
    if name in ("add.Scalar", "sub.Scalar"):
        return functools.partial(_alpha, functools.partial(pointwise.binary, scalar_other=True))
    if name == "div.Tensor_mode":
        return functools.partial(_rounding, pointwise.binary)
    if name == "div.Scalar_mode":
        return functools.partial(_rounding, functools.partial(pointwise.binary,
                                                              scalar_other=True))
    if name in BINARY_SCALAR:
        return functools.partial(pointwise.binary, scalar_other=True)
    if name in ("remainder.Scalar_Tensor", "pow.Scalar", "bitwise_and.Scalar_Tensor"):
        return _scalar_first
    if base == "pow":
        return _pow
    if name == "where.self":
        return pointwise.ternary_where
    if name == "clamp":
        return pointwise.clamp
    if name == "clamp.Tensor":
        return pointwise.clamp_tensor
    if name == "lerp.Scalar":
        return pointwise.lerp
    if name == "addcmul":
        return pointwise.addcmul
    if name in ("sum.dim_IntList", "mean.dim", "prod.dim_int", "amax", "logsumexp", "max.dim",
                "all.dim", "any.dim", "argmax", "var.correction", "norm.ScalarOpt_dim",
                "norm.ScalarOpt_dim_dtype"):
        return _reduction
    if name in ("cumsum", "cummax", "cummin", "softmax.int", "log_softmax.int"):
        return _along_dim
    return None


def functional_of(op, ops_by_name):
    """The functional op whose samples an in-place or out= op reuses: the one of its structured
    group, else the one of the same base name and arguments (apart from the written ones)."""
    want = [a.name for a in op.args if not (op.kind == "out" and a.written)]
    candidates = [c for c in ops_by_name.values() if c.kind == "functional" and
                  c.base == op.base and functional_sampler(c.name)]
    for c in candidates:
        if op.delegate and c.delegate == op.delegate:
            return c
    overload = op.overload
    if op.kind == "out":
        overload = "" if overload == "out" else overload[:-len("_out")]
    candidates.sort(key=lambda c: c.overload != overload)
    for c in candidates:
        if [a.name for a in c.args] == want:
            return c
    return None


def _out_tensors(op, result, dtype_override=None, sizes=None, layout="contiguous"):
    results = result if isinstance(result, tuple) else (result,)
    names = op.written_args
    out = {}
    for name, r in zip(names, results):
        d = dtype_override if dtype_override is not None else r.dtype
        shape = list(r.shape) if sizes is None else sizes
        if layout == "contiguous" or len(shape) < 2:
            out[name] = torch.zeros(shape, dtype=d)
        else:  # the right shape with the first two dims' strides swapped
            swapped = [shape[1], shape[0]] + shape[2:]
            out[name] = torch.zeros(swapped, dtype=d).transpose(0, 1)
    return out


def out_samples(op, functional, dtype, call):
    """out= samples from the functional op's: an out of the result's dtype and shape, a
    transposed one, an empty one (resized), and outs of other dtypes (cast or refused)."""
    s = []
    base_samples = [x for x in functional_sampler(functional.name)(functional.name, dtype)
                    if x.variants][:4]
    for i, x in enumerate(base_samples):
        try:
            result = call(functional, x.args)
        except Exception:  # noqa: BLE001: the out= call raises too; one out of the column dtype
            s.append(Sample(x.description, dict(x.args, **{
                n: tensor(dtype, [0]) for n in op.written_args})))
            continue
        if any(r.dtype not in encode.DTYPE_NAMES for r in (
                result if isinstance(result, tuple) else (result,))):
            continue  # a PyTorch-only result dtype (complex32): see differences.py
        s.append(Sample(x.description + ", out of the result's dtype and shape",
                        dict(x.args, **_out_tensors(op, result))))
        if i == 0:
            s.append(Sample(x.description + ", empty out (resized)",
                            dict(x.args, **_out_tensors(op, result, sizes=[0]))))
            s.append(Sample(x.description + ", transposed out",
                            dict(x.args, **_out_tensors(op, result, layout="transposed"))))
            for d in (torch.float64, torch.int64, torch.bool, torch.complex64):
                if len(op.written_args) == 1:
                    s.append(Sample(x.description + ", out %s" % str(d)[6:],
                                    dict(x.args, **_out_tensors(op, result, d))))
    return s


def samples(op, ops_by_name, dtype, call):
    """All samples of a declared op for one dtype column."""
    if op.kind == "functional" and functional_sampler(op.name):
        return functional_sampler(op.name)(op.name, dtype)
    functional = functional_of(op, ops_by_name) if op.kind != "functional" else None
    if functional is not None and op.kind == "inplace":
        return [x for x in functional_sampler(functional.name)(functional.name, dtype)
                if x.variants]
    if functional is not None:
        return out_samples(op, functional, dtype, call)
    family_samplers = {"views": views.views, "factories": factories.factories,
                       "copies": copies.copies}
    if op.family not in family_samplers:
        raise KeyError("no samples for " + op.name)
    return family_samplers[op.family](op.name, dtype)


assert all(d in DTYPES.values() for d in FLOATS)
