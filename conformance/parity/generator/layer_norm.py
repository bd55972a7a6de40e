"""Samples of layer_norm and native_layer_norm: one and two normalised dims, with and without
weight and bias, layouts, zero rows, eps, special values and each check PyTorch makes."""
from .sample import Sample, tensor


def _other(dtype):
    return "float64" if dtype != "float64" else "float32"


def layer_norm(op, dtype):
    cases = [
        ([2, 3, 4], [4], True, True, "contiguous", 1e-5, "last dim, affine"),
        ([2, 3, 4], [3, 4], True, False, "transposed", 1e-5, "two dims, weight only"),
        ([5, 7], [7], False, False, "sliced", 0.25, "no affine, eps 0.25"),
        ([3, 6], [6], False, True, "expanded", 1e-5, "bias only, rows alike"),
        ([0, 4], [4], True, True, "contiguous", 1e-5, "no rows"),
        ([2, 3], [], False, False, "contiguous", 1e-5, "empty normalized_shape"),
        ([2, 3], [4], False, False, "contiguous", 1e-5, "shape mismatch"),
    ]
    out = []
    for i, (sizes, shape, w, b, layout, eps, description) in enumerate(cases):
        args = {"input": tensor(dtype, sizes, layout=layout, seed=(op, i)),
                "normalized_shape": shape, "eps": eps}
        # native_layer_norm's weight and bias have no default: None is given.
        args["weight"] = tensor(dtype, shape, seed=(op, i, "w")) if w else None
        args["bias"] = tensor(dtype, shape, seed=(op, i, "b")) if b else None
        out.append(Sample(description, args))
    out.append(Sample("weight of other sizes", {
        "input": tensor(dtype, [2, 3]), "normalized_shape": [3], "eps": 1e-5,
        "weight": tensor(dtype, [4]), "bias": None}))
    out.append(Sample("weight of another dtype", {
        "input": tensor(dtype, [2, 3]), "normalized_shape": [3], "eps": 1e-5,
        "weight": tensor(_other(dtype), [3]), "bias": None}))
    if dtype in ("float32", "float64", "bfloat16"):
        out.append(Sample("special values", {
            "input": tensor(dtype, [3], vals=[float("nan"), 1.0, 2.0]), "normalized_shape": [3],
            "eps": 1e-5, "weight": None, "bias": None}))
    return out
