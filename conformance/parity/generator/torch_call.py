"""Calls PyTorch as a case would call Backplane: arguments decoded from the case's JSON, so
that PyTorch sees exactly the tensors (values, strides, storage) that Backplane will."""
import inspect

import torch

from . import encode

# Ops PyTorch 1.13 lacks, written with the ops it has as the release that added them defines
# them (squeeze.dims: PyTorch 2.0).


def _squeeze_dims(self, dim):
    rank = max(self.dim(), 1)
    wrapped = []
    for d in dim:
        if d < -rank or d >= rank:
            raise IndexError("Dimension out of range (expected to be in range of [%d, %d], but "
                             "got %d)" % (-rank, rank - 1, d))
        wrapped.append(d % rank)
    if len(set(wrapped)) != len(wrapped):
        raise RuntimeError("dim %d appears multiple times in the list of dims" % wrapped[-1])
    sizes, strides = [], []
    for i in range(self.dim()):
        if i in wrapped and self.shape[i] == 1:
            continue
        sizes.append(self.shape[i])
        strides.append(self.stride(i))
    return sizes, strides


def squeeze_dims(self, dim):
    sizes, strides = _squeeze_dims(self, dim)
    return self.as_strided(sizes, strides, self.storage_offset())


def squeeze__dims(self, dim):
    sizes, strides = _squeeze_dims(self, dim)
    return self.as_strided_(sizes, strides, self.storage_offset())


def isfinite_out(self, out):
    """isfinite.out, which PyTorch lacks (Backplane's structured group has it): a boolean op
    writing 0 / 1 into an out of any dtype, as isnan.out and logical_not.out do."""
    return torch.logical_not(torch.logical_or(torch.isinf(self), torch.isnan(self)), out=out)


