"""Samples of result_type: each priority class (tensors with dims, zero-dim tensors, Python
numbers) against each other, over every dtype."""
import torch

from . import encode
from .sample import Sample, tensor

# A Python number of each kind (bool, int, float, complex) and the dtype column it belongs to.
NUMBERS = [(True, "bool"), (3, "int64"), (-2.5, "float64"), (complex(1, 2), "complex128")]


def promotion(op, dtype):
    s = []
    if op == "result_type.Scalar_Scalar":
        # Numbers have no tensor: each kind's column holds it against every kind.
        for first, column in NUMBERS:
            if column == dtype:
                for second, _ in NUMBERS:
                    s.append(Sample("%r and %r" % (first, second),
                                    {"scalar1": first, "scalar2": second}))
        return s
    for sizes, what in [([3], "tensor"), ([], "0-dim tensor")]:
        x = tensor(dtype, sizes, seed=(op,))
        if op == "result_type.Tensor":
            for other in encode.ALL:
                for other_sizes, other_what in [([3], "tensor"), ([], "0-dim tensor")]:
                    s.append(Sample("%s and %s %s" % (what, other, other_what),
                                    {"tensor": x, "other": tensor(other, other_sizes, seed=(op,))}))
        else:
            key = "scalar" if op == "result_type.Scalar_Tensor" else "other"
            for number, _ in NUMBERS:
                s.append(Sample("%s and %r" % (what, number), {"tensor": x, key: number}))
    return s
