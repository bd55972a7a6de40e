"""Samples of factories and of the ops that fill or resize a tensor."""
import torch

from .encode import DTYPES
from .sample import Sample, python_numbers, special_vector, tensor


def factories(op, dtype):
    name, _, overload = op.partition(".")
    d = DTYPES[dtype]
    s = []

    def add(description, **args):
        s.append(Sample(description, args))

    like = tensor("float32", [2, 3], layout="transposed", seed=(op,))
    if name == "empty" and overload == "memory_format":
        add("2x3", size=[2, 3], dtype=d, device=torch.device("cpu"))
        add("0-dim", size=[], dtype=d)
        add("channels_last", size=[2, 3, 2, 2], dtype=d, memory_format=torch.channels_last)
        add("negative size", size=[2, -1], dtype=d)
    elif name == "empty_strided":
        add("2x3 strides 1,2", size=[2, 3], stride=[1, 2], dtype=d)
        add("overlapping", size=[2, 3], stride=[0, 1], dtype=d)
    elif name in ("empty_like", "zeros_like", "ones_like"):
        add("like transposed float32", self=like, dtype=d)
        add("like %s, contiguous_format" % dtype, self=tensor(dtype, [2, 3], layout="transposed"),
            memory_format=torch.contiguous_format)
        add("like %s" % dtype, self=tensor(dtype, [0, 2]))
    elif name in ("zeros", "ones") and not overload:
        add("2x3", size=[2, 3], dtype=d)
        add("0-dim", size=[], dtype=d)
        add("zero-size", size=[0, 4], dtype=d)
    elif name == "full" and not overload:
        for v in python_numbers():
            add("2x2 of %r" % (v,), size=[2, 2], fill_value=v, dtype=d)
    elif name == "full_like":
        for v in python_numbers():
            add("of %r" % (v,), self=tensor(dtype, [2, 3], layout="transposed"), fill_value=v)
        add("dtype %s" % dtype, self=like, fill_value=7, dtype=d)
    elif name == "arange" and not overload:
        for end in [5, 4.5, 0, True, -3]:
            add("end %r" % (end,), end=end, dtype=d)
    elif name == "arange" and overload == "start_step":
        for start, end, step in [(0, 5, 1), (1, 2, 0.25), (5, 0, -2), (0.5, 3, 1), (0, 1, 0),
                                 (0, 5, -1), (-3, 3, 2.5), (0, float("inf"), 1)]:
            add("%r to %r step %r" % (start, end, step), start=start, end=end, step=step, dtype=d)
    elif name in ("linspace", "logspace"):
        extra = {} if name == "linspace" else {"base": 2.0}
        ranges = [(0, 10, 5), (-1, 1, 8), (2.5, -3, 7), (1, 1, 4), (0, 1, 1), (3, 5, 0),
                  (0, 1, -1), (-100, 100, 13), (0.1, 0.7, 6)]
        if dtype.startswith("complex"):
            ranges += [(1j, 2 - 1j, 5), (0, 1 + 1j, 1)]
        if overload == "out":
            for start, end, steps in ranges[:4]:
                add("%r to %r in %r steps" % (start, end, steps), start=start, end=end, steps=steps,
                    out=tensor(dtype, [0]), **extra)
            add("into a 2x2 out", start=0, end=3, steps=4, out=tensor(dtype, [2, 2]), **extra)
            add("into a larger out", start=0, end=3, steps=3, out=tensor(dtype, [5]), **extra)
            add("into a strided out", start=-2, end=3, steps=5,
                out=tensor(dtype, [5, 2])[:, 0], **extra)
            add("negative steps", start=0, end=1, steps=-2, out=tensor(dtype, [0]), **extra)
            return s
        for start, end, steps in ranges:
            add("%r to %r in %r steps" % (start, end, steps), start=start, end=end, steps=steps,
                dtype=d, **extra)
        if name == "logspace":
            add("base 10", start=-2, end=3, steps=6, dtype=d)
            add("base 0.5", start=0, end=4, steps=5, base=0.5, dtype=d)
            add("one step, base 10", start=2, end=3, steps=1, dtype=d)
        if dtype == "float32":
            add("default dtype", start=0, end=1, steps=5, **extra)
            add("complex start, default dtype", start=1j, end=2, steps=3, **extra)
            add("complex end, float dtype", start=0, end=2j, steps=3, dtype=d, **extra)
    elif name == "eye":
        if overload == "out":
            add("3", n=3, out=tensor(dtype, [0]))
            add("2 into 3x3", n=2, out=tensor(dtype, [3, 3]))
            add("negative n", n=-1, out=tensor(dtype, [0]))
        elif overload == "m_out":
            add("2x3", n=2, m=3, out=tensor(dtype, [0]))
            add("4x2 into a transposed 4x2", n=4, m=2, out=tensor(dtype, [2, 4]).t())
            add("negative m", n=2, m=-3, out=tensor(dtype, [0]))
        elif overload == "m":
            for n, m in [(2, 3), (4, 2), (0, 3), (3, 0), (1, 1), (-1, 2), (2, -1)]:
                add("%dx%d" % (n, m), n=n, m=m, dtype=d)
        else:
            for n in [3, 1, 0, -2]:
                add("%d" % n, n=n, dtype=d)
            if dtype == "float32":
                add("default dtype", n=2)
    elif name in ("tril", "triu", "tril_", "triu_"):
        for sizes, layout, k in [([4, 5], "contiguous", 0), ([5, 4], "transposed", 1),
                                 ([3, 4, 4], "contiguous", -1), ([2, 3, 6], "sliced", 2),
                                 ([4, 3], "contiguous", 10), ([3, 4], "contiguous", -10),
                                 ([2, 1, 3, 3], "contiguous", 0), ([0, 3], "contiguous", 0),
                                 ([4], "contiguous", 0), ([], "contiguous", 0)]:
            args = dict(self=tensor(dtype, sizes, layout=layout), diagonal=k)
            if overload == "out":
                args["out"] = tensor(dtype, [0])
            add("%s %r diagonal %d" % (layout, sizes, k), **args)
        if overload == "out":
            add("into a 2x2 out", self=tensor(dtype, [3, 3]), diagonal=0,
                out=tensor(dtype, [2, 2]))
            other = "float64" if dtype != "float64" else "float32"
            add("into a %s out" % other, self=tensor(dtype, [3, 3]), diagonal=0,
                out=tensor(other, [3, 3]))
        elif not name.endswith("_"):
            add("special values", self=special_vector(dtype).reshape(1, -1), diagonal=0)
    elif op.endswith("out") and name in ("empty", "zeros", "ones", "full", "arange"):
        out = tensor(dtype, [0])
        if overload == "out" and name == "arange":
            add("end 5", end=5, out=out)
            add("end 3.5 into 2x2", end=3.5, out=tensor(dtype, [2, 2]))
            return s
        if overload == "start_out":
            add("0 to 5", start=0, end=5, step=1, out=out)
            add("0.5 to 2 step 0.5", start=0.5, end=2, step=0.5, out=tensor(dtype, [7]))
            add("bad step", start=0, end=2, step=-1, out=tensor(dtype, [0]))
            return s
        args = dict(size=[2, 3], out=out)
        if name == "full":
            for v in python_numbers():
                add("2x3 of %r" % (v,), fill_value=v, **args)
        elif name == "empty":
            add("2x3", **args)
        else:
            add("2x3", **args)
            add("into a larger out", size=[2], out=tensor(dtype, [3, 3]))
    elif name == "fill_":
        if overload == "Scalar":
            for v in python_numbers():
                add("transposed, value %r" % (v,), self=tensor(dtype, [3, 4], layout="transposed"),
                    value=v)
            add("expanded", self=tensor(dtype, [3, 4], layout="expanded"), value=1)
        else:
            add("0-dim value", self=tensor(dtype, [2, 3], layout="sliced"),
                value=tensor("float64", [], vals=[2.5]))
            add("1-D value", self=tensor(dtype, [2, 3]), value=tensor(dtype, [1]))
            add("0-dim %s value" % dtype, self=tensor("float32", [3]),
                value=special_vector(dtype)[-1])
    elif name == "zero_":
        add("transposed", self=tensor(dtype, [3, 4], layout="transposed"))
        add("special values", self=special_vector(dtype))
    elif name == "resize_":
        add("grow 3 to 2x4", self=tensor(dtype, [3], vals="random"), size=[2, 4])
        add("shrink 3x4 to 2", self=tensor(dtype, [3, 4]), size=[2])
        add("to 0-dim", self=tensor(dtype, [3]), size=[])
        add("negative size", self=tensor(dtype, [3]), size=[-1])
        add("channels_last", self=tensor(dtype, [3]), size=[2, 2, 2, 2],
            memory_format=torch.channels_last)
    elif name == "resize_as_":
        add("as 2x3", self=tensor(dtype, [3]), the_template=tensor("int64", [2, 3]))
        add("as transposed", self=tensor(dtype, [5]), the_template=like)
    else:
        raise KeyError("no factory samples for " + op)
    return s
