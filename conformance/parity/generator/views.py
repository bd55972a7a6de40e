"""Samples of the view ops: valid and invalid geometry on contiguous and strided inputs."""
import torch

from .sample import Sample, tensor


def _x(op, dtype, sizes=(2, 3, 4), layout="contiguous"):
    return tensor(dtype, list(sizes), layout=layout, seed=(op,))


def views(op, dtype):
    base = op.split(".")[0].rstrip("_")
    x = _x(op, dtype)
    xt = _x(op, dtype, layout="transposed")
    s = []

    def add(description, **args):
        s.append(Sample(description, args))

    if base == "as_strided":
        add("2x2 strides 1,2", self=x, size=[2, 2], stride=[1, 2])
        add("3x3 overlapping, offset 1", self=x, size=[3, 3], stride=[1, 1], storage_offset=1)
        add("0-dim at offset 5", self=x, size=[], stride=[], storage_offset=5)
        add("of a sliced tensor", self=_x(op, dtype, (2, 3), "sliced"), size=[2], stride=[2])
        add("past the storage", self=x, size=[30], stride=[1])
        add("negative stride", self=x, size=[2], stride=[-1])
    elif base == "alias":
        add("contiguous", self=x)
        add("transposed", self=xt)
    elif base in ("view", "reshape"):
        key = "size" if base == "view" else "shape"
        for sizes in ([6, 4], [-1], [4, -1, 2], [24], [2, 3, 4, 1]):
            add("contiguous to %s" % sizes, self=x, **{key: sizes})
        add("transposed to [-1]", self=xt, **{key: [-1]})
        add("transposed to [4, 6]", self=xt, **{key: [4, 6]})
        add("0-dim to [1, 1]", self=_x(op, dtype, ()), **{key: [1, 1]})
        add("zero-size to [0, -1]", self=_x(op, dtype, (0, 3)), **{key: [-1, 0]})
        add("wrong numel", self=x, **{key: [5, 5]})
        add("two -1", self=x, **{key: [-1, -1]})
    elif base == "flatten":
        for a, b in [(0, -1), (1, 2), (0, 1), (2, 2), (-2, -1)]:
            add("start %d end %d" % (a, b), self=x, start_dim=a, end_dim=b)
        add("transposed", self=xt, start_dim=0, end_dim=-1)
        add("0-dim", self=_x(op, dtype, ()), start_dim=0, end_dim=-1)
        add("start after end", self=x, start_dim=2, end_dim=1)
    elif base == "permute":
        add("2,0,1", self=x, dims=[2, 0, 1])
        add("negative dims", self=xt, dims=[-1, 0, 1])
        add("repeated dim", self=x, dims=[0, 0, 1])
        add("wrong length", self=x, dims=[0, 1])
    elif base == "transpose":
        for a, b in [(0, 1), (0, 2), (-1, 0), (1, 1)]:
            add("dims %d, %d" % (a, b), self=x, dim0=a, dim1=b)
        add("transposed input", self=xt, dim0=0, dim1=2)
        add("dim out of range", self=x, dim0=0, dim1=3)
    elif base == "t":
        add("2-D", self=_x(op, dtype, (3, 4)))
        add("1-D", self=_x(op, dtype, (4,)))
        add("0-dim", self=_x(op, dtype, ()))
        add("3-D", self=x)
    elif base in ("expand", "broadcast_to"):
        add("1x3 to 2x3", self=_x(op, dtype, (1, 3)), size=[2, 3])
        add("new leading dims, -1", self=_x(op, dtype, (3, 1)), size=[2, -1, 4])
        add("0-dim to 2x2", self=_x(op, dtype, ()), size=[2, 2])
        add("size mismatch", self=_x(op, dtype, (3,)), size=[2, 4])
        add("too few sizes", self=x, size=[4])
    elif base == "expand_as":
        add("1x3 as 2x3", self=_x(op, dtype, (1, 3)), other=tensor("float32", [2, 3]))
        add("mismatch", self=_x(op, dtype, (3,)), other=tensor("int64", [2, 4]))
    elif base == "squeeze":
        y = _x(op, dtype, (1, 3, 1, 2))
        if op.endswith(".dim"):
            for d in [0, 1, 2, -1, -4]:
                add("dim %d" % d, self=y, dim=d)
            add("0-dim, dim 0", self=_x(op, dtype, ()), dim=0)
            add("dim out of range", self=y, dim=4)
        elif op.endswith(".dims"):
            for dims in ([0], [0, 2], [1, 2], [], [-1, -4]):
                add("dims %s" % dims, self=y, dim=dims)
            add("0-dim, dims [0]", self=_x(op, dtype, ()), dim=[0])
            add("dims out of range", self=y, dim=[0, 4])
            add("dim repeated", self=y, dim=[0, 0])
        else:
            add("1x3x1x2", self=y)
            add("0-dim", self=_x(op, dtype, ()))
            add("transposed", self=tensor(dtype, [1, 3, 1], layout="transposed", seed=(op,)))
    elif base == "unsqueeze":
        for d in [0, 1, 3, -1, -4]:
            add("dim %d" % d, self=x, dim=d)
        add("0-dim", self=_x(op, dtype, ()), dim=0)
        add("transposed", self=xt, dim=1)
        add("dim out of range", self=x, dim=4)
    elif base == "select":
        add("dim 0 index 1", self=x, dim=0, index=1)
        add("dim -1 index -1", self=x, dim=-1, index=-1)
        add("transposed", self=xt, dim=1, index=2)
        add("index out of range", self=x, dim=1, index=3)
        add("0-dim", self=_x(op, dtype, ()), dim=0, index=0)
    elif base == "slice":
        for dim, start, end, step in [(0, 0, 1, 1), (2, 1, None, 2), (1, -2, None, 1),
                                      (2, None, -1, 3), (1, 5, 10, 1), (0, 1, 0, 1)]:
            add("dim %d [%s:%s:%d]" % (dim, start, end, step), self=x, dim=dim, start=start,
                end=end, step=step)
        add("transposed", self=xt, dim=2, start=1, end=3, step=1)
        add("step 0", self=x, dim=0, start=0, end=2, step=0)
    elif base == "narrow":
        add("dim 1 start 1 length 2", self=x, dim=1, start=1, length=2)
        add("dim -1 start -2 length 2", self=x, dim=-1, start=-2, length=2)
        add("transposed", self=xt, dim=0, start=0, length=1)
        add("past the end", self=x, dim=1, start=2, length=2)
    elif base == "diagonal":
        for off, d1, d2 in [(0, 0, 1), (1, 1, 2), (-1, 0, 2), (5, 0, 1), (0, -1, 0)]:
            add("offset %d dims %d, %d" % (off, d1, d2), self=x, offset=off, dim1=d1, dim2=d2)
        add("transposed", self=xt, offset=0, dim1=0, dim2=1)
        add("same dims", self=x, offset=0, dim1=1, dim2=1)
    elif base in ("movedim", "moveaxis") and op.endswith(".int"):
        for a, b in [(0, 2), (-1, 1), (1, 1)]:
            add("dim %d to %d" % (a, b), self=x, source=a, destination=b)
        add("transposed", self=xt, source=2, destination=0)
        add("0-dim", self=_x(op, dtype, ()), source=-1, destination=0)
        add("dim out of range", self=x, source=3, destination=0)
    elif base in ("movedim", "moveaxis"):
        for a, b in [([0, 1], [2, 0]), ([-1], [0]), ([], []), ([2, 0, 1], [0, 1, 2])]:
            add("dims %s to %s" % (a, b), self=x, source=a, destination=b)
        add("transposed", self=xt, source=[0, 1], destination=[1, 0])
        add("0-dim", self=_x(op, dtype, ()), source=[0], destination=[-1])
        add("lengths differ", self=x, source=[0, 1], destination=[2])
        add("repeated source", self=x, source=[0, 0], destination=[1, 2])
        add("repeated destination", self=x, source=[0, 1], destination=[-1, 2])
        add("repeated source, destination out of range", self=x, source=[0, 0],
            destination=[1, 3])
    elif base == "unflatten":
        for d, sizes in [(1, [3, 1]), (-1, [2, -1]), (0, [1, 2, 1]), (2, [-1])]:
            add("dim %d into %s" % (d, sizes), self=x, dim=d, sizes=sizes)
        add("transposed", self=xt, dim=0, sizes=[2, 2])
        add("zero-size", self=_x(op, dtype, (0, 3)), dim=0, sizes=[0, 4])
        add("zero-size, -1", self=_x(op, dtype, (0, 3)), dim=0, sizes=[0, -1])
        add("no sizes", self=x, dim=1, sizes=[])
        add("sizes do not multiply up", self=x, dim=1, sizes=[2, 2])
        add("two -1", self=x, dim=1, sizes=[-1, -1])
        add("negative size", self=x, dim=1, sizes=[-3, -1])
        add("dim out of range", self=x, dim=3, sizes=[1])
        add("0-dim", self=_x(op, dtype, ()), dim=0, sizes=[1])
    elif base == "unfold":
        for d, size, step in [(1, 2, 1), (-1, 2, 2), (2, 4, 3), (0, 0, 1)]:
            add("dim %d size %d step %d" % (d, size, step), self=x, dimension=d, size=size,
                step=step)
        add("transposed", self=xt, dimension=0, size=3, step=2)
        add("0-dim, size 1", self=_x(op, dtype, ()), dimension=0, size=1, step=1)
        add("0-dim, size 0", self=_x(op, dtype, ()), dimension=-1, size=0, step=2)
        add("size too large", self=x, dimension=1, size=4, step=1)
        add("step 0", self=x, dimension=1, size=2, step=0)
        add("dim out of range", self=x, dimension=3, size=1, step=1)
    elif base in ("view_as_real", "real", "imag"):
        add("contiguous", self=x)
        add("transposed", self=xt)
        add("sliced", self=_x(op, dtype, (2, 3), "sliced"))
        add("0-dim", self=_x(op, dtype, ()))
        add("zero-size", self=_x(op, dtype, (0, 3)))
    elif base == "view_as_complex":
        add("3x2", self=_x(op, dtype, (3, 2)))
        add("2x3x2 transposed", self=_x(op, dtype, (2, 3, 2), "transposed"))
        add("last dim 4", self=x)
        add("0-dim", self=_x(op, dtype, ()))
        add("sliced, last dim 2", self=_x(op, dtype, (4, 2), "sliced"))
    elif base in LIST_VIEWS:
        LIST_VIEWS[base](op, dtype, add)
    else:
        raise KeyError("no view samples for " + op)
    return s


