"""A sample: one call's arguments, by schema name, and how to build its tensors."""
from . import values

LAYOUTS = {
    "contiguous": values.make,
    "transposed": values.transposed,
    "sliced": values.sliced,
    "expanded": values.expanded,
}


class Sample:
    """`args` maps schema names to torch tensors, WrappedNumber, dtypes, lists or numbers."""

    def __init__(self, description, args, variants=True):
        self.description = description
        self.args = args
        # Whether the in-place and out= variants reuse the sample (they get a smaller set: the
        # functional op's checks their shared meta function already ran).
        self.variants = variants


def tensor(dtype, sizes, vals="random", layout="contiguous", seed=(), low=None, high=None):
    """A tensor of `dtype` and `sizes` in a layout, with random values (seeded by `seed`), the
    dtype's special values ("special"), or the given list."""
    n = 1
    for s in sizes:
        n *= s
    n = max(n, 1) * 2 + 1  # enough for every layout's storage
    if vals == "random":
        vals = values.random_values(dtype, n, values.seeded(dtype, sizes, layout, *seed), low, high)
    elif vals == "special":
        vals = values.specials(dtype)
    return LAYOUTS[layout](vals, dtype, list(sizes))


def special_vector(dtype, limit=None):
    """A 1-D tensor of the dtype's special values (the first `limit` of them)."""
    vals = values.specials(dtype)
    if limit is not None and len(vals) > limit:
        step = len(vals) / limit
        vals = [vals[int(i * step)] for i in range(limit)]
    return values.make(vals, dtype, [len(vals)])


def python_numbers():
    """Python numbers of each kind, as a user passes them for a Tensor or Scalar argument."""
    return [True, 3, -2, 0, 2.5, -0.0, float("nan"), float("inf"), complex(1.5, -2)]
