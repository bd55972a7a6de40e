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


# Every op whose arguments are tensors, plus arguments with defaults, runs on small tensors of a
# dtype it supports, in each of its variants, and its Meta run gives the real run's shape and dtype.
def _tensor_only(schema):
    args = re.search(r"\((.*)\) ->", schema).group(1)
    for arg in [a.strip() for a in args.split(",") if a.strip() and a.strip() != "*"]:
        type_, name = arg.split(" ")[0], arg.split(" ")[1]
        if "=" in arg:
            continue
        if not re.fullmatch(r"Tensor(\([a-z]!?\))?", type_):
            return None
    return [a for a in args.split(",")]


def _dtype_for(info):
    for name in DTYPE_ORDER:
        if info["dtypes"] >> DTYPE_CODES[name] & 1:
            return getattr(bp, name)
    return None


def _inputs(dtype, device="cpu"):
    x = floats(2, 3)
    return bp.add(bp.mul(x, 2), 0.25).to(dtype=dtype, device=device)


def _call(info, dtype, device):
    n_tensors = info["schema"].split("->")[0].count("Tensor")
    name = info["name"]
    if info["kind"] == "out":
        args = [_inputs(dtype, device) for _ in range(n_tensors - 1)]
        out = bp.empty(0, dtype=dtype, device=device)
        try:
            return bp.call_op(name, *args, out=out)
        except RuntimeError:
            out = bp.empty(0, dtype=bp.bool, device=device)  # comparisons write bool
            return bp.call_op(name, *args, out=out)
    args = [_inputs(dtype, device) for _ in range(n_tensors)]
    return bp.call_op(name, *args)


def _shapes(result):
    if isinstance(result, (tuple, list)):
        return [_shapes(r) for r in result]
    return (tuple(result.shape), result.dtype.name)


TENSOR_ONLY_OPS = [
    info for info in TABLE
    if _tensor_only(info["schema"]) is not None and _dtype_for(info) is not None
    and "Tensor[]" not in info["schema"] and "Tensor?" not in info["schema"]
]


def test_tensor_only_ops_are_many():
    assert len(TENSOR_ONLY_OPS) > 150


@pytest.mark.parametrize("info", TENSOR_ONLY_OPS, ids=[i["name"] for i in TENSOR_ONLY_OPS])
def test_tensor_only_op_runs_and_meta_matches(info):
    dtype = _dtype_for(info)
    real = _call(info, dtype, "cpu")
    meta = _call(info, dtype, "meta")
    assert _shapes(meta) == _shapes(real)
