"""Samples of the indexing ops (index_select, gather, scatter and scatter_add, masked_select,
embedding) with indices written out, so every case is deterministic (a repeated scatter index
keeps the last write on PyTorch's CPU)."""
from .sample import Sample, tensor


def _index(vals, sizes, dtype="int64", layout="contiguous"):
    return tensor(dtype, sizes, vals=vals or [0], layout=layout)


def _data(op, dtype, sizes, i, layout="contiguous", name=0):
    # Small values: sums and products of a few stay exact.
    return tensor(dtype, sizes, layout=layout, seed=(op, i, name), low=-3, high=3)


def index_select(op, dtype):
    cases = [
        ([3, 4], "contiguous", 0, ([2, 0, 2], [3], "int64", "contiguous"), "rows"),
        ([3, 4], "transposed", 1, ([3, 1], [2], "int32", "contiguous"), "columns, int32"),
        ([2, 3, 4], "sliced", -1, ([0, 3, 3, 1, 2], [5], "int64", "sliced"), "last dim"),
        ([2, 3, 4], "contiguous", 1, ([2, 0], [2], "int64", "contiguous"), "middle dim"),
        ([5], "contiguous", 0, ([4], [], "int64", "contiguous"), "0-dim index"),
        ([], "contiguous", 0, ([0], [1], "int64", "contiguous"), "0-dim self"),
        ([3, 4], "contiguous", 1, ([], [0], "int64", "contiguous"), "no indices"),
        ([3, 0], "contiguous", 0, ([1, 1], [2], "int64", "contiguous"), "empty rows"),
        ([3, 4], "contiguous", 0, ([3], [1], "int64", "contiguous"), "out of range"),
        ([3, 4], "contiguous", 1, ([4], [1], "int64", "contiguous"), "out of range, dim 1"),
        ([2, 3, 4], "contiguous", 2, ([4], [1], "int64", "contiguous"), "out of range, dim 2"),
        ([3, 4], "contiguous", 0, ([-1], [1], "int64", "contiguous"), "negative"),
        ([3, 4], "contiguous", 0, ([0], [1, 1], "int64", "contiguous"), "2-D index"),
        ([3, 4], "contiguous", 0, ([0], [1], "int16", "contiguous"), "int16 index"),
        ([3, 4], "contiguous", 2, ([0], [1], "int64", "contiguous"), "dim out of range"),
        ([0, 4], "contiguous", 0, ([0], [1], "int64", "contiguous"), "nothing to index"),
    ]
    return [Sample(d, {"self": _data(op, dtype, s, i, l), "dim": dim,
                       "index": _index(v, sz, idt, il)})
            for i, (s, l, dim, (v, sz, idt, il), d) in enumerate(cases)]


# The index errors gather and scatter share: dtype, rank, sizes apart from the dim, range, dim.
_INDEX_ERRORS = [
    ([3, 4], "contiguous", 1, ([0], [1, 1], "int32", "contiguous"), "int32 index"),
    ([3, 4], "contiguous", 1, ([0, 1], [2], "int64", "contiguous"), "ranks differ"),
    ([3, 4], "contiguous", 1, ([0], [4, 1], "int64", "contiguous"), "index larger"),
    ([3, 4], "contiguous", 1, ([0, 4], [1, 2], "int64", "contiguous"), "out of range"),
    ([3, 4], "contiguous", 0, ([-1], [1, 1], "int64", "contiguous"), "negative"),
    ([3, 4], "contiguous", 2, ([0], [1, 1], "int64", "contiguous"), "dim out of range"),
]


def gather(op, dtype):
    cases = [
        ([3, 4], "contiguous", 0, ([0, 2, 1, 1, 2, 2, 0, 1], [2, 4], "int64", "contiguous"),
         "dim 0"),
        ([3, 4], "transposed", 1, ([3, 0, 1, 1, 2, 0], [3, 2], "int64", "contiguous"),
         "dim 1, transposed self"),
        ([3, 4], "contiguous", -1, ([3, 2, 1, 0, 0, 0], [2, 3], "int64", "transposed"),
         "smaller index, transposed"),
        ([2, 3, 2], "sliced", 1, ([2, 0, 1, 1], [2, 1, 2], "int64", "contiguous"), "3-D"),
        ([], "contiguous", 0, ([0], [], "int64", "contiguous"), "0-dim"),
        ([3, 4], "contiguous", 1, ([], [3, 0], "int64", "contiguous"), "empty index"),
        ([3, 4], "contiguous", 1, ([], [2, 0], "int32", "contiguous"), "empty int32 index"),
    ] + _INDEX_ERRORS
    return [Sample(d, {"self": _data(op, dtype, s, i, l), "dim": dim,
                       "index": _index(v, sz, idt, il)})
            for i, (s, l, dim, (v, sz, idt, il), d) in enumerate(cases)]


def _other(dtype):
    return "float32" if dtype == "float64" else "float64"


