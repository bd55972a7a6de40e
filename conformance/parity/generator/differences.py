"""Intentional differences from PyTorch 1.13: the golden cases the generator leaves out, by
rule. Each rule's key names its row in docs/pytorch_parity.md ("Intentional differences"), which
gives the reason and the test that pins Backplane's behaviour."""
import math

import torch

from . import encode, expect, messages, torch_call

SPECIAL_MAGNITUDE = (1e-30, 1e30)  # complex parts outside this range overflow or underflow


def numel(tensor_json):
    n = 1
    for s in tensor_json["sizes"]:
        n *= s
    return n


def _tensors(case):
    return {k: v for k, v in case["args"].items() if isinstance(v, dict) and "sizes" in v}


def _reals(v):
    """The real numbers of a JSON value: a tensor's elements (both parts of complex ones), a
    Scalar, a number."""
    if isinstance(v, dict) and "sizes" in v:
        out = []
        for e in v.get("values", v.get("storage", [])):
            out += _reals(e)
        return out
    if isinstance(v, dict) and "real" in v:
        return _reals(v["real"]) + _reals(v["imag"])
    if isinstance(v, list):
        return sum((_reals(e) for e in v), [])
    if isinstance(v, bool) or v is None:
        return [float(bool(v))] if isinstance(v, bool) else []
    if isinstance(v, str):
        return [float(v)] if v in ("nan", "inf", "-inf", "-0.0") else []
    return [float(v)] if isinstance(v, (int, float)) else []


def _has_special(case):
    """Whether any argument holds a zero, an infinity, a NaN or a part outside
    SPECIAL_MAGNITUDE."""
    lo, hi = SPECIAL_MAGNITUDE
    return any(x == 0 or not math.isfinite(x) or not lo <= abs(x) <= hi
               for v in case["args"].values() for x in _reals(v))


def _complex_result(case):
    return any(o["dtype"].startswith("complex") for o in case["expect"].get("outputs", []))


def _is_complex(t):
    return isinstance(t, dict) and str(t.get("dtype", "")).startswith("complex")


def _all_tensors_small(case):
    return all(numel(t) <= 1 for t in _tensors(case).values())


# ---- The rules: (key, reason, predicate(op, case, siblings)) -----------------------------------

def _complex32(op, case, siblings):
    e = case["expect"]
    return "pytorch_only_dtype" in e or "ComplexHalf" in e.get("error", "")


def _internal_error(op, case, siblings):
    e = case["expect"]
    # logsumexp over dim=[] fails on its own intermediate: "output with shape [] doesn't match
    # the broadcast shape [1, 1]".
    return "pytorch_internal_error" in e or (
        op.target_base == "logsumexp" and case["args"].get("dim") == [] and "error" in e)


# (structured group or op, dtype kind) Backplane declares and computes where PyTorch 1.13 has no
# CPU kernel.
EXTRA_DTYPES = {
    ("arange.start_out", "complex"),  # start + i * step
    ("nan_to_num.out", "complex"),  # each part, as NumPy
    ("pow.Tensor_Scalar_out", "bool"),  # pow(bool, True) is a copy, as PyTorch's exponent 1
    ("aminmax.out", "float16"),  # amin and amax, which 1.13 has for both
    ("aminmax.out", "bfloat16"),
}


def _kind(dtype):
    return "complex" if dtype.startswith("complex") else dtype


def _extra_dtype(op, case, siblings):
    missing = messages.missing_kernel_dtype(case["expect"].get("error", ""))
    group = op.delegate or next(iter(g for g, _ in EXTRA_DTYPES if g.startswith(op.target_base + ".")),
                                op.name)
    return bool(missing and missing == case["dtype"] and (group, _kind(missing)) in EXTRA_DTYPES)


def _empty_product(op, case):
    """A matrix product with an empty operand: 1.13 returns (zeros, or beta * self) before its
    dtype dispatch."""
    return op.target_base in PRODUCTS and any(numel(t) == 0 for t in _tensors(case).values())


