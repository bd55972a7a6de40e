"""Samples of the matrix products (mm, bmm, addmm, baddbmm, matmul, linear): layouts, sizes that
exercise every path (empty products and contractions, odd sizes, 1-D operands, broadcast
batches), beta and alpha, special values, mixed dtypes and the shape errors."""
from .sample import Sample, tensor

# A dtype other than the column's, for the mixed-dtype samples.
def _other(dtype):
    return "float64" if dtype == "float32" else "float32"


def _pair(op, dtype, first, second, shapes):
    out = []
    for a, b, la, lb, description in shapes:
        out.append(Sample(description, {
            first: tensor(dtype, a, layout=la, seed=(op, description, 1)),
            second: tensor(dtype, b, layout=lb, seed=(op, description, 2))}))
    return out


MATRICES = [
    ([3, 4], [4, 5], "contiguous", "contiguous", "3x4 @ 4x5"),
    ([3, 4], [4, 5], "transposed", "contiguous", "transposed first"),
    ([3, 4], [4, 5], "contiguous", "transposed", "transposed second"),
    ([4, 6], [6, 5], "sliced", "sliced", "sliced"),
    ([2, 3], [3, 4], "contiguous", "expanded", "expanded second"),
    ([1, 7], [7, 1], "contiguous", "contiguous", "row @ column"),
    ([0, 3], [3, 4], "contiguous", "contiguous", "no rows"),
    ([3, 0], [0, 4], "contiguous", "contiguous", "empty contraction"),
    ([17, 33], [33, 9], "contiguous", "transposed", "odd sizes"),
]
MATRIX_ERRORS = [
    ([3], [3, 2], "contiguous", "contiguous", "1-D first"),
    ([2, 3], [2, 3, 2], "contiguous", "contiguous", "3-D second"),
    ([2, 3], [4, 2], "contiguous", "contiguous", "shapes mismatch"),
]
BATCHES = [
    ([2, 3, 4], [2, 4, 5], "contiguous", "contiguous", "2x3x4 @ 2x4x5"),
    ([3, 4, 5], [3, 5, 2], "transposed", "contiguous", "transposed first"),
    ([2, 4, 6], [2, 6, 3], "sliced", "transposed", "sliced, transposed"),
    ([3, 2, 4], [3, 4, 3], "expanded", "contiguous", "expanded batch"),
    ([0, 3, 4], [0, 4, 5], "contiguous", "contiguous", "no batches"),
    ([2, 3, 0], [2, 0, 4], "contiguous", "contiguous", "empty contraction"),
    ([5, 17, 9], [5, 9, 13], "contiguous", "contiguous", "odd sizes"),
]
BATCH_ERRORS = [
    ([3, 4], [2, 4, 2], "contiguous", "contiguous", "2-D first"),
    ([2, 3, 4], [3, 4, 2], "contiguous", "contiguous", "batches mismatch"),
    ([2, 3, 4], [2, 5, 2], "contiguous", "contiguous", "contraction mismatch"),
]


def _specials(dtype, first, second, sizes_a, sizes_b):
    if dtype not in ("float32", "float64", "bfloat16"):
        return []
    return [Sample("special values", {first: tensor(dtype, sizes_a, vals="special"),
                                      second: tensor(dtype, sizes_b, vals="special")})]


def _mixed(op, dtype, first, second, a, b):
    return [Sample("mixed dtypes", {first: tensor(dtype, a, seed=(op, 1)),
                                    second: tensor(_other(dtype), b, seed=(op, 2))}, False)]


def mm(op, dtype):
    return (_pair(op, dtype, "self", "mat2", MATRICES + MATRIX_ERRORS)
            + _specials(dtype, "self", "mat2", [3, 4], [4, 3])
            + _mixed(op, dtype, "self", "mat2", [2, 3], [3, 2]))


def bmm(op, dtype):
    return (_pair(op, dtype, "self", "mat2", BATCHES + BATCH_ERRORS)
            + _mixed(op, dtype, "self", "mat2", [2, 2, 3], [2, 3, 2]))


def _with_addend(op, dtype, products, batched):
    out = []
    for i, p in enumerate(products):
        x, y = list(p.args.values())
        if x.dim() != (3 if batched else 2) or y.dim() != x.dim():
            full = [2, 2]
        else:
            full = [x.shape[0], x.shape[1], y.shape[2]] if batched else [x.shape[0], y.shape[1]]
        addend = [full, full[-1:], [1]][i % 3]
        args = {"self": tensor(dtype, addend, seed=(op, i))}
        args.update(p.args)
        if i % 3 == 1:
            args.update(beta=0.5, alpha=2)
        elif i % 3 == 2:
            args.update(beta=-1, alpha=True)
        out.append(Sample(p.description, args, p.variants))
    return out


