"""Intentional differences from PyTorch 1.13 (docs/pytorch_parity.md): cases the generator
leaves out, each with the reason the table gives."""
from . import messages


def excluded(op, case, siblings):
    """The reason a case is left out, or None. `siblings`: the cases of the same op and dtype."""
    expect = case["expect"]
    if "pytorch_only_dtype" in expect or "ComplexHalf" in expect.get("error", ""):
        return "complex32: PyTorch 1.13 promotes float16 with complex to a dtype Backplane lacks"
    if "pytorch_internal_error" in expect:
        return "PyTorch 1.13 fails an internal check (not a contract)"
    missing = messages.missing_kernel_dtype(expect.get("error", ""))
    if missing and missing == case["dtype"] and op.dtype_set and missing in op.dtype_set:
        return ("PyTorch 1.13 has no CPU kernel for the dtype; Backplane declares it (later "
                "releases add most of these)")
    no_kernel = "not implemented for '%s'" % case["dtype"]
    if "outputs" in expect and all(numel(a) <= 1 for a in case["args"].values()
                                   if isinstance(a, dict) and "sizes" in a) and any(
            no_kernel in s["expect"].get("error", "") for s in siblings):
        return ("PyTorch 1.13 skips its dtype check for empty and one-element inputs; Backplane "
                "checks the dtype first")
    return None


def numel(tensor_json):
    n = 1
    for s in tensor_json["sizes"]:
        n *= s
    return n
