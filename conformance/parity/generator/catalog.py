"""Which samples each declared op gets: a sampler per functional op, and the in-place and out=
variants derived from their functional op's samples."""
import functools
import re

import torch

from . import (attention, copies, encode, factories, indexing, joins, layer_norm, linalg,
               pointwise, promotion,
               reductions, views)
from .sample import Sample, tensor

# The dtype= arguments the samples of ops that take one try.
DTYPE_ARGS = [torch.float64, torch.float32, torch.int64, torch.complex128, torch.bool]


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


def _scalar_first(op, dtype, other):
    """A Scalar self and a Tensor `other` (remainder.Scalar_Tensor, pow.Scalar)."""
    return [Sample(x.description, {"self": x.args["self"], other: x.args["other"]})
            for x in pointwise.scalar_tensor(op, dtype)]


def _reduction(op, dtype, types):
    """Sampled from the schema: the dim's type (a list, an int, an optional int), and dtype=,
    correction and p when the op takes them."""
    R = reductions
    if "dim" not in types:  # a full reduction (sum(self), max(self))
        s = R.reduce_all(op, dtype)
        return s + R.with_dtype_arg(s, DTYPE_ARGS) if "dtype" in types else s
    dim = types["dim"]
    s = R.reduce_dims(op, dtype, dim_is_list=dim.startswith("int["))
    if "keepdim" not in types:  # count_nonzero
        s = [Sample(x.description, {k: v for k, v in x.args.items() if k != "keepdim"})
             for x in s if not x.args.get("keepdim")]
    if dim in ("int?", "int[1]?"):
        s += [Sample(x.description + ", dim None", dict(x.args, dim=None)) for x in s[:2]]
    if "correction" in types:
        for c in [0, 2, None]:
            s += [Sample(x.description + ", correction %r" % c, dict(x.args, correction=c))
                  for x in s[:3]]
        s.append(Sample("dim None", dict(s[0].args, dim=None)))
    order = "p" if "p" in types else "ord" if "ord" in types else None
    if order:
        orders = [2, 1, 0, 3.5, float("inf"), float("-inf")] + ([None] if order == "p" else [])
        s = [Sample(x.description + ", %s %r" % (order, p), dict(x.args, **{order: p}))
             for p in orders for x in s[::3]]
        if "dtype" in types:
            with_dtype = [Sample(x.description + ", dtype %s" % d, dict(x.args, dtype=d))
                          for x in s[:12] for d in (torch.float64, torch.complex128, torch.float32)]
            # norm.ScalarOpt_dim_dtype requires its dtype; linalg_vector_norm's is optional.
            return with_dtype if types["dtype"] == "ScalarType" else s + with_dtype
    elif "dtype" in types:
        s += R.with_dtype_arg(s, DTYPE_ARGS)
    return s


# Activations: pointwise.unary's samples, then each non-default argument set on the special
# values and on a random tensor.
ACTIVATION_ARGS = {
    "elu": [dict(alpha=0.5), dict(alpha=2, scale=1.0507, input_scale=1.5),
            dict(alpha=-1.5, scale=-2.0, input_scale=0.25)],
    "leaky_relu": [dict(negative_slope=0.2), dict(negative_slope=-3.0),
                   dict(negative_slope=0), dict(negative_slope=2)],
    "hardtanh": [dict(min_val=0, max_val=6), dict(min_val=2.0, max_val=1.0),
                 dict(min_val=-0.5, max_val=2.5), dict(min_val=3, max_val=100)],
    "softplus": [dict(beta=2), dict(beta=0.5, threshold=1.0), dict(beta=-1.0),
                 dict(threshold=0)],
    "gelu": [dict(approximate="tanh"), dict(approximate="none"), dict(approximate="exact")],
}


def _activation(op, dtype):
    s = pointwise.unary(op, dtype)
    for args in ACTIVATION_ARGS.get(op, []):
        text = ", ".join("%s=%r" % kv for kv in args.items())
        s.append(Sample("special values, " + text, dict(s[0].args, **args)))
        s.append(Sample("random 3x4, " + text, dict(s[1].args, **args), variants=False))
    return s


def _tensor_bound(op, dtype, other):
    """binary's samples but those with a Python number as the bound: PyTorch's Python API then
    calls the Scalar overload (clamp_min), whose own samples cover numbers."""
    return [x for x in pointwise.binary(op, dtype, other=other)
            if not isinstance(x.args[other], encode.WrappedNumber)]