def _dtype_checked_first(op, case, siblings):
    """A small case (or an empty product) succeeds where every larger case of the op and dtype
    (and dtype= argument) has no kernel."""
    no_kernel = "not implemented for '%s'" % case["dtype"]
    small = _all_tensors_small(case) or _empty_product(op, case)
    larger = [s for s in siblings if not _all_tensors_small(s) and not _empty_product(op, s) and
              s["args"].get("dtype") == case["args"].get("dtype")]
    return "outputs" in case["expect"] and small and any(
        no_kernel in s["expect"].get("error", "") for s in larger) and not any(
        "outputs" in s["expect"] for s in larger)


def _c99_cexp(op, case, siblings):
    return op.target_base in ("exp", "sigmoid") and _complex_result(case) and any(
        not math.isfinite(x) for v in case["args"].values() for x in _reals(v))


def _smith_division(op, case, siblings):
    # sinc divides sin(pi z) by pi z; sgn divides by |z|; rsqrt is 1 / sqrt(z).
    return op.target_base in ("div", "true_divide", "reciprocal", "rsqrt", "sgn", "sinc", "addcdiv") and \
        _complex_result(case) and \
        _has_special(case)


def _fma(op, case, siblings):
    lo, hi = SPECIAL_MAGNITUDE
    big = any(math.isfinite(x) and abs(x) > hi for v in case["args"].values() for x in _reals(v))
    if op.target_base in ("mul", "square"):
        return _complex_result(case) and big
    if op.target_base in ("prod", "cumprod"):
        # A complex product truncated into an integral out: a contracted multiply moves the
        # product across a half (prod into int64: -6583765 or -6583766 by the build).
        out = case["args"].get("out")
        return _is_complex(case["args"].get("self")) and isinstance(out, dict) and \
            not str(out.get("dtype", "")).startswith(("float", "bfloat", "complex"))
    return op.target_base == "addcmul" and (big or any(
        not math.isfinite(x) for v in case["args"].values() for x in _reals(v)))


def _complex_pow(op, case, siblings):
    return op.target_base in ("pow", "float_power") and _complex_result(case) and \
        _has_special(case)


def _complex_sub_zero(op, case, siblings):
    return op.target_base in ("sub", "rsub") and _complex_result(case) and any(
        x == 0 for v in case["args"].values() for x in _reals(v))


def _lerp_weight(op, case, siblings):
    w = case["args"].get("weight")
    if op.target_base != "lerp" or w is None:
        return False
    if isinstance(w, dict):  # lerp.Tensor: any weight element
        return "sizes" in w and "outputs" in case["expect"] and any(x <= -0.5 for x in _reals(w))
    return bool(_reals(w)) and _reals(w)[0] <= -0.5


def _one_bound_nan_float16(op, case, siblings):
    """clamp_min / clamp_max of float16 with a NaN number as the bound: 1.13 fills the result
    with NaN without its kernel, which has no float16."""
    if op.target_base not in ("clamp_min", "clamp_max") or case["dtype"] != "float16":
        return False
    bound = case["args"].get("min", case["args"].get("max"))
    return not isinstance(bound, dict) and any(x != x for x in _reals(bound))


def _logsumexp_complex(op, case, siblings):
    return op.target_base == "logsumexp" and (_is_complex(case["args"].get("self")) or
                                       _is_complex(case["args"].get("out")))


def _complex_to_bool(op, case, siblings):
    a = case["args"]
    if op.target_base == "copy":
        return _is_complex(a.get("src")) and a["self"]["dtype"] == "bool"
    if op.target_base in ("to", "_to_copy"):
        target = a.get("dtype") or (a.get("other") or {}).get("dtype")
        return _is_complex(a.get("self")) and target == "bool"
    if op.target_base == "masked_fill":  # a complex 0-dim value read as self's dtype
        return (a.get("self") or {}).get("dtype") == "bool" and _is_complex(a.get("value"))
    return False


