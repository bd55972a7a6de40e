"""Samples of cat and stack: lists of tensors in layouts, promoted dtypes, the legacy skip of 1-D
empty tensors, negative dims and every check PyTorch makes."""
from .sample import Sample, tensor


def _other(dtype):
    return "float64" if dtype != "float64" else "int32"


def _lists(op, dtype, lists):
    out = []
    for i, (shapes, dim, description) in enumerate(lists):
        ts = [tensor(d or dtype, s, layout=l, seed=(op, i, j))
              for j, (s, l, d) in enumerate(shapes)]
        out.append(Sample(description, {"tensors": ts, "dim": dim}))
    return out


def cat(op, dtype):
    c = "contiguous"
    return _lists(op, dtype, [
        ([([2, 3], c, None), ([4, 3], "transposed", None)], 0, "rows"),
        ([([2, 1], c, None), ([2, 3], "sliced", None), ([2, 0], c, None)], 1, "columns"),
        ([([3, 2, 2], "expanded", None), ([3, 2, 5], c, None)], -1, "last dim"),
        ([([2, 2], c, None), ([1, 2], c, _other(dtype))], 0, "promoted"),
        ([([0], c, None), ([2, 3], c, None)], 1, "legacy empty skipped"),
        ([([5], c, None)], 0, "one tensor"),
        ([([2], c, None), ([], c, None)], 0, "0-dim"),
        ([([2, 3], c, None), ([2], c, None)], 0, "ranks differ"),
        ([([2, 3], c, None), ([3, 3], c, None)], 1, "sizes differ"),
        ([([2, 3], c, None), ([2, 3], c, None)], 2, "dim out of range"),
    ]) + [Sample("no tensors", {"tensors": [], "dim": 0})]


def stack(op, dtype):
    c = "contiguous"
    return _lists(op, dtype, [
        ([([2, 3], c, None), ([2, 3], "transposed", None)], 0, "first dim"),
        ([([2, 3], "sliced", None), ([2, 3], c, None), ([2, 3], c, None)], 2, "new last dim"),
        ([([4], c, None), ([4], c, _other(dtype))], -1, "promoted"),
        ([([], c, None), ([], c, None)], 0, "0-dim"),
        ([([0, 2], c, None)], 1, "zero-size"),
        ([([2], c, None), ([3], c, None)], 0, "sizes differ"),
        ([([2], c, None), ([2], c, None)], 2, "dim out of range"),
    ]) + [Sample("no tensors", {"tensors": [], "dim": 0})]