def result_type(first, second):
    """result_type through Python's torch.result_type, which returns a torch.dtype (torch.ops
    returns the ScalarType as a bare int) and picks the overload from the argument kinds."""
    return torch.result_type(first, second)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, scale=None):
    """PyTorch 2.1's scaled_dot_product_attention as its documentation defines it (1.13 has only
    the private _scaled_dot_product_attention, without scale)."""
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set "
                           "when is_causal=True")
    factor = 1 / (query.size(-1) ** 0.5) if scale is None else scale
    scores = torch.matmul(query, key.transpose(-2, -1)) * factor
    if is_causal:
        keep = torch.ones(query.size(-2), key.size(-2), dtype=torch.bool).tril()
        scores = scores.masked_fill(keep.logical_not(), float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            scores = scores.masked_fill(attn_mask.logical_not(), float("-inf"))
        else:
            scores = scores + attn_mask
    weights = torch.dropout(torch.softmax(scores, dim=-1), dropout_p, True)
    return torch.matmul(weights, value)


OVERRIDES = {"squeeze.dims": squeeze_dims, "squeeze_.dims": squeeze__dims,
             "isfinite.out": isfinite_out,
             "scaled_dot_product_attention": scaled_dot_product_attention}
OVERRIDES.update({"result_type." + overload: result_type
                  for overload in ("Tensor", "Scalar", "Scalar_Tensor", "Scalar_Scalar")})


def torch_op(name):
    if name in OVERRIDES:
        return OVERRIDES[name]
    base, _, overload = name.partition(".")
    return getattr(getattr(torch.ops.aten, base), overload or "default")


def decode_tensor(j):
    dtype = encode.DTYPES[j["dtype"]]
    if "values" in j:
        return torch.tensor([_element(v, dtype) for v in j["values"]],
                            dtype=dtype).reshape(j["sizes"])
    base = torch.tensor([_element(v, dtype) for v in j["storage"]], dtype=dtype)
    return base.as_strided(j["sizes"], j["strides"], j["storage_offset"])


def _real(v):
    return float(v) if isinstance(v, str) else v


def _element(v, dtype):
    if dtype.is_complex:
        return complex(_real(v[0]), _real(v[1])) if isinstance(v, list) else complex(_real(v))
    if dtype.is_floating_point:
        return float(_real(v))
    return v


def spread(t):
    """The same values with every element a stride-2 step apart: PyTorch's CPU loops run their
    scalar (not vectorised) path on such an operand."""
    if t.dim() == 0 or t.numel() == 0:
        return t
    wide = torch.zeros(list(t.shape[:-1]) + [2 * t.shape[-1]], dtype=t.dtype)
    wide = wide[..., ::2]
    wide.copy_(t)
    return wide


def torch_value(v, encoded, scalar_loop=False):
    """The value to give PyTorch for an argument: a fresh tensor decoded from its JSON (spread
    out when `scalar_loop`), the Python number of a wrapped number, else the value itself."""
    if isinstance(v, encode.WrappedNumber):
        return v.value
    if isinstance(v, torch.Tensor):
        t = decode_tensor(encoded)
        return spread(t) if scalar_loop and 0 not in t.stride() else t
    if isinstance(v, (list, tuple)) and v and isinstance(v[0], torch.Tensor):
        return [decode_tensor(e) for e in encoded]
    return v


class Inexpressible(Exception):
    """PyTorch's Python API cannot make this call (a Python number where the op takes only
    tensors): there is no PyTorch result to compare with."""


def _python_api_call(op, given):
    """Calls through PyTorch's Python API, which turns a Python number given for a Tensor
    argument into a wrapped number and keeps a bool Scalar a bool (torch.ops does neither: it
    refuses the number, and reads True as the integer 1)."""
    first = op.args[0].name
    rest = {k: v for k, v in given.items() if k != first}
    try:
        if op.kind == "inplace":
            method = getattr(given[first], op.base + "_", None)  # threshold_ is a function only
            if method is not None:
                return method(**rest)
            return getattr(torch, op.base + "_")(given[first], **rest)
        if hasattr(torch, op.base):
            return getattr(torch, op.base)(given[first], **rest)
        # torch.special's ops (special_xlog1py is torch.special.xlog1py).
        return getattr(torch.special, op.base[len("special_"):])(given[first], **rest)
    except TypeError as e:
        raise Inexpressible(str(e))
    except RuntimeError as e:
        if any(isinstance(v, (int, float, complex)) and not isinstance(v, bool)
               for v in rest.values()):
            # With a Python number the API takes the Scalar overload (pow.Tensor_Scalar for
            # pow.Tensor_Tensor), whose checks are its own: not this op's error.
            raise Inexpressible(str(e))
        raise


def _needs_python_api(op, args):
    scalars = {a.name for a in op.args if a.type.startswith("Scalar")}
    return any(isinstance(v, encode.WrappedNumber) or (k in scalars and isinstance(v, bool))
               for k, v in args.items())


def call(op, args, encoded=None, scalar_loop=False):
    """Runs the declared op `op` on PyTorch with `args` (by schema name); returns its result and
    the tensors it was given. Raises Inexpressible when PyTorch cannot be asked. `scalar_loop`:
    with every tensor spread out, so that PyTorch runs its scalar loop."""
    encoded = encoded if encoded is not None else {k: encode.argument(v) for k, v in args.items()}
    given = {k: torch_value(v, encoded[k], scalar_loop) for k, v in args.items()}
    if _needs_python_api(op, args):
        return _python_api_call(op, given), given
    positional = []
    pending = []
    for a in op.args:
        if a.kwarg_only:
            continue
        if a.name in given:
            positional += pending + [given[a.name]]
            pending = []
        else:
            pending.append(_default_of(op.name, a.name))
    # A keyword-only optional argument PyTorch declares without a default (var's correction).
    kwargs = {a.name: given.get(a.name) for a in op.args if a.kwarg_only and (
        a.name in given or (a.type.endswith("?") and not _has_default(op.name, a.name)))}
    return torch_op(op.name)(*positional, **kwargs), given


def _has_default(op_name, arg_name):
    if op_name in OVERRIDES:
        return True
    return any(a.name == arg_name and a.has_default_value()
               for a in torch_op(op_name)._schema.arguments)


def _default_of(op_name, arg_name):
    if op_name in OVERRIDES:  # the Python function's default
        p = inspect.signature(OVERRIDES[op_name]).parameters.get(arg_name)
        if p is None or p.default is inspect.Parameter.empty:
            raise TypeError("no default for " + arg_name)
        return p.default
    for a in torch_op(op_name)._schema.arguments:
        if a.name == arg_name and a.has_default_value():
            return a.default_value
    raise TypeError("%s: argument %s has no default and the sample does not give it" %
                    (op_name, arg_name))
