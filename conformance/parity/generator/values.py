"""Input values and layouts: special values per dtype, seeded random ones, and the strided
layouts (transposed, sliced with an offset, expanded) the cases give them in."""
import zlib

import torch

from .encode import DTYPES


def seeded(*names):
    """A generator seeded by names, so each sample's values do not depend on the others."""
    g = torch.Generator()
    g.manual_seed(zlib.crc32("/".join(str(n) for n in names).encode()))
    return g


def _real_specials(dtype):
    fi = torch.finfo(dtype)
    return [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.75, 100.0, float("inf"), float("-inf"),
            float("nan"), fi.tiny / 4, -fi.tiny / 4, fi.tiny, fi.max, -fi.max, fi.eps]


def _complex_specials(dtype):
    part = torch.finfo(torch.float32 if dtype == torch.complex64 else torch.float64)
    inf, nan = float("inf"), float("nan")
    reals = [0.0, -0.0, 1.5, -2.0, inf, -inf, nan]
    imags = [0.0, -0.0, 0.75, -3.0, inf, -inf, nan]
    grid = [complex(r, i) for r in reals for i in imags]
    return grid + [complex(part.max, part.max), complex(-part.max / 2, part.max),
                   complex(part.tiny / 4, -part.tiny / 4), complex(1e-30, 1e30)]


def specials(dtype_name):
    """Values that find edge cases: zeros of both signs, infinities, nan, denormals, limits."""
    dtype = DTYPES[dtype_name]
    if dtype == torch.bool:
        return [False, True]
    if dtype.is_complex:
        return _complex_specials(dtype)
    if dtype.is_floating_point:
        return _real_specials(dtype)
    ii = torch.iinfo(dtype)
    vals = [0, 1, 2, 7, ii.max, ii.max - 1, ii.min, ii.min + 1]
    if ii.min < 0:
        vals += [-1, -2, -7]
    return vals


def random_values(dtype_name, n, g, low=None, high=None):
    """n seeded random values of a dtype: normal(0, 3) for floating types (both parts of
    complex ones), small integers for integral ones."""
    dtype = DTYPES[dtype_name]
    if dtype == torch.bool:
        return torch.randint(0, 2, (n,), generator=g).bool().tolist()
    if dtype.is_complex:
        re = torch.randn(n, generator=g, dtype=torch.float64) * 3
        im = torch.randn(n, generator=g, dtype=torch.float64) * 3
        return torch.complex(re, im).to(dtype).tolist()
    if dtype.is_floating_point:
        v = torch.randn(n, generator=g, dtype=torch.float64) * 3
        if low is not None:
            v = torch.rand(n, generator=g, dtype=torch.float64) * (high - low) + low
        return v.to(dtype).to(torch.float64).tolist()
    ii = torch.iinfo(dtype)
    lo = max(ii.min, -9 if low is None else low)
    hi = min(ii.max, 9 if high is None else high)
    return torch.randint(lo, hi + 1, (n,), generator=g).tolist()


def make(vals, dtype_name, sizes):
    """A contiguous tensor of `vals` (repeated or cut to fit)."""
    dtype = DTYPES[dtype_name]
    n = 1
    for s in sizes:
        n *= s
    vals = list(vals)
    flat = [vals[i % len(vals)] for i in range(n)] if vals else []
    return torch.tensor(flat, dtype=dtype).reshape(sizes)


def transposed(vals, dtype_name, sizes):
    """Non-contiguous: the transpose of a contiguous tensor of the reversed sizes."""
    return make(vals, dtype_name, list(reversed(sizes))).permute(*reversed(range(len(sizes))))


def sliced(vals, dtype_name, sizes):
    """Non-contiguous with a storage offset: every other element of the last dim, from 1."""
    if not sizes:
        return make(vals, dtype_name, [2])[1]
    bigger = list(sizes[:-1]) + [2 * sizes[-1] + 1]
    return make(vals, dtype_name, bigger)[..., 1::2]


def expanded(vals, dtype_name, sizes):
    """Overlapping: the first dim broadcast with stride 0 (read-only arguments only)."""
    if not sizes:
        return make(vals, dtype_name, [])
    return make(vals, dtype_name, [1] + list(sizes[1:])).expand(*sizes)
