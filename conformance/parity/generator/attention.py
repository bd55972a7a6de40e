"""Samples of scaled_dot_product_attention and of dropout, which it calls, in evaluation mode."""
from .sample import Sample, tensor


def dropout(op, dtype):
    """Evaluation mode, p = 0 and the checks of p: training with p > 0 draws a random mask,
    which Backplane refuses (docs/pytorch_parity.md)."""
    name = "self" if op.endswith("_") else "input"
    cases = [([2, 3], "contiguous", 0.5, False, "evaluation"),
             ([3, 2], "transposed", 0.1, False, "evaluation, transposed"),
             ([4], "contiguous", 0.0, True, "training with p = 0"),
             ([0, 2], "contiguous", 0.5, True, "training, no elements"),
             ([2], "contiguous", 1.5, False, "p above 1"),
             ([2], "contiguous", -0.25, True, "p below 0")]
    return [Sample(d, {name: tensor(dtype, s, layout=l, seed=(op, i)), "p": p, "train": train})
            for i, (s, l, p, train, d) in enumerate(cases)]


def scaled_dot_product_attention(op, dtype):
    def t(sizes, i, layout="contiguous", name=0):
        return tensor(dtype, sizes, layout=layout, seed=(op, i, name), low=-2, high=2)
    q, k, v = t([2, 3, 4], 0, name="q"), t([2, 5, 4], 0, name="k"), t([2, 5, 3], 0, name="v")
    kc, vc = t([2, 3, 4], 1, name="k"), t([2, 3, 2], 1, "transposed", "v")
    mask = tensor("bool", [3, 5], vals=[1, 0, 1, 1, 1, 1, 1, 0, 0, 1, 0, 1, 1, 1, 1])
    return [
        Sample("batched", {"query": q, "key": k, "value": v}),
        Sample("causal", {"query": q, "key": kc, "value": vc, "is_causal": True}),
        Sample("heads, scale given", {"query": t([1, 2, 4, 8], 2, "transposed", "q"),
                                      "key": t([1, 2, 4, 8], 2, name="k"),
                                      "value": t([1, 2, 4, 8], 2, name="v"), "scale": 0.5}),
        Sample("bool mask", {"query": q, "key": k, "value": v, "attn_mask": mask}),
        Sample("additive mask", {"query": q, "key": k, "value": v,
                                 "attn_mask": t([1, 5], 3, name="m")}),
        Sample("causal with a mask", {"query": q, "key": kc, "value": vc, "is_causal": True,
                                      "attn_mask": t([3, 3], 4, name="m")}),
    ]