# ---- Views returning lists: the pieces' count, geometry and aliasing are the point.

def _splits(op, dtype, add):
    x = _x(op, dtype, (5, 4))
    xt = _x(op, dtype, (5, 7), "transposed")
    empty = _x(op, dtype, (0, 3))
    if op.endswith(".Tensor"):  # split.Tensor, unsafe_split.Tensor: one size for every piece
        for size, dim in [(2, 0), (3, 1), (4, -1), (10, 0), (1, 0)]:
            add("split_size %d dim %d" % (size, dim), self=x, split_size=size, dim=dim)
        add("transposed", self=xt, split_size=3, dim=1)
        add("sliced", self=_x(op, dtype, (4, 9), "sliced"), split_size=4, dim=1)
        add("expanded", self=_x(op, dtype, (6, 5), "expanded"), split_size=4, dim=0)
        add("zero-size, split_size 0", self=empty, split_size=0, dim=0)
        add("zero-size, split_size 2", self=empty, split_size=2, dim=0)
        add("split_size 0", self=x, split_size=0, dim=0)
        add("negative split_size", self=x, split_size=-1, dim=0)
        add("dim out of range", self=x, split_size=2, dim=2)
        add("0-dim", self=_x(op, dtype, ()), split_size=1, dim=0)
        return
    key = "split_size" if op == "split.sizes" else "split_sizes"
    for sizes, dim in [([1, 4], 0), ([2, 0, 2], -1), ([5], 0), ([1, 1, 1, 1], 1)]:
        add("sizes %s dim %d" % (sizes, dim), self=x, dim=dim, **{key: sizes})
    add("transposed", self=xt, dim=1, **{key: [3, 4]})
    add("zero-size", self=empty, dim=0, **{key: [0, 0]})
    add("no sizes", self=x, dim=0, **{key: []})
    add("sizes too small", self=x, dim=0, **{key: [1, 1]})
    add("sizes too large", self=x, dim=0, **{key: [4, 4]})
    add("negative size", self=x, dim=0, **{key: [4, -2, 3]})
    add("0-dim", self=_x(op, dtype, ()), dim=0, **{key: [1]})