def _norm_is_vector_norm(op, case, siblings):
    if op.target_base != "norm":
        return False
    a = case["args"]
    self_dtype = a["self"]["dtype"]
    floating = self_dtype.startswith(("float", "bfloat", "complex"))
    dtype = a.get("dtype")
    if not floating and dtype is not None:
        return True  # integral input: refused even with dtype=
    if dtype is not None:
        if dtype.startswith("complex"):
            return True  # 1.13 returns a complex norm; the norm of any input is real
        if self_dtype.startswith("complex"):
            return True
        bits = {"float16": 16, "bfloat16": 16, "float32": 32, "float64": 64, "complex64": 32,
                "complex128": 64}
        if bits.get(dtype, 0) < bits.get(self_dtype, 0):
            return True  # narrowing dtype=
    natural = dtype or {"complex64": "float32", "complex128": "float64"}.get(self_dtype,
                                                                              self_dtype)
    if a.get("out") is not None and a["out"]["dtype"] != natural:
        return True  # an out= of another dtype than the result's
    p = _reals(a.get("p"))
    return bool(p and math.isinf(p[0]) and numel(a["self"]) == 0)


def _json_value(v):
    """A case argument as PyTorch takes it: a tensor, or the Python number of a wrapped number or
    a Scalar."""
    if isinstance(v, dict) and "sizes" in v:
        t = torch_call.decode_tensor(v)
        return t.item() if v.get("wrapped_number") else t
    if isinstance(v, dict) and "real" in v:
        return complex(float(v["real"]), float(v["imag"]))
    return float(v) if isinstance(v, str) else v


# PyTorch 1.13's autogenerated out= ops (native_functions.yaml's `autogen`): they compute the
# functional result, then copy it into `out` with any cast.
AUTOGEN_OUTS = {"rsub.Tensor_out", "rsub.Scalar_out", "remainder.Scalar_Tensor_out"}


def _autogen_out_cast(op, case, siblings):
    """An autogenerated out= op into an out its result type cannot be cast to (float into int64,
    int64 into bool): 1.13 writes the values cast, or reports what computing raised; Backplane
    checks the cast first, as every out= op."""
    if op.name not in AUTOGEN_OUTS or "out" not in case["args"]:
        return False
    result = torch.result_type(_json_value(case["args"]["self"]),
                               _json_value(case["args"]["other"]))
    return not torch.can_cast(result, encode.DTYPES[case["args"]["out"]["dtype"]])


def _nextafter_bfloat16(op, case, siblings):
    outs = case["expect"].get("outputs", [])
    return op.target_base == "nextafter" and (
        case["dtype"] == "bfloat16" or any(o["dtype"] == "bfloat16" for o in outs))


def _fmax_reduced_zero(op, case, siblings):
    """fmax / fmin computing in float16 or bfloat16 (its inputs', whatever the out's dtype) on
    zeros."""
    reduced = ("float16", "bfloat16")
    inputs = [t for k, t in _tensors(case).items() if k != "out"]
    outs = case["expect"].get("outputs", [])
    return op.target_base in ("fmax", "fmin") and (
        all(t["dtype"] in reduced for t in inputs) or
        any(o["dtype"] in reduced for o in outs)) and any(
        x == 0 for v in _tensors(case).values() for x in _reals(v))


def _var_out_dtype(op, case, siblings):
    out = case["args"].get("out")
    return op.target_base in ("var", "std") and out is not None and (
        not out["dtype"].startswith(("float", "bfloat", "complex")) or
        (_is_complex(out) and not _is_complex(case["args"]["self"])))


# Ops whose 1.13 CPU kernel computes bfloat16 inputs in bfloat16 arithmetic (each operation
# rounded to 8 bits: sinc(100) = sin(314.0) / 314.0 = 3.1e-4); Backplane computes them in float32
# and rounds once, as 1.13 itself does for i0, lgamma, erfinv and the other special functions.
BFLOAT16_ARITHMETIC = {"sinc", "special_ndtr"}


def _bfloat16_arithmetic(op, case, siblings):
    return op.target_base in BFLOAT16_ARITHMETIC and case["dtype"] == "bfloat16" and \
        "outputs" in case["expect"]


def _nan_to_num_overlap(op, case, siblings):
    s = case["args"].get("self", {})
    return op.name == "nan_to_num_" and 0 in s.get("strides", [1]) and \
        not s["dtype"].startswith(("float", "bfloat", "complex"))


