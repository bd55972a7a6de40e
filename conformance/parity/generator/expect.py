"""A case's expectations from PyTorch's result: outputs with their values, strides, aliasing
and tolerance, and what the call must return and leave unmodified."""
import json
import os

import torch

from . import encode

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__)))))
UNSPECIFIED_VALUES = {"empty.memory_format", "empty.out", "empty_strided", "empty_like"}


with open(os.path.join(REPO, "conformance/tolerances.json")) as f:
    TOLERANCES = json.load(f)
PRECISION = ["float16", "bfloat16", "float32", "float64"]  # by increasing significand


def tolerance(op, dtype_name):
    t = dict(TOLERANCES["defaults"].get(dtype_name, {"atol": 0, "rtol": 0}))
    override = TOLERANCES["ops"].get(op.base, {})
    t.update(override.get("*", {}))
    t.update(override.get(dtype_name, {}))
    return t


def input_precision(args):
    """The least precise floating dtype among the tensor arguments (real parts of complex ones),
    or None."""
    names = []
    for v in args.values():
        if isinstance(v, torch.Tensor) and (v.dtype.is_floating_point or v.dtype.is_complex):
            name = encode.dtype_name(v.dtype)
            names.append({"complex64": "float32", "complex128": "float64"}.get(name, name))
    return min(names, key=PRECISION.index) if names else None


def _given_tensors(given):
    """The tensors PyTorch was given, by the name a case file gives them: an argument's name, or
    "tensors[1]" for an element of a list argument (docs/conformance.md)."""
    for name, v in given.items():
        if isinstance(v, torch.Tensor):
            yield name, v
        elif isinstance(v, (list, tuple)):
            for i, t in enumerate(v):
                if isinstance(t, torch.Tensor):
                    yield "%s[%d]" % (name, i), t


def expect_outputs(op, result, given, args):
    """The "expect" of a case whose call returned `result` (PyTorch was `given` the tensors).
    A tuple of results or a list result (Tensor[]) gives one output per tensor, in order; a
    dtype result (result_type) a {"value": name} output."""
    if isinstance(result, torch.dtype):
        return {"outputs": [{"value": encode.dtype_name(result)}]}
    written = dict(_given_tensors({n: given[n] for n in op.written_args if n in given}))
    if result is None and op.kind == "out":
        # An out= op returning `()` (unsafe_split.Tensor_out): its outputs are what it wrote,
        # each tensor of its `Tensor(a!)[] out` ("out[0]", ...) in order.
        result = list(written.values())
    results = result if isinstance(result, (tuple, list)) else (result,)
    outputs = []
    least = input_precision(args)
    for r in results:
        o = encode.output(r)
        out_name = encode.dtype_name(r.dtype)
        real = {"complex64": "float32", "complex128": "float64"}.get(out_name, out_name)
        if least and real in PRECISION and PRECISION.index(least) < PRECISION.index(real):
            # Computed from less precise inputs than it is stored in: their tolerance.
            t = tolerance(op, least)
            o["tolerance"] = {"atol": t["atol"], "rtol": t["rtol"]}
        if op.name in UNSPECIFIED_VALUES or (op.name in ("resize_", "resize_as_") and
                                             r.numel() > args["self"].numel()):
            o.pop("values")
            o["values_unspecified"] = True
        if op.kind == "functional":
            for name, t in _given_tensors(given):
                if t.storage().data_ptr() == r.storage().data_ptr() and r.storage().size() > 0:
                    o["aliases"] = name
                    # Where in the shared storage the view starts (each piece of a split).
                    o["storage_offset"] = r.storage_offset()
        outputs.append(o)
    expect = {"outputs": outputs}
    tensors = [name for name, v in args.items() if isinstance(v, torch.Tensor)]
    if op.kind == "inplace":
        expect["returns_args"] = ["self"]
    elif op.kind == "out":
        # The outs, by name ("out"; "out[0]", "out[1]", ... for a list of them).
        expect["returns_args"] = list(written)
    unmodified = [n for n in tensors if n not in op.written_args]
    if unmodified:
        expect["unmodified"] = unmodified
    return expect