def _addend_cases(op, dtype, m1, m2, full, s1, s2):
    t = lambda sizes, d=dtype, k=0: tensor(d, sizes, seed=(op, "addend", k))
    out = [Sample("beta 0 ignores self", {"self": t(full), m1: t(s1, k=1), m2: t(s2, k=2),
                                          "beta": 0})]
    if dtype in ("float32", "float64", "bfloat16"):
        nans = tensor(dtype, full, vals=[float("nan")])
        out.append(Sample("beta 0, NaN self", {"self": nans, m1: t(s1), m2: t(s2), "beta": 0}))
        out.append(Sample("NaN self", {"self": nans, m1: t(s1), m2: t(s2)}))
        # PyTorch's CPU computes 0 * (a @ b): a NaN operand still makes NaN (BLAS's gemv, the
        # one-row case, would skip it).
        for rows in (s1[-2], 1):
            row = lambda sizes: sizes[:-2] + [rows, sizes[-1]]
            out.append(Sample(f"alpha 0, NaN operand of {rows} rows", {
                "self": t(row(full)), m1: tensor(dtype, row(s1), vals=[float("nan")]),
                m2: t(s2), "alpha": 0}))
    bad_self = full[:-1] + [full[-1] + 1]
    out.append(Sample("self does not broadcast", {"self": t(bad_self), m1: t(s1), m2: t(s2)}))
    out.append(Sample("self of another dtype", {"self": t(full, _other(dtype)), m1: t(s1),
                                                m2: t(s2)}, False))
    out.append(Sample("mats of other dtypes", {"self": t(full), m1: t(s1), m2: t(s2, _other(dtype))},
                      False))
    return out


def addmm(op, dtype):
    return (_with_addend(op, dtype, _pair(op, dtype, "mat1", "mat2", MATRICES + MATRIX_ERRORS),
                         False)
            + _addend_cases(op, dtype, "mat1", "mat2", [3, 2], [3, 4], [4, 2]))


def baddbmm(op, dtype):
    return (_with_addend(op, dtype, _pair(op, dtype, "batch1", "batch2", BATCHES + BATCH_ERRORS),
                         True)
            + _addend_cases(op, dtype, "batch1", "batch2", [2, 3, 2], [2, 3, 4], [2, 4, 2]))


def matmul(op, dtype):
    shapes = [
        ([4], [4], "contiguous", "contiguous", "vector . vector"),
        ([3, 4], [4], "transposed", "contiguous", "matrix @ vector"),
        ([4], [4, 3], "contiguous", "contiguous", "vector @ matrix"),
        ([3, 4], [4, 5], "contiguous", "transposed", "matrix @ matrix"),
        ([2, 3, 4], [4], "contiguous", "contiguous", "batch @ vector"),
        ([2, 3, 4], [4, 5], "sliced", "contiguous", "batch @ matrix"),
        ([4], [2, 4, 3], "contiguous", "contiguous", "vector @ batch"),
        ([3, 4], [2, 4, 5], "contiguous", "transposed", "matrix @ batch"),
        ([2, 3, 4], [2, 4, 5], "contiguous", "contiguous", "batch @ batch"),
        ([2, 1, 3, 4], [5, 4, 2], "contiguous", "contiguous", "broadcast batches"),
        ([0, 3, 4], [4, 2], "contiguous", "contiguous", "empty batch"),
        ([3, 0], [0, 2], "contiguous", "contiguous", "empty contraction"),
        ([0, 3, 0], [0, 2], "contiguous", "contiguous", "empty batch and contraction"),
        ([], [4], "contiguous", "contiguous", "0-D"),
        ([3], [4], "contiguous", "contiguous", "vector lengths"),
        ([2, 3], [4], "contiguous", "contiguous", "matrix @ short vector"),
        ([2, 3], [4, 2], "contiguous", "contiguous", "matrix shapes"),
        ([2, 2, 3], [3, 3, 2], "contiguous", "contiguous", "batches do not broadcast"),
    ]
    return (_pair(op, dtype, "self", "other", shapes)
            + _mixed(op, dtype, "self", "other", [3], [3])
            + _mixed(op, dtype, "self", "other", [2, 3], [3, 2]))


def linear(op, dtype):
    out = []
    cases = [([3, 4], [5, 4], [5], "matrix, bias"), ([3, 4], [5, 4], None, "matrix"),
             ([2, 3, 4], [5, 4], [5], "batch, bias"), ([4], [5, 4], [5], "vector input"),
             ([3, 4], [4], None, "vector weight"), ([3, 4], [5, 4], [3, 5], "full bias"),
             ([3, 4], [5, 3], [5], "mismatched"), ([3, 4], [5, 4], [4], "bias mismatch")]
    for i, (x, w, b, description) in enumerate(cases):
        args = {"input": tensor(dtype, x, seed=(op, i, 1)),
                "weight": tensor(dtype, w, layout="transposed" if len(w) == 2 else "contiguous",
                                 seed=(op, i, 2))}
        if b is not None:
            args["bias"] = tensor(dtype, b, seed=(op, i, 3))
        out.append(Sample(description, args))
    return out


SAMPLERS = {"mm": mm, "bmm": bmm, "addmm": addmm, "baddbmm": baddbmm, "matmul": matmul,
            "linear": linear}