def _hardtanh_fractional_bound(op, case, siblings):
    bounds = [case["args"].get(k) for k in ("min_val", "max_val")]
    return op.target_base == "hardtanh" and case["dtype"] == "uint8" and any(
        isinstance(b, float) and -1 < b < 0 for b in bounds)


def _gelu_bfloat16(op, case, siblings):
    return op.target_base == "gelu" and case["dtype"] == "bfloat16" and "outputs" in case["expect"]


PRODUCTS = ("mm", "bmm", "addmm", "baddbmm", "matmul", "linear")


def _bfloat16_products(op, case, siblings):
    return op.target_base in PRODUCTS and case["dtype"] == "bfloat16" and \
        "outputs" in case["expect"]


def _empty_contraction_beta(op, case, siblings):
    """addmm of integers over an empty contraction with a fractional beta: 1.13's empty path
    scales self with mul_, which refuses a float Scalar into an integral tensor."""
    return op.target_base in ("addmm", "baddbmm") and \
        "can't be cast to the desired output type" in case["expect"].get("error", "")


def _baddbmm_beta_zero(op, case, siblings):
    """baddbmm (any variant) with beta = 0: 1.13's CPU kernel reads its output before writing
    it (uninitialised memory for the functional op, self's NaN in place), so its values vary
    from run to run."""
    return op.target_base == "baddbmm" and case["args"].get("beta") == 0 and \
        "outputs" in case["expect"]


def _bfloat16_layer_norm(op, case, siblings):
    return op.target_base in ("layer_norm", "native_layer_norm") and \
        case["dtype"] == "bfloat16" and "outputs" in case["expect"]


def _scatter_src_rank(op, case, siblings):
    """scatter / scatter_add with a src of another rank than index's: 1.13 reads src's sizes
    past its rank before it compares the ranks ("Dimension out of range")."""
    t = _tensors(case)
    return op.target_base in ("scatter", "scatter_add") and "src" in t and "index" in t and \
        max(len(t["src"]["sizes"]), 1) != max(len(t["index"]["sizes"]), 1) and \
        "Dimension out of range" in case["expect"].get("error", "")


def _complex_dot(op, case, siblings):
    """matmul of two complex vectors: 1.13 gets 0 from BLAS's cdotu / zdotu (their Fortran
    return convention) with Debian's BLAS."""
    t = _tensors(case)
    return op.target_base == "matmul" and "outputs" in case["expect"] and \
        _is_complex(t.get("self")) and len(t["self"]["sizes"]) == 1 and \
        len(t.get("other", {}).get("sizes", [0, 0])) == 1


def _round_decimals_bfloat16(op, case, siblings):
    return op.target_base == "round" and "decimals" in case["args"] and \
        case["dtype"] == "bfloat16" and "outputs" in case["expect"]


def _c99_complex_inverse(op, case, siblings):
    return op.target_base in ("asin", "acos", "atan", "asinh", "acosh", "atanh") and \
        _complex_result(case) and _has_special(case)


def _angle_complex_layout(op, case, siblings):
    return op.name == "angle" and _is_complex(case["args"].get("self")) and \
        "outputs" in case["expect"]


def _conj_physical_real_copy(op, case, siblings):
    return op.name in ("conj_physical", "conj_physical_") and \
        not _is_complex(case["args"].get("self")) and "outputs" in case["expect"]


def _log1p_huge(op, case, siblings):
    return op.target_base == "log1p" and "outputs" in case["expect"] and any(
        math.isfinite(x) and x > 1e37 for v in case["args"].values() for x in _reals(v))


def _floats(tensor_json):
    """A tensor's elements in logical order, as Python floats (real parts of complex ones)."""
    t = torch_call.decode_tensor(tensor_json)
    return (t.real if t.dtype.is_complex else t).double().flatten().tolist()


def _polygamma_limits(op, case, siblings):
    """polygamma(1, x) where 1.13 gives a negative integer x (a pole) a finite value, pi^2 /
    sin^2 of the rounded product pi x, or nan (huge x); polygamma(n >= 2, +-inf), where 1.13
    gives nan at +inf (zeta's 0 * inf) and +-inf at -inf."""
    if op.target_base != "polygamma" or "outputs" not in case["expect"]:
        return False
    n = case["args"].get("n")
    xs = _floats(case["args"]["self"])
    if n == 1:
        got = _floats(case["expect"]["outputs"][0])
        return any(math.isfinite(x) and x < 0 and x == math.floor(x) and y != math.inf
                   for x, y in zip(xs, got))
    return isinstance(n, int) and n >= 2 and any(math.isinf(x) for x in xs)


