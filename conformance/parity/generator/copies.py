"""Samples of copies and conversions between every pair of dtypes."""
import torch

from .encode import ALL, DTYPES
from .sample import Sample, special_vector, tensor


def convertible_specials(src, dst):
    """src's special values that have a defined value in dst: C++ leaves float to integer
    conversions of nan, infinities and out-of-range values undefined (docs/pytorch_parity.md)."""
    v = special_vector(src)
    if (v.dtype.is_floating_point or v.dtype.is_complex) and not (
            DTYPES[dst].is_floating_point or DTYPES[dst].is_complex or dst == "bool"):
        info = torch.iinfo(DTYPES[dst])
        r = v.real if v.dtype.is_complex else v
        r = r.double()
        keep = torch.isfinite(r) & (r > float(info.min - 1)) & (r < float(info.max + 1))
        if v.dtype.is_complex:
            keep &= torch.isfinite(v.imag)
        v = v[keep]
    return v


def copies(op, dtype):
    name, _, overload = op.partition(".")
    s = []

    def add(description, **args):
        s.append(Sample(description, args))

    d = DTYPES[dtype]
    if name == "copy_":
        for src in ALL:
            add("from %s special values" % src, self=tensor(dtype, [len(
                convertible_specials(src, dtype))]), src=convertible_specials(src, dtype))
        add("broadcast 4 into transposed 3x4", self=tensor(dtype, [3, 4], layout="transposed"),
            src=tensor("float64", [4], seed=(op,)))
        add("shape mismatch", self=tensor(dtype, [3]), src=tensor(dtype, [2]))
        add("into expanded", self=tensor(dtype, [3, 4], layout="expanded"),
            src=tensor(dtype, [3, 4]))
    elif name == "clone":
        add("transposed", self=tensor(dtype, [3, 4], layout="transposed", seed=(op,)))
        add("transposed, contiguous_format",
            self=tensor(dtype, [3, 4], layout="transposed", seed=(op,)),
            memory_format=torch.contiguous_format)
        add("sliced", self=tensor(dtype, [2, 3], layout="sliced", seed=(op,)))
        add("channels_last", self=tensor(dtype, [2, 3, 2, 2], seed=(op,)),
            memory_format=torch.channels_last)
    elif name == "contiguous":
        add("contiguous", self=tensor(dtype, [3, 4], seed=(op,)))
        add("transposed", self=tensor(dtype, [3, 4], layout="transposed", seed=(op,)))
        add("expanded", self=tensor(dtype, [3, 4], layout="expanded", seed=(op,)))
    elif name in ("_to_copy", "to"):
        for dst in ALL:
            args = dict(self=convertible_specials(dtype, dst))
            if name == "_to_copy":
                args["dtype"] = DTYPES[dst]
            elif overload == "dtype":
                args["dtype"] = DTYPES[dst]
            elif overload == "device":
                args.update(device=torch.device("cpu"), dtype=DTYPES[dst])
            else:
                args["other"] = tensor(dst, [1])
            add("to %s" % dst, **args)
        if name == "to":
            same = dict(dtype=d) if overload == "dtype" else (
                dict(device=torch.device("cpu"), dtype=d) if overload == "device"
                else dict(other=tensor(dtype, [2])))
            add("same dtype: no copy", self=tensor(dtype, [3, 4], layout="transposed"), **same)
            add("same dtype, copy=True", self=tensor(dtype, [3, 4], layout="transposed"),
                copy=True, **same)
        else:
            add("transposed, same dtype", self=tensor(dtype, [3, 4], layout="transposed"))
    else:
        raise KeyError("no copy samples for " + op)
    return s
