"""One case: a sample run on PyTorch, with its result or error as the expectation."""
import collections
import warnings

import torch

from . import encode, messages, torch_call
from .expect import expect_outputs


def error_message(e):
    return str(e).strip().splitlines()[0].strip()


REDUCED = {"float16": torch.float16, "bfloat16": torch.bfloat16}


def upcast_call(op, sample, reduced):
    """The op computed in float32 on the float16 / bfloat16 tensors and rounded back, as later
    PyTorch releases do where 1.13 has no reduced-precision CPU kernel."""
    def up(v):  # float32 with the same geometry, overlapping or not, over a float32 storage
        if not isinstance(v, torch.Tensor) or v.dtype != reduced:
            return v
        storage = v.as_strided((v.storage().size(),), (1,), 0).float()
        return storage.as_strided(v.size(), v.stride(), v.storage_offset())
    args = {k: up(v) for k, v in sample.args.items()}
    result, given = torch_call.call(op, args)
    results = result if isinstance(result, tuple) else (result,)
    back = tuple(torch.empty_strided(r.size(), r.stride(), dtype=reduced).copy_(r)
                 if r.dtype == torch.float32 else r for r in results)
    return (back if isinstance(result, tuple) else back[0]), given


def make_case(op, dtype, sample):
    encoded = {k: encode.argument(v) for k, v in sample.args.items()}
    case = {"op": op.name, "dtype": dtype, "description": sample.description, "args": encoded}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                result, given = torch_call.call(op, sample.args, encoded)
            except RuntimeError as e:
                missing = messages.missing_kernel_dtype(messages.normalize(error_message(e)))
                if missing not in REDUCED or not op.dtype_set or missing not in op.dtype_set:
                    raise
                result, given = upcast_call(op, sample, REDUCED[missing])
                case["description"] += " (computed in float32: PyTorch 1.13 has no %s kernel)" \
                    % missing
                case["upcast"] = True
    except (RuntimeError, IndexError, ValueError) as e:
        case["expect"] = {"error": messages.reworded(op.target_base,
                                                     messages.normalize(error_message(e)))}
        if not messages.is_contract(error_message(e)):
            case["expect"]["pytorch_internal_error"] = error_message(e)
        return case
    except torch_call.Inexpressible:
        return None
    try:
        case["expect"] = expect_outputs(op, result, given, sample.args)
    except encode.UnknownDtype as e:
        case["expect"] = {"pytorch_only_dtype": str(e)}
        return case
    if case.pop("upcast", False):
        for o in case["expect"]["outputs"]:
            o.pop("strides", None)  # the float32 copies' layout, not the call's
    elif op.family in SCALAR_LOOP_FAMILIES:
        use_scalar_loop_values(op, sample, encoded, case)
    return case


# Pointwise ops: PyTorch 1.13's vectorised CPU loops give other results than its scalar loop for
# some special values (complex division and reciprocal, remainder and floor division with an
# overflowing quotient); the golden values are the scalar loop's, the op's element-wise
# definition (docs/pytorch_parity.md).
SCALAR_LOOP_FAMILIES = {"unary", "binary", "ternary", "activations", "special"}
vector_scalar_disagreements = collections.Counter()


def use_scalar_loop_values(op, sample, encoded, case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result, _ = torch_call.call(op, sample.args, encoded, scalar_loop=True)
        except (RuntimeError, IndexError, ValueError, torch_call.Inexpressible):
            return
    results = result if isinstance(result, tuple) else (result,)
    for o, r in zip(case["expect"]["outputs"], results):
        if "values" in o:
            scalar = encode.values(r)
            if scalar != o["values"]:
                vector_scalar_disagreements[op.base] += 1
                o["values"] = scalar