# The functional form of each op whose float results Backplane computes in double, called on
# PyTorch's tensors.
IN_DOUBLE = {
    "polygamma": lambda a: torch.polygamma(a["n"], a["self"]),
    "mvlgamma": lambda a: torch.mvlgamma(a["self"], a["p"]),
    "special_zeta": lambda a: torch.special.zeta(a["self"], a["other"]),
    "igamma": lambda a: torch.igamma(a["self"], a["other"]),
    "igammac": lambda a: torch.igammac(a["self"], a["other"]),
}


def _operand(v):
    """A case's tensor or number argument as a tensor (a number: a 0-dim float64 one)."""
    if isinstance(v, dict) and "sizes" in v:
        return torch_call.decode_tensor(v)
    return torch.tensor(_reals(v)[0] if _reals(v) else float("nan"), dtype=torch.float64)


def _close(actual, expected, tolerance):
    """Whether `actual` passes for `expected` as a case compares them (conformance/
    tolerances.json: NaN matches NaN, infinities match exactly, zeros match in sign)."""
    if math.isnan(actual) or math.isnan(expected):
        return math.isnan(actual) and math.isnan(expected)
    if math.isinf(actual) or math.isinf(expected) or (actual == 0 and expected == 0):
        return actual == expected and math.copysign(1, actual) == math.copysign(1, expected)
    return abs(actual - expected) <= tolerance["atol"] + tolerance["rtol"] * abs(expected)


def _computed_in_double(op, case, siblings):
    """polygamma (n >= 1), mvlgamma, special_zeta, igamma and igammac computed in a dtype below
    float64 (float32 for integer inputs), where 1.13's values are off its own float64 values on
    the same inputs, rounded to that dtype, by more than the case's tolerance: 1.13 rounds pi x
    (trigamma's reflection) and x - j / 2 (mvlgamma) to the input's dtype next to the poles,
    which magnify it, rounds each step of bfloat16 mvlgamma, and sums zeta's and the incomplete
    gamma functions' series in float. Backplane computes in double and rounds once."""
    if op.target_base not in IN_DOUBLE or "outputs" not in case["expect"]:
        return False
    if op.target_base == "polygamma" and case["args"].get("n") == 0:
        return False  # digamma
    args = dict(case["args"])
    names = [n for n in ("self", "other") if n in args]
    operands = [_operand(args[n]) for n in names]
    computed_in = torch.result_type(*operands) if len(operands) == 2 else operands[0].dtype
    if not computed_in.is_floating_point:
        computed_in = torch.get_default_dtype()
    if computed_in == torch.float64:
        return False
    for n, t in zip(names, operands):
        args[n] = t.double()
    wide = IN_DOUBLE[op.target_base](args).to(computed_in).double().flatten().tolist()
    out = case["expect"]["outputs"][0]
    got = _floats(out)
    tolerance = out.get("tolerance") or expect.tolerance(op, out["dtype"])
    return any(not _close(w, e, tolerance) for e, w in zip(got, wide))


def _zeta_limits(op, case, siblings):
    """special_zeta with s = +inf or q = +-inf somewhere (1.13: nan at q = +inf and s = +inf,
    inf at q = -inf; Backplane: the limits 0 at q = +inf, 0 / 1 / inf at s = +inf, nan at
    q = -inf, which has none), or 1.13's nan for a huge finite s (its tail's 0 * inf; Backplane:
    the sum of the terms, 0 for q > 1)."""
    if op.target_base != "special_zeta" or "outputs" not in case["expect"]:
        return False
    a = case["args"]
    if "self" not in a or "other" not in a:
        return False
    s, q = _operand(a["self"]), _operand(a["other"])
    if s.dtype == torch.bool or q.dtype == torch.bool:
        s, q = s.double(), q.double()
    s, q = torch.broadcast_tensors(s.double(), q.double())
    if bool(((s == math.inf) | torch.isinf(q)).any()):
        return True
    # s nan at a pole q = 0, -1, ...: 1.13 checks the pole first (inf); Backplane: nan in, nan out.
    if bool((torch.isnan(s) & (q <= 0) & (q == torch.floor(q))).any()):
        return True
    # s so large that every term underflows: 1.13's Euler-Maclaurin tail gives 0 * inf = nan.
    got = torch.tensor(_floats(case["expect"]["outputs"][0]), dtype=torch.float64)
    if got.numel() != s.numel():
        return False
    huge = (s.flatten() > 1e4) & (q.flatten() > 0) & torch.isnan(got)
    return bool(huge.any())

