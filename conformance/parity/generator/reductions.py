"""Samples of reductions and of the ops along a dim (scans, softmax): dims of every form,
keepdim, dtype arguments, special values, layouts, 0-dim and zero-size inputs, bad dims."""
from .sample import Sample, special_vector, tensor


def _inputs(op, dtype):
    return [
        ("random 3x4", tensor(dtype, [3, 4], seed=(op,))),
        ("transposed 3x4", tensor(dtype, [3, 4], layout="transposed", seed=(op,))),
        ("sliced 2x3 with offset", tensor(dtype, [2, 3], layout="sliced", seed=(op,))),
    ]


def reduce_dims(op, dtype, dim_is_list=True, all_dims=True, extra=None):
    """A reduction over `dim` (a list, or an int when not `dim_is_list`) with keepdim."""
    extra = extra or {}
    out = []

    def add(description, self, dim, keepdim=False, **more):
        args = dict(self=self, dim=dim, keepdim=keepdim, **extra)
        args.update(more)
        out.append(Sample(description, args))

    wrap = (lambda d: [d]) if dim_is_list else (lambda d: d)
    for description, t in _inputs(op, dtype):
        for d in [0, 1, -1]:
            for keepdim in [False, True]:
                add("%s, dim %d, keepdim %s" % (description, d, keepdim), t, wrap(d), keepdim)
        if dim_is_list:
            add(description + ", dims [0, 1]", t, [0, 1])
            add(description + ", dims [-1, 0], keepdim", t, [-1, 0], True)
            if all_dims:
                add(description + ", all dims ([])", t, [])
    add("special values, dim 0", special_vector(dtype), wrap(0))
    add("0-dim, dim 0", tensor(dtype, [], seed=(op,)), wrap(0))
    add("0-dim, dim -1, keepdim", tensor(dtype, [], seed=(op,)), wrap(-1), True)
    add("zero-size 0x3, dim 0", tensor(dtype, [0, 3]), wrap(0))
    add("zero-size 0x3, dim 1", tensor(dtype, [0, 3]), wrap(1))
    add("dim 2 out of range", tensor(dtype, [3, 4], seed=(op,)), wrap(2))
    add("dim -3 out of range", tensor(dtype, [3, 4], seed=(op,)), wrap(-3))
    if dim_is_list:
        add("dim 0 twice", tensor(dtype, [3, 4], seed=(op,)), [0, -2])
    return out


def reduce_all(op, dtype):
    """A full reduction (no dim): layouts, special values, 0-dim and zero-size inputs."""
    out = [Sample(description, dict(self=t)) for description, t in _inputs(op, dtype)]
    out.append(Sample("special values", dict(self=special_vector(dtype))))
    out.append(Sample("0-dim", dict(self=tensor(dtype, [], seed=(op,)))))
    out.append(Sample("zero-size 0x3", dict(self=tensor(dtype, [0, 3]))))
    out.append(Sample("2x3x4", dict(self=tensor(dtype, [2, 3, 4], seed=(op,)))))
    return out


def with_dtype_arg(samples, dtypes):
    """The samples again with each of `dtypes` as the op's `dtype` argument."""
    out = []
    for s in samples[:2]:
        for d in dtypes:
            args = dict(s.args, dtype=d)
            out.append(Sample(s.description + ", dtype=%s" % d, args))
    return out


def along_dim(op, dtype, extra=None):
    """Scans and normalisations: one int dim."""
    extra = extra or {}
    out = []
    for description, t in _inputs(op, dtype):
        for d in [0, 1, -1]:
            out.append(Sample("%s, dim %d" % (description, d), dict(self=t, dim=d, **extra)))
    out.append(Sample("special values, dim 0", dict(self=special_vector(dtype), dim=0, **extra)))
    out.append(Sample("0-dim, dim 0", dict(self=tensor(dtype, [], seed=(op,)), dim=0, **extra)))
    out.append(Sample("0-dim, dim -1", dict(self=tensor(dtype, [], seed=(op,)), dim=-1, **extra)))
    out.append(Sample("zero-size 0x3, dim 0", dict(self=tensor(dtype, [0, 3]), dim=0, **extra)))
    out.append(Sample("zero-size 0x3, dim 1", dict(self=tensor(dtype, [0, 3]), dim=1, **extra)))
    out.append(Sample("dim 2 out of range", dict(self=tensor(dtype, [3, 4], seed=(op,)), dim=2,
                                                 **extra)))
    return out
