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
                    r"(?<=found )|"
                    r"(?<=and )|(?<=Got )|(?<=\())"
                    r"(%s)\b" % "|".join(sorted(ATEN_DTYPE_NAMES, key=len, reverse=True)))
_CPP_DTYPE = re.compile(r"(?:(?<=type )|(?<=but got ))(%s)(?=[ ,]|$)" % "|".join(
    re.escape(n) for n in sorted(CPP_DTYPE_NAMES, key=len, reverse=True)))
# ATen's name of a tensor's type in messages ("CPUFloatType"), as Python shows it.
_TENSOR_TYPE = re.compile(r"\bCPU([A-Za-z0-9]+)Type\b")
_NO_KERNEL = re.compile(r"^\"[A-Za-z0-9_]+\" (not implemented for '[A-Za-z0-9]+')")
# PyTorch messages that are not a contract.
NOT_A_CONTRACT = [
    "INTERNAL ASSERT FAILED",
    "expected scalar_type",  # a dispatch-macro check, with ATen's type names
]


# Errors both raise for the same condition where Backplane words the message its own way
# (docs/pytorch_parity.md, "Error messages"): op base name, PyTorch's message (regex, after the
# dtype names are normalized), the substring Backplane's message contains.
REWORDED = [
    ("arange", r"upper bound and larger bound inconsistent with step sign",
     "upper bound and lower bound inconsistent with step sign"),
    ("resize", r"^numel: integer multiplication overflow$",
     "Trying to create tensor with negative dimension"),
    # mvlgamma.out names self's dtype as the result type and the result's as the out's.
    ("mvlgamma", r"^mvlgamma: result type \w+ can't be cast to the desired output type \w+$",
     "can't be cast to the desired output type"),
    # mvlgamma_ of an integer tensor: its arange of j / 2 in the integer dtype has step 0.
    ("mvlgamma", r"^step must be nonzero$", "can't be cast to the desired output type"),
    # matmul.out of two vectors (dot.out's words): out's dtype, as every other matmul.out.
    ("matmul", r"^result dtype \w+ does not match input dtype \w+$",
     "Expected out tensor to have dtype"),
]


def reworded(op_base, message):
    """The message Backplane's error must contain where it words PyTorch's differently."""
    for base, pattern, ours in REWORDED:
        m = re.search(pattern, message)
        if base == op_base and m:
            return m.expand(ours)
    return message


def is_contract(message):
    return not any(s in message for s in NOT_A_CONTRACT)


def normalize(message):
    """The expected error substring for PyTorch's message."""
    if "to have one of the following scalar types" in message:
        return message  # checkScalarTypes' list of ATen names, which Backplane's message keeps
    message = _NO_KERNEL.sub(r"\1", message)
    message = _TENSOR_TYPE.sub(r"torch.\1Tensor", message)
    if "cannot be converted to type" not in message:  # a C++ type, as Backplane's says too
        message = _CPP_DTYPE.sub(lambda m: CPP_DTYPE_NAMES[m.group(1)], message)
    return _DTYPE.sub(lambda m: ATEN_DTYPE_NAMES[m.group(1)], message)


def missing_kernel_dtype(message):
    """The dtype of a "not implemented for 'X'" message (normalized), or None."""
    m = re.search(r"not implemented for '([a-z0-9]+)'", message)
    return m.group(1) if m else None
