"""Every declared op is reachable from Python, as the declarations say, and callable."""

import re

import numpy as np
import pytest

import backplane as bp
from conftest import floats

ROWS = bp.op_rows()
TABLE = bp.op_table()

DTYPE_ORDER = ["float32", "int64", "bool", "complex64", "float64", "int32", "uint8"]
DTYPE_CODES = {
    name: i
    for i, name in enumerate(
        ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
         "float32", "float64", "complex64", "complex128"]
    )
}


def test_rows_cover_every_declared_op_once_per_variant():
    by_op = {}
    for python_name, op, role, schema in ROWS:
        by_op.setdefault(op, set()).add(role)
        assert python_name == op.split(".")[0]
    assert len(TABLE) > 500
    for info in TABLE:
        roles = by_op.pop(info["name"])
        expected = set()
        if info["function"]:
            expected.add("out" if info["kind"] == "out" else "function")
        if info["method"] and info["kind"] != "out":
            expected.add("method")
        if not expected:
            expected = {"call_op"}
        assert roles == expected, info["name"]
    assert by_op == {}, "rows for ops the table does not declare"


def test_each_function_and_method_exists_with_its_schemas_as_docs():
    for python_name, op, role, schema in ROWS:
        if role in ("function", "out"):
            fn = getattr(bp, python_name)
        elif role == "method":
            fn = getattr(bp.Tensor, python_name)
        else:
            continue
        assert schema in fn.__doc__, (python_name, schema)


def test_scalar_overloads_are_tried_after_tensor_ones():
    names = [op for name, op, role, _ in ROWS if name == "add" and role == "function"]
    assert names == ["add.Tensor", "add.Scalar"]


def test_an_unknown_op_name_in_call_op_raises_value_error():
    with pytest.raises(ValueError, match="no declared op named 'nope.Tensor'"):
        bp.call_op("nope.Tensor")


# One real call per family, checked against numpy: the families' list is the declarations', so
# a new family fails here until it has a call.
def _family_calls():
    x = floats(2, 3)
    xn = x.numpy()
    return {
        "factories": (lambda: bp.full([2, 2], 1.5), np.full((2, 2), 1.5, np.float32)),
        "views": (lambda: x.transpose(0, 1), xn.T),
        "copies": (lambda: x.clone(), xn),
        "unary": (lambda: bp.exp(x), np.exp(xn)),
        "binary": (lambda: bp.mul(x, x), xn * xn),
        "reductions": (lambda: bp.sum(x, 1), xn.sum(1)),
        "ternary": (lambda: bp.where(bp.gt(x, 0.5), x, 0.0), np.where(xn > 0.5, xn, 0)),
        "scans": (lambda: bp.cumsum(x, 1), np.cumsum(xn, 1)),
        "activations": (lambda: bp.relu(bp.sub(x, 0.5)), np.maximum(xn - 0.5, 0)),
        "special": (lambda: bp.sigmoid(x), 1 / (1 + np.exp(-xn))),
        "promotion": (lambda: bp.result_type(x, 1.5), None),
        "linalg": (lambda: bp.matmul(x, x.transpose(0, 1)), xn @ xn.T),
        "indexing": (lambda: bp.index_select(x, 1, bp.arange(2, 0, -1)), xn[:, [2, 1]]),
    }


def test_one_call_per_family_gives_numpys_values():
    calls = _family_calls()
    families = sorted({info["family"] for info in TABLE})
    assert sorted(calls) == families
    for family, (call, expected) in calls.items():
        result = call()
        if expected is None:
            assert result == bp.float32, family
            continue
        np.testing.assert_allclose(result.numpy(), expected, rtol=1e-6, err_msg=family)


# Every op whose arguments are tensors (plus arguments with defaults) runs on small tensors of a
# dtype it supports, in each of its variants, and its Meta run gives the real run's shapes and
# dtypes, or raises the real run's error.
def _arguments(schema):
    """[(type, name, has_default, kwarg_only)] of a schema's arguments."""
    inner = schema[schema.index("(") + 1:schema.rindex(") ->")]
    args, kwarg_only = [], False
    for text in [a.strip() for a in inner.split(", ")]:
        if text == "*":
            kwarg_only = True
            continue
        type_, rest = text.split(" ", 1)
        args.append((type_, rest.split("=")[0], "=" in rest, kwarg_only))
    return args


def _plan(info):
    """(number of tensor inputs, number of outs), or None when the op takes other arguments."""
    inputs = outs = 0
    for type_, name, has_default, kwarg_only in _arguments(info["schema"]):
        if kwarg_only and "!" in type_ and info["kind"] == "out":
            outs += 1
        elif re.fullmatch(r"Tensor(\([a-z]!?\))?", type_):
            inputs += 1
        elif not has_default:
            return None
    return inputs, outs


def _dtype_mask(info):
    group = info["structured_group"]
    if group:
        return next(i for i in TABLE if i["name"] == group)["dtypes"]
    return info["dtypes"]


def _dtype_for(info):
    for name in DTYPE_ORDER:
        if _dtype_mask(info) >> DTYPE_CODES[name] & 1:
            return getattr(bp, name)
    return None