def _chunk(op, dtype, add):
    x = _x(op, dtype, (5, 4))
    for chunks, dim in [(3, 0), (2, 1), (4, -1), (5, 0), (20, 0), (1, 1)]:
        add("chunks %d dim %d" % (chunks, dim), self=x, chunks=chunks, dim=dim)
    add("transposed", self=_x(op, dtype, (5, 7), "transposed"), chunks=3, dim=1)
    add("zero-size", self=_x(op, dtype, (0, 3)), chunks=3, dim=0)
    add("chunks 0", self=x, chunks=0, dim=0)
    add("0-dim", self=_x(op, dtype, ()), chunks=1, dim=0)


def _tensor_split(op, dtype, add):
    x = _x(op, dtype, (5, 4))
    xt = _x(op, dtype, (5, 7), "transposed")
    if op.endswith(".sections"):
        for n, dim in [(3, 0), (4, 1), (7, 0), (1, -1)]:
            add("sections %d dim %d" % (n, dim), self=x, sections=n, dim=dim)
        add("transposed", self=xt, sections=4, dim=1)
        add("zero-size", self=_x(op, dtype, (0, 3)), sections=2, dim=0)
        add("sections 0", self=x, sections=0, dim=0)
        add("dim out of range", self=x, sections=2, dim=-3)
        add("0-dim", self=_x(op, dtype, ()), sections=2, dim=0)
    elif op.endswith(".indices"):
        for idx, dim in [([1, 3], 0), ([4, 1, -1, 9], 0), ([], 1), ([2, 2], -1)]:
            add("indices %s dim %d" % (idx, dim), self=x, indices=idx, dim=dim)
        add("transposed", self=xt, indices=[2, 5], dim=1)
        add("0-dim", self=_x(op, dtype, ()), indices=[1], dim=0)
    else:  # tensor_indices_or_sections: int64 indices (1-D) or sections (0-dim)
        def longs(v):
            return torch.tensor(v, dtype=torch.int64)
        add("indices [1, 3]", self=x, tensor_indices_or_sections=longs([1, 3]), dim=0)
        add("sections 3", self=x, tensor_indices_or_sections=longs(3), dim=0)
        add("strided indices", self=xt, tensor_indices_or_sections=longs([6, 0, 2, 0])[::2],
            dim=1)
        add("2-D indices", self=x, tensor_indices_or_sections=longs([[1], [2]]), dim=0)
        add("float indices", self=x, tensor_indices_or_sections=torch.tensor([1.0]), dim=0)
        add("0-dim self", self=_x(op, dtype, ()), tensor_indices_or_sections=longs([1]), dim=0)