def _threshold(op, dtype):
    """threshold's two required numbers: (0, 20) on every unary sample, then other pairs on the
    special values and on a random tensor."""
    s = pointwise.unary(op, dtype, dict(threshold=0, value=20))
    for t, v in [(1.5, -2.5), (-2, 0), (0.0, float("nan")), (float("nan"), 1), (1, 300),
                 (True, 2), (0.5, -0.0)]:
        text = "threshold=%r, value=%r" % (t, v)
        s.append(Sample("special values, " + text, dict(s[0].args, threshold=t, value=v)))
        s.append(Sample("random 3x4, " + text, dict(s[1].args, threshold=t, value=v),
                        variants=False))
    return s


def _along_dim(op, dtype, takes_dtype):
    s = reductions.along_dim(op, dtype)
    if takes_dtype:
        s += [Sample(x.description + ", dtype %s" % d, dict(x.args, dtype=d))
              for x in s[:2] for d in DTYPE_ARGS]
    return s


# special_zeta(s, q) in PyTorch 1.13 sums -q terms from q upwards before its Euler-Maclaurin
# tail: far below zero it takes seconds per element, and in float32 below -2^24 (where
# q + 1 == q) it never ends. Its samples' finite q below this bound are raised to it before they
# are run (-inf is a pole there, answered at once); Backplane's values below it are pinned by
# IntentionalDifferences.ZetaLimitsAndNegativeQ (docs/pytorch_parity.md, zeta-limits).
ZETA_LOWEST_Q = -9999.5


def _zeta_q_above(sampler, q_name, op, dtype):
    out = []
    for x in sampler(op, dtype):
        q = x.args.get(q_name)
        if isinstance(q, torch.Tensor) and q.numel() and q.dtype.is_signed and \
                not q.dtype.is_complex:
            lowest = ZETA_LOWEST_Q if q.dtype.is_floating_point else int(ZETA_LOWEST_Q)
            whole = q.as_strided((q.storage().size(),), (1,), 0)  # every element of the storage
            below = (whole.double() < lowest) & torch.isfinite(whole.double())
            if bool(below.any()):
                whole.masked_fill_(below, lowest)
                x = Sample(x.description + ", q below %g raised to it" % lowest, x.args,
                           x.variants)
        out.append(x)
    return out


def _lcm_no_minimum(sampler, op, dtype):
    """lcm's samples with the int32 and int64 minimum raised by one: 1.13 divides the minimum by
    its gcd with an odd number, -1, and dies of SIGFPE (docs/pytorch_parity.md, lcm-minimum)."""
    out = []
    for x in sampler(op, dtype):
        for t in x.args.values():
            if isinstance(t, torch.Tensor) and t.dtype in (torch.int32, torch.int64) and \
                    t.numel():
                whole = t.as_strided((t.storage().size(),), (1,), 0)  # every stored element
                lowest = torch.iinfo(t.dtype).min
                if bool((whole == lowest).any()):
                    whole.masked_fill_(whole == lowest, lowest + 1)
                    x = Sample(x.description + ", the minimum raised by one", x.args, x.variants)
        out.append(x)
    return out


def _parts(first, second):
    """polar(abs, angle), complex(real, imag): a binary op's samples with its operands renamed."""
    def samples(op, dtype):
        return [Sample(x.description,
                       {(first if k == "self" else second if k == "other" else k): v
                        for k, v in x.args.items()}, x.variants)
                for x in pointwise.binary(op, dtype)]
    return samples