def _scatter(op, dtype, src, reduce=None, repeats=False):
    cases = [
        ([3, 5], "contiguous", 1, ([0, 4, 2, 1, 3, 0], [2, 3], "int64", "contiguous"), "dim 1"),
        ([4, 3], "transposed", 0, ([3, 0, 1, 1, 2, 0], [2, 3], "int64", "contiguous"),
         "dim 0, transposed self"),
        ([2, 4], "contiguous", -1, ([3, 1, 0, 2], [2, 2], "int64", "transposed"),
         "transposed index"),
        ([], "contiguous", 0, ([0], [], "int64", "contiguous"), "0-dim"),
        ([3, 4], "contiguous", 1, ([], [0, 2], "int64", "contiguous"), "empty index"),
    ] + _INDEX_ERRORS
    if repeats:
        cases.append(([2, 4], "contiguous", 1,
                      ([1, 1, 3, 1, 0, 2, 2, 2, 2, 0], [2, 5], "int64", "contiguous"),
                      "repeated indices"))
    out = []
    for i, (s, l, dim, (v, sz, idt, il), d) in enumerate(cases):
        args = {"self": _data(op, dtype, s, i, l), "dim": dim, "index": _index(v, sz, idt, il)}
        if src:
            bigger = d == "dim 1"
            src_sizes = list(sz[:-1]) + [sz[-1] + 1] if bigger else list(sz)
            args["src"] = _data(op, dtype, src_sizes, i, "sliced" if bigger else "contiguous",
                                "src")
        else:
            args["value"] = 2
        out.append(Sample(d, args))
    if src:
        for d, s, src_sizes, src_dtype, (v, sz) in [
                ("src of another dtype", [3, 4], [1, 1], _other(dtype), ([0], [1, 1])),
                ("src ranks differ", [3, 4], [1], dtype, ([0], [1, 1])),
                ("src smaller than index", [3, 4], [1, 1], dtype, ([0, 1], [2, 1]))]:
            out.append(Sample(d, {"self": _data(op, dtype, s, d), "dim": 1,
                                  "index": _index(v, sz),
                                  "src": _data(op, src_dtype, src_sizes, d, name="src")}))
    if reduce:
        for x in out:
            x.args["reduce"] = reduce
        out.append(Sample("reduce 'mean'", dict(out[0].args, reduce="mean")))
    return out


def scatter_src(op, dtype):
    return _scatter(op, dtype, src=True)


def scatter_value(op, dtype):
    return _scatter(op, dtype, src=False)


def scatter_reduce(op, dtype):
    return (_scatter(op, dtype, src=True, reduce="add", repeats=True)
            + _scatter(op, dtype, src=True, reduce="multiply", repeats=True))


def scatter_value_reduce(op, dtype):
    return (_scatter(op, dtype, src=False, reduce="add", repeats=True)
            + _scatter(op, dtype, src=False, reduce="multiply", repeats=True))


def scatter_add(op, dtype):
    return _scatter(op, dtype, src=True, repeats=True)


def masked_select(op, dtype):
    cases = [
        ([2, 3], "contiguous", ([1, 0, 1, 1, 1, 0], [2, 3], "bool", "contiguous"), "same shape"),
        ([2, 3], "transposed", ([0, 1, 1], [3], "bool", "contiguous"), "mask broadcast"),
        ([3], "contiguous", ([1, 0], [2, 1], "bool", "contiguous"), "both broadcast"),
        ([2, 2], "contiguous", ([0], [2, 2], "bool", "contiguous"), "nothing selected"),
        ([], "contiguous", ([1], [], "bool", "contiguous"), "0-dim"),
        ([2, 3], "contiguous", ([1, 0, 1, 0, 0, 1], [2, 3], "bool", "transposed"),
         "transposed mask"),
        ([2, 3], "contiguous", ([1, 0, 1], [3], "int64", "contiguous"), "int64 mask"),
        ([2, 3], "contiguous", ([1, 0], [2], "bool", "contiguous"), "shapes do not broadcast"),
    ]
    return [Sample(d, {"self": _data(op, dtype, s, i, l), "mask": _index(v, sz, mdt, ml)})
            for i, (s, l, (v, sz, mdt, ml), d) in enumerate(cases)]


def embedding(op, dtype):
    cases = [
        ([5, 3], "contiguous", ([4, 0, 4, 2], [4], "int64"), None, "a list of tokens"),
        ([5, 3], "transposed", ([1, 2, 3, 0, 0, 4], [2, 3], "int32"), None, "a batch, int32"),
        ([5, 3], "contiguous", ([3], [], "int64"), None, "0-dim indices"),
        ([5, 3], "contiguous", ([1, 2], [2], "int64"), 1, "padding_idx"),
        ([5, 3], "contiguous", ([], [0, 2], "int64"), None, "no indices"),
        ([5, 3], "contiguous", ([1, 5], [2], "int64"), None, "out of range"),
        ([5, 3], "contiguous", ([-1], [1], "int64"), None, "negative"),
        ([5], "contiguous", ([0], [1], "int64"), None, "1-D weight"),
        ([5, 3], "contiguous", ([0], [1], "int16"), None, "int16 indices"),
    ]
    out = []
    for i, (w, l, (v, sz, idt), padding, d) in enumerate(cases):
        args = {"weight": _data(op, dtype, w, i, l), "indices": _index(v, sz, idt)}
        if padding is not None:
            args["padding_idx"] = padding
        out.append(Sample(d, args))
    return out


SAMPLERS = {"index_select": index_select, "gather": gather, "scatter.src": scatter_src,
            "scatter.value": scatter_value, "scatter.reduce": scatter_reduce,
            "scatter.value_reduce": scatter_value_reduce, "scatter_add": scatter_add,
            "masked_select": masked_select, "embedding": embedding}