def _inputs(dtype, device):
    x = floats(2, 3)
    return bp.add(bp.mul(x, 4), 1.25).to(dtype=dtype, device=device)


OUT_DTYPES = ["same", "bool", "int64", "complex64", "float32"]


def _call(info, dtype, device, out_dtypes):
    inputs, outs = _plan(info)
    args = [_inputs(dtype, device) for _ in range(inputs)]
    if not outs:
        return bp.call_op(info["name"], *args)
    out = tuple(bp.empty(0, dtype=dtype if d == "same" else getattr(bp, d), device=device)
                for d in out_dtypes)
    return bp.call_op(info["name"], *args, out=out[0] if outs == 1 else out)


def _out_dtypes_that_fit(info, dtype):
    """The out dtypes the CPU accepts (an op's result dtype is not in its declaration)."""
    outs = _plan(info)[1]
    if not outs:
        return (), None
    error = None
    for first in OUT_DTYPES:
        for rest in (["same", "int64"] if outs > 1 else [None]):
            choice = (first,) if rest is None else (first,) + (rest,) * (outs - 1)
            try:
                _call(info, dtype, "cpu", choice)
                return choice, None
            except (RuntimeError, TypeError, IndexError) as e:
                error = e
    return ("same",) * outs, error


def _outcome(call):
    try:
        result = call()
    except Exception as e:  # noqa: BLE001 (the outcome is compared, whatever it is)
        return ("raises", type(e).__name__, str(e))
    results = result if isinstance(result, (tuple, list)) else (result,)
    return [(tuple(r.shape), r.dtype.name) if isinstance(r, bp.Tensor) else r for r in results]


TENSOR_ONLY_OPS = [
    info for info in TABLE
    if _plan(info) is not None and _plan(info)[0] > 0 and _dtype_for(info) is not None
]


def test_tensor_only_ops_are_many():
    assert len(TENSOR_ONLY_OPS) > 300


@pytest.mark.parametrize("info", TENSOR_ONLY_OPS, ids=[i["name"] for i in TENSOR_ONLY_OPS])
def test_tensor_only_op_meta_run_matches_the_real_run(info):
    dtype = _dtype_for(info)
    out_dtypes, _ = _out_dtypes_that_fit(info, dtype)
    real = _outcome(lambda: _call(info, dtype, "cpu", out_dtypes))
    meta = _outcome(lambda: _call(info, dtype, "meta", out_dtypes))
    assert meta == real


# Ops whose real run on these inputs raises, each with the reason; every other op must run.
RAISES_ON_PLAIN_TENSORS = {
    "clamp": "needs min or max",
    "clamp_": "needs min or max",
    "clamp.out": "needs min or max",
    "clip": "needs min or max",
    "clip_": "needs min or max",
    "clip.out": "needs min or max",
    "clamp.Tensor": "needs min or max",
    "clamp_.Tensor": "needs min or max",
    "clamp.Tensor_out": "needs min or max",
    "clip.Tensor": "needs min or max",
    "clip_.Tensor": "needs min or max",
    "clip.Tensor_out": "needs min or max",
    "float_power_.Tensor": "computes in float64: a float32 self cannot hold the result",
    "float_power.Tensor_Tensor_out": "computes in float64: no float32 out",
    "fill_.Tensor": "the value must be 0-dim",
    "masked_fill.Tensor": "the value must be 0-dim",
    "masked_fill_.Tensor": "the value must be 0-dim",
    "masked_fill.Tensor_out": "the value must be 0-dim",
    "where.self": "the condition must be bool",
    "where.self_out": "the condition must be bool",
    "view_as_real": "complex inputs only",
    "view_as_complex": "needs a last dim of size 2",
    "imag": "complex inputs only",
    "mm": "[2, 3] @ [2, 3]: the shapes do not multiply",
    "mm.out": "[2, 3] @ [2, 3]: the shapes do not multiply",
    "bmm": "needs 3-D batches",
    "bmm.out": "needs 3-D batches",
    "addmm": "[2, 3] @ [2, 3]: the shapes do not multiply",
    "addmm_": "[2, 3] @ [2, 3]: the shapes do not multiply",
    "addmm.out": "[2, 3] @ [2, 3]: the shapes do not multiply",
    "baddbmm": "needs 3-D batches",
    "baddbmm_": "needs 3-D batches",
    "baddbmm.out": "needs 3-D batches",
    "matmul": "[2, 3] @ [2, 3]: the shapes do not multiply",
    "matmul.out": "[2, 3] @ [2, 3]: the shapes do not multiply",
    "masked_select": "the mask must be bool",
    "masked_select.out": "the mask must be bool",
    "embedding": "the indices must be int32 or int64",
}


@pytest.mark.parametrize("info", TENSOR_ONLY_OPS, ids=[i["name"] for i in TENSOR_ONLY_OPS])
def test_tensor_only_op_runs(info):
    dtype = _dtype_for(info)
    out_dtypes, error = _out_dtypes_that_fit(info, dtype)
    outcome = _outcome(lambda: _call(info, dtype, "cpu", out_dtypes))
    if info["name"] in RAISES_ON_PLAIN_TENSORS:
        assert outcome[0] == "raises"
    else:
        assert outcome[0] != "raises", (outcome, error)