# Functional ops (and in-place ones whose arguments are named otherwise: dropout_) whose
# arguments need values of their own; every other op's samples follow from
# its family and schema, so a new op of a known kind needs nothing here.
OWN_SAMPLERS = {
    "cat": joins.cat,
    "native_layer_norm": layer_norm.layer_norm,
    "layer_norm": layer_norm.layer_norm,
    "stack": joins.stack,
    "dropout": attention.dropout,
    "dropout_": attention.dropout,
    "scaled_dot_product_attention": attention.scaled_dot_product_attention,
    "nan_to_num": pointwise.nan_to_num,
    "where.self": pointwise.ternary_where,
    "clamp": pointwise.clamp,
    "clamp.Tensor": pointwise.clamp_tensor,
    "lerp.Scalar": pointwise.lerp,
    "addcmul": pointwise.addcmul,
    "addcdiv": pointwise.addcmul,
    "clamp_min": functools.partial(pointwise.binary, other="min", scalar_other=True),
    "clamp_max": functools.partial(pointwise.binary, other="max", scalar_other=True),
    "clamp_min.Tensor": lambda op, dtype: _tensor_bound(op, dtype, "min"),
    "clamp_max.Tensor": lambda op, dtype: _tensor_bound(op, dtype, "max"),
    "lerp.Tensor": pointwise.lerp_tensor,
    "masked_fill.Scalar": pointwise.masked_fill,
    "masked_fill.Tensor": functools.partial(pointwise.masked_fill, tensor_value=True),
    "where.ScalarSelf": functools.partial(pointwise.where_scalars, self_number=True,
                                          other_number=False),
    "where.ScalarOther": functools.partial(pointwise.where_scalars, self_number=False,
                                           other_number=True),
    "where.Scalar": functools.partial(pointwise.where_scalars, self_number=True,
                                      other_number=True),
    "threshold": lambda op, dtype: _threshold(op, dtype),
    "polar": _parts("abs", "angle"),
    "complex": _parts("real", "imag"),
    "round.decimals": functools.partial(pointwise.unary_with_arg, name="decimals",
                                        values=[2, -1, 0, 5], required=True),
    "logit": functools.partial(pointwise.unary_with_arg, name="eps", values=[0.25, 0.0, -0.5]),
    "polygamma": functools.partial(pointwise.unary_with_arg, name="n", values=[2, 0, 1, 3, -1],
                                   required=True),
    "mvlgamma": functools.partial(pointwise.unary_with_arg, name="p", values=[2, 1, 5, 0],
                                  required=True),
}


def functional_sampler(op):
    """The sampler of a functional op, f(op name, dtype) -> [Sample], or None (the op's samples
    come from its family's sampler: views, factories, copies)."""
    if op.kind != "functional":
        return None
    if (op.alias_of or op.name) in OWN_SAMPLERS:  # an alias samples as its target
        return OWN_SAMPLERS[op.alias_of or op.name]
    types = {a.name: a.type for a in op.args}
    names = [a.name for a in op.args]
    # Binary special functions (xlogy, special_zeta, igamma, ...) sample as binary ops.
    two_operands = len(names) >= 2 and all(types[n].startswith(("Tensor", "Scalar"))
                                           for n in names[:2])
    if op.family in ("unary", "special") and not two_operands:
        return pointwise.unary
    if op.family == "activations":
        return _activation
    if op.family in ("binary", "special"):
        first, second = names[0], names[1]
        if types[first].startswith("Scalar"):
            f = functools.partial(_scalar_first, other=second)
        else:
            f = functools.partial(pointwise.binary, other=second,
                                  scalar_other=types[second].startswith("Scalar"))
        if "rounding_mode" in types:
            f = functools.partial(_rounding, f)
        if "alpha" in types:
            f = functools.partial(_alpha, f)
        if (op.alias_of or op.name).startswith("special_zeta"):
            f = functools.partial(_zeta_q_above, f, second)
        if op.name == "lcm":
            f = functools.partial(_lcm_no_minimum, f)
        return f
    if op.family == "reductions":
        return functools.partial(_reduction, types=types)
    if op.family == "scans":
        return functools.partial(_along_dim, takes_dtype="dtype" in types)
    if op.family == "linalg":
        return linalg.SAMPLERS[op.name]
    if op.family == "indexing":
        return indexing.SAMPLERS[op.name]
    return None


def _plain_type(type_):
    """A schema type without its alias annotation: "Tensor(a!)" is "Tensor"."""
    return re.sub(r"\([a-z!]*\)", "", type_)


def sampler_of(op):
    """The sampler whose samples an op's out= ops reuse: its own, or for a view op its
    family's (unsafe_split.Tensor_out samples as unsafe_split.Tensor), or None."""
    own = functional_sampler(op)
    if own is None and op.kind == "functional" and op.family == "views":
        return views.views
    return own