def _igamma_denormal_a(op, case, siblings):
    """igamma with a float64 denormal a: 1.13's series factor x^a e^-x / gamma(a) loses
    gamma(a) (lgamma of a denormal) and gives P(a, x) = 0; the value is 1 - O(a |log x|)."""
    if op.target_base != "igamma" or "outputs" not in case["expect"] or "self" not in case["args"]:
        return False
    a = _operand(case["args"]["self"]).double()
    return bool(((a > 0) & (a < 2.2250738585072014e-308)).any())

def _permuted(t):
    """Whether a tensor's layout is a permutation of the contiguous one (strides not
    decreasing over its dims of more than one element, zero strides aside)."""
    if not isinstance(t, dict) or "strides" not in t:
        return False
    strides = [st for size, st in zip(t["sizes"], t["strides"]) if size > 1 and st != 0]
    return any(a < b for a, b in zip(strides, strides[1:]))


def _mvlgamma_layout(op, case, siblings):
    """A functional mvlgamma of a permuted tensor whose case checks the output's strides."""
    return op.target_base == "mvlgamma" and op.kind == "functional" and \
        "outputs" in case["expect"] and "strides" in case["expect"]["outputs"][0] and \
        _permuted(case["args"].get("self"))


def _masked_fill_layout(op, case, siblings):
    """A functional masked_fill of a permuted self whose case checks the output's strides."""
    return op.target_base == "masked_fill" and op.kind == "functional" and \
        "outputs" in case["expect"] and "strides" in case["expect"]["outputs"][0] and \
        _permuted(case["args"].get("self"))


def _complex_compare_parts(op, case, siblings):
    """eq and ne into a complex output from an operand of another dtype: PyTorch converts it
    into a contiguous copy, so its vectorised loop runs (spreading the inputs out cannot pick the
    scalar loop, as it does for the other cases)."""
    outs = case["expect"].get("outputs", [])
    if op.target_base not in ("eq", "ne") or not outs or not outs[0]["dtype"].startswith("complex"):
        return False
    return any(t["dtype"] != outs[0]["dtype"] for k, t in _tensors(case).items() if k != "out")


def _masked_fill_bool_mask(op, case, siblings):
    mask = case["args"].get("mask", {})
    return op.target_base == "masked_fill" and mask.get("dtype") != "bool" and \
        "outputs" in case["expect"]


def _can_cast(src, dst):
    """PyTorch's canCast: no complex to real, no floating to integral, nothing but bool to bool."""
    def kind(d):
        return ("complex" if d.startswith("complex") else "float" if d.startswith(("float", "bfloat"))
                else "bool" if d == "bool" else "int")
    order = ["bool", "int", "float", "complex"]
    return order.index(kind(src)) <= order.index(kind(dst))


def _masked_fill_out_cast(op, case, siblings):
    out = case["args"].get("out", {})
    self = case["args"].get("self", {})
    return op.target_base == "masked_fill" and op.kind == "out" and "outputs" in case["expect"] \
        and isinstance(out, dict) and "dtype" in out and \
        not _can_cast(self.get("dtype", out["dtype"]), out["dtype"])


def _linspace_vectorised_integers(op, case, siblings):
    """linspace into an integral dtype whose 1.13 CPU kernel ran its vectorised loop (at least two
    32-byte vectors of elements): each vector starts from a truncated element."""
    dtype = case["dtype"]
    if op.target_base != "linspace" or dtype == "bool" or dtype.startswith(
            ("float", "bfloat", "complex")) or "outputs" not in case["expect"]:
        return False
    itemsize = {"uint8": 1, "int8": 1, "int16": 2, "int32": 4, "int64": 8}[dtype]
    return case["args"].get("steps", 0) >= 2 * 32 // itemsize