def _unbind(op, dtype, add):
    x = _x(op, dtype, (2, 3, 4))
    for dim in [0, 1, -1]:
        add("dim %d" % dim, self=x, dim=dim)
    add("transposed", self=_x(op, dtype, (5, 7), "transposed"), dim=1)
    add("expanded", self=_x(op, dtype, (6, 5), "expanded"), dim=1)
    add("zero-size, dim 0", self=_x(op, dtype, (0, 3)), dim=0)
    add("zero-size, dim 1", self=_x(op, dtype, (0, 3)), dim=1)
    add("dim out of range", self=x, dim=3)
    add("0-dim", self=_x(op, dtype, ()), dim=0)


def _broadcast_tensors(op, dtype, add):
    def t(*sizes, layout="contiguous"):
        return tensor(dtype, list(sizes), layout=layout, seed=(op, sizes))
    add("column and row", tensors=[t(3, 1), t(2)])
    add("same shapes", tensors=[t(2, 3), t(2, 3, layout="transposed")])
    add("0-dim and two more", tensors=[t(), t(2, 2), t(1, 2)])
    add("zero-size", tensors=[t(0, 3), t(1, 3)])
    add("one tensor", tensors=[t(4)])
    add("no tensors", tensors=[])
    add("mismatch", tensors=[t(2), t(3)])
    add("mismatch with the shape so far", tensors=[t(2), t(1, 2), t(3, 3)])


LIST_VIEWS = {"split": _splits, "split_with_sizes": _splits, "unsafe_split": _splits,
              "unsafe_split_with_sizes": _splits, "chunk": _chunk,
              "tensor_split": _tensor_split, "unbind": _unbind,
              "broadcast_tensors": _broadcast_tensors}