def functional_of(op, ops_by_name):
    """The functional op whose samples an in-place or out= op reuses: the one of its structured
    group, else the one of the same base name and arguments (apart from the written ones)."""
    want = [a.name for a in op.args if not (op.kind == "out" and a.written)]
    # In-place view ops keep their family's samples (views.views names them).
    usable = sampler_of if op.kind == "out" else functional_sampler
    candidates = [c for c in ops_by_name.values() if c.kind == "functional" and
                  c.base == op.base and usable(c)]
    for c in candidates:
        if op.delegate and c.delegate == op.delegate:
            return c
    overload = op.overload
    if op.kind == "out":
        overload = "" if overload == "out" else overload[:-len("_out")]
    candidates.sort(key=lambda c: c.overload != overload)
    # The same arguments of the same types first: xlogy.OutScalar_Self is xlogy.Scalar_Self's
    # (Scalar self), not xlogy.Tensor's; float_power_.Scalar is float_power.Tensor_Scalar's.
    typed = [(a.name, _plain_type(a.type)) for a in op.args
             if not (op.kind == "out" and a.written)]
    for c in candidates:
        if [(a.name, _plain_type(a.type)) for a in c.args] == typed:
            return c
    for c in candidates:
        if [a.name for a in c.args] == want:
            return c
    # The same arguments in another order (polygamma_(self, n) of polygamma(n, self)).
    for c in candidates:
        if sorted(a.name for a in c.args) == sorted(want):
            return c
    return None


def _results(result):
    """The tensors of a functional op's result: several (a tuple, or a Tensor[] list) or one."""
    return result if isinstance(result, (tuple, list)) else (result,)


def _written_list(op):
    """The name of the op's written Tensor list (`Tensor(a!)[] out`: one out per piece of a
    Tensor[] result), or None."""
    lists = [a.name for a in op.args if a.written and a.type.endswith("[]")]
    return lists[0] if lists else None


def _out_tensors(op, result, dtype_override=None, sizes=None, layout="contiguous"):
    def out_for(r):
        d = dtype_override if dtype_override is not None else r.dtype
        shape = list(r.shape) if sizes is None else sizes
        if layout == "contiguous" or len(shape) < 2:
            return torch.zeros(shape, dtype=d)
        swapped = [shape[1], shape[0]] + shape[2:]  # the right shape, first two strides swapped
        return torch.zeros(swapped, dtype=d).transpose(0, 1)
    if _written_list(op):
        return {_written_list(op): [out_for(r) for r in result]}
    return {name: out_for(r) for name, r in zip(op.written_args, _results(result))}


def out_samples(op, functional, dtype, call):
    """out= samples from the functional op's: an out of the result's dtype and shape, a
    transposed one, an empty one (resized), and outs of other dtypes (cast or refused)."""
    s = []
    base_samples = [x for x in sampler_of(functional)(functional.name, dtype)
                    if x.variants][:4]
    for i, x in enumerate(base_samples):
        try:
            result = call(functional, x.args)
        except Exception:  # noqa: BLE001: the out= call raises too; one out of the column dtype
            s.append(Sample(x.description, dict(x.args, **{
                n: [tensor(dtype, [0])] if n == _written_list(op) else tensor(dtype, [0])
                for n in op.written_args})))
            continue
        if any(r.dtype not in encode.DTYPE_NAMES for r in _results(result)):
            continue  # a PyTorch-only result dtype (complex32): see differences.py
        s.append(Sample(x.description + ", out of the result's dtype and shape",
                        dict(x.args, **_out_tensors(op, result))))
        if i == 0:
            s.append(Sample(x.description + ", empty out (resized)",
                            dict(x.args, **_out_tensors(op, result, sizes=[0]))))
            s.append(Sample(x.description + ", transposed out",
                            dict(x.args, **_out_tensors(op, result, layout="transposed"))))
            for d in (torch.float64, torch.int64, torch.bool, torch.complex64):
                if len(op.written_args) == 1:  # one out, or one list of them
                    s.append(Sample(x.description + ", out %s" % str(d)[6:],
                                    dict(x.args, **_out_tensors(op, result, d))))
    return s


def samples(op, ops_by_name, dtype, call):
    """All samples of a declared op for one dtype column."""
    if functional_sampler(op):
        return functional_sampler(op)(op.name, dtype)
    functional = functional_of(op, ops_by_name) if op.kind != "functional" else None
    if functional is not None and op.kind == "inplace":
        return [x for x in functional_sampler(functional)(functional.name, dtype)
                if x.variants]
    if functional is not None:
        return out_samples(op, functional, dtype, call)
    if op.name in OWN_SAMPLERS:  # an in-place op outside its functional op's group (dropout_)
        return OWN_SAMPLERS[op.name](op.name, dtype)
    family_samplers = {"views": views.views, "factories": factories.factories,
                       "copies": copies.copies, "promotion": promotion.promotion}
    if op.family not in family_samplers:
        raise KeyError("no samples for " + op.name)
    return family_samplers[op.family](op.name, dtype)