RULES = [
    ("complex32", "PyTorch 1.13 gives complex32, a dtype Backplane does not have", _complex32),
    ("internal-error", "PyTorch 1.13 fails an internal check: not a contract", _internal_error),
    ("extra-dtype", "a dtype Backplane declares and PyTorch 1.13 has no CPU kernel for",
     _extra_dtype),
    ("dtype-checked-first", "PyTorch 1.13 skips its dtype check for empty and 1-element inputs",
     _dtype_checked_first),
    ("c99-cexp", "complex exp of infinities and NaN: C99's cexp (later PyTorch)", _c99_cexp),
    ("smith-division", "complex division by zeros, infinities, tiny or huge values: Smith's "
     "algorithm (PyTorch 2.0)", _smith_division),
    ("fma", "products that overflow (complex mul, addcmul) or complex products truncated to "
     "integers (prod, cumprod): PyTorch's depend on FMA contraction",
     _fma),
    ("complex-pow", "complex pow (and float_power) of zeros, infinities and NaN: C99 leaves cpow "
     "unspecified",
     _complex_pow),
    ("complex-sub-zero", "complex sub: the sign of a zero imaginary part", _complex_sub_zero),
    ("lerp-weight", "lerp with weight <= -0.5: the formula by |weight| (PyTorch 2.0)",
     _lerp_weight),
    ("one-bound-nan-float16", "clamp_min / clamp_max of float16 with a NaN bound: not "
     "implemented for float16, as with any other bound; 1.13 fills NaN", _one_bound_nan_float16),
    ("logsumexp-complex", "logsumexp of complex input or into a complex out (later PyTorch)",
     _logsumexp_complex),
    ("complex-to-bool", "complex to bool (copies, masked_fill's value) is true when either part "
     "is non-zero (later PyTorch)",
     _complex_to_bool),
    ("norm-is-vector-norm", "norm follows linalg.vector_norm (PyTorch 2.0)",
     _norm_is_vector_norm),
    ("var-out-dtype", "var and std with an out= they cannot be cast to: the structured-op cast check",
     _var_out_dtype),
    ("autogen-out-cast", "rsub's and remainder.Scalar_Tensor's out= into an out their result "
     "cannot be cast to: the cast check of every out=; 1.13 computes, then copies with any cast",
     _autogen_out_cast),
    ("nextafter-bfloat16", "nextafter of bfloat16 is not declared: the kernels compute bfloat16 in "
     "float32, whose next value is not bfloat16's", _nextafter_bfloat16),
    ("fmax-reduced-zero", "fmax and fmin of float16 and bfloat16 zeros of both signs: self, as "
     "for float32 and float64; 1.13 gives other", _fmax_reduced_zero),
    ("bfloat16-arithmetic", "sinc and special_ndtr of bfloat16 computed in float32, rounded "
     "once", _bfloat16_arithmetic),
    ("nan-to-num-overlap", "in-place ops refuse overlapping outputs, nan_to_num_ of integers too",
     _nan_to_num_overlap),
    ("hardtanh-fractional-bound", "hardtanh of uint8 with a bound in (-1, 0): converted to "
     "uint8 directly, not truncated to int64 first", _hardtanh_fractional_bound),
    ("gelu-bfloat16", "gelu of bfloat16 computes in float (later PyTorch); 1.13 rounds each "
     "step to bfloat16", _gelu_bfloat16),
    ("bfloat16-products", "mm, bmm, addmm, baddbmm, matmul and linear of bfloat16 sum in float "
     "and round once (1.13's oneDNN path for large products); 1.13's small products round "
     "every partial sum to bfloat16", _bfloat16_products),
    ("empty-contraction-beta", "addmm and baddbmm of integers over an empty contraction with a "
     "fractional beta: beta converted to the dtype, as for any size; 1.13 scales with mul_, "
     "which refuses a float Scalar", _empty_contraction_beta),
    ("baddbmm-beta-zero", "baddbmm with beta = 0 ignores self and the output's old contents, as "
     "documented; 1.13 reads the output first (uninitialised memory: NaN in about half the runs; "
     "self's NaN in place)", _baddbmm_beta_zero),
    ("bfloat16-layer-norm", "layer_norm and native_layer_norm of bfloat16 compute in float and "
     "round once; 1.13's results are up to 0.03 off its own float32 results", _bfloat16_layer_norm),
    ("scatter-src-rank", "scatter and scatter_add with a src of another rank than index's: "
     "'Index tensor must have the same number of dimensions as src tensor' (later PyTorch); "
     "1.13 reads src's sizes past its rank first", _scatter_src_rank),
    ("complex-dot", "matmul of two complex vectors: the dot product; 1.13 with Debian's BLAS "
     "returns 0 (cdotu's Fortran return convention)", _complex_dot),
    ("round-decimals-bfloat16", "round(decimals=) of bfloat16 scales in float (later PyTorch); "
     "1.13 rounds each step to bfloat16", _round_decimals_bfloat16),
    ("c99-complex-inverse", "complex asin, acos, atan and their hyperbolic forms of infinities, "
     "NaN and huge values: C99 (glibc, NumPy); 1.13's formula gives NaN or overflows",
     _c99_complex_inverse),
    ("angle-complex-layout", "angle of a complex tensor keeps its layout, as abs; 1.13 "
     "returns it contiguous", _angle_complex_layout),
    ("conj-physical-real-copy", "conj_physical of a real tensor is a new tensor, and "
     "conj_physical_ of one runs as any in-place op; 1.13 returns self", _conj_physical_real_copy),
    ("log1p-huge", "log1p of values above 1e37: the finite logarithm; 1.13's SLEEF kernel "
     "overflows to inf", _log1p_huge),
    ("polygamma-limits", "polygamma at its poles (n = 1) and infinities (n >= 2): the limits; "
     "1.13 gives finite values at the poles and nan at +inf", _polygamma_limits),
    ("zeta-limits", "special_zeta at s = +inf, huge s and q = +-inf: the limits (nan at "
     "q = -inf); 1.13 gives nan at +inf and for huge s, and inf at q = -inf; s = nan at a pole: "
     "nan (1.13: inf)", _zeta_limits),
    ("igamma-denormal-a", "igamma of a float64 denormal a: 1 (1.13: 0)", _igamma_denormal_a),
    ("computed-in-double", "polygamma (n >= 1), mvlgamma, special_zeta, igamma and igammac below "
     "float64: computed in double and rounded once; 1.13 rounds arguments next to the poles and "
     "sums series in float", _computed_in_double),
    ("linspace-vectorised-integers", "linspace into integers: element i by the two-sided "
     "formula; 1.13's vectorised loop starts each vector from a truncated element",
     _linspace_vectorised_integers),
    ("mvlgamma-layout", "mvlgamma of a permuted tensor keeps its layout, as every TensorIterator "
     "op; 1.13's composite returns it contiguous", _mvlgamma_layout),
    ("masked-fill-layout", "masked_fill of a permuted self keeps its layout, as every "
     "TensorIterator op; 1.13's composite clones self contiguous", _masked_fill_layout),
    ("complex-compare-parts", "eq and ne into a complex out from converted operands: 1 or 0 "
     "per element; 1.13's vectorised loop compares real and imaginary parts apart",
     _complex_compare_parts),
    ("masked-fill-bool-mask", "masked_fill with a mask that is not bool: refused, as later "
     "PyTorch; 1.13 takes uint8 (deprecated), integer and float masks", _masked_fill_bool_mask),
    ("masked-fill-out-cast", "masked_fill.out into an out the result cannot be cast to: the "
     "structured-op cast check; 1.13's generated out= copies into any dtype",
     _masked_fill_out_cast),
]


def excluded(op, case, siblings):
    """The key of the rule that leaves a case out, or None. `siblings`: the cases of the same op
    and dtype column."""
    for key, _, rule in RULES:
        if rule(op, case, siblings):
            return key
    return None


def reason(key):
    return next(r for k, r, _ in RULES if k == key)
