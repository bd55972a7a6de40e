"""PyTorch's error messages as a Backplane case expects them.

PyTorch names dtypes three ways in its messages: ATen's ("Float"), C++'s ("long int",
"c10::BFloat16") and Python's; Backplane names them one way ("float32"), so the expected
message is PyTorch's with Backplane's dtype names. A missing kernel loses PyTorch's kernel name.
Messages that are not a contract (an internal assertion, a dispatch macro's type check) are
not PyTorch's behaviour but its bugs: the generator leaves those cases out (differences.py).
"""
import re

ATEN_DTYPE_NAMES = {
    "Bool": "bool", "Byte": "uint8", "Char": "int8", "Short": "int16", "Int": "int32",
    "Long": "int64", "Half": "float16", "BFloat16": "bfloat16", "Float": "float32",
    "Double": "float64", "ComplexFloat": "complex64", "ComplexDouble": "complex128",
}
CPP_DTYPE_NAMES = {
    "c10::complex<float>": "complex64", "c10::complex<double>": "complex128",
    "c10::BFloat16": "bfloat16", "c10::Half": "float16", "unsigned char": "uint8",
    "signed char": "int8", "short int": "int16", "long int": "int64", "int": "int32",
    "float": "float32", "double": "float64", "bool": "bool",
}
_DTYPE = re.compile(r"(?:(?<=type )|(?<=expected )|(?<=dtype )|(?<=for ')|(?<=but got )|(?<=: )|"
                    r"(?<=and ))"
                    r"(%s)\b" % "|".join(sorted(ATEN_DTYPE_NAMES, key=len, reverse=True)))
_CPP_DTYPE = re.compile(r"(?:(?<=dtype )|(?<=but got ))(%s)(?=[ ,]|$)" % "|".join(
    re.escape(n) for n in sorted(CPP_DTYPE_NAMES, key=len, reverse=True)))
# ATen's name of a tensor's type in messages ("CPUFloatType"), as Python shows it.
_TENSOR_TYPE = re.compile(r"\bCPU([A-Za-z0-9]+)Type\b")
_NO_KERNEL = re.compile(r"^\"[A-Za-z0-9_]+\" (not implemented for '[A-Za-z0-9]+')")
# PyTorch messages that are not a contract.
NOT_A_CONTRACT = [
    "INTERNAL ASSERT FAILED",
    "expected scalar_type",  # a dispatch-macro check, with ATen's type names
]


def is_contract(message):
    return not any(s in message for s in NOT_A_CONTRACT)


def normalize(message):
    """The expected error substring for PyTorch's message."""
    message = _NO_KERNEL.sub(r"\1", message)
    message = _TENSOR_TYPE.sub(r"torch.\1Tensor", message)
    message = _CPP_DTYPE.sub(lambda m: CPP_DTYPE_NAMES[m.group(1)], message)
    return _DTYPE.sub(lambda m: ATEN_DTYPE_NAMES[m.group(1)], message)


def missing_kernel_dtype(message):
    """The dtype of a "not implemented for 'X'" message (normalized), or None."""
    m = re.search(r"not implemented for '([a-z0-9]+)'", message)
    return m.group(1) if m else None
