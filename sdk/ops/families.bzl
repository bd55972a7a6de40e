"""The op declaration files, one per family: sdk/ops/<family>.yaml.

The codegen writes a fixed set of files per family (see codegen/emit.h), so Bazel needs the list
ahead. A new family is a new YAML file and a new entry here.
"""

OP_FAMILIES = [
    "factories",
    "views",
    "copies",
    "unary",
    "binary",
    "reductions",
    "ternary",
]

def sdk_generated_sources():
    """The .cc files the codegen writes for sdk/ops."""
    per_family = []
    for f in OP_FAMILIES:
        per_family += [f + ".cc", f + "_structured.cc", f + "_register.cc"]
    return per_family + ["tensor_methods.cc", "op_defs.cc", "op_table.cc"]

def sdk_generated_headers():
    """The headers the codegen writes for sdk/ops (tensor_methods.inc is separate)."""
    per_family = []
    for f in OP_FAMILIES:
        per_family += [f + ".h", f + "_structured.h"]
    return per_family + ["ops.h", "native_kernels.h"]

def cpu_generated_sources():
    """The .cc files the codegen writes for reference_backend/cpu."""
    return [f + "_cpu.cc" for f in OP_FAMILIES]
