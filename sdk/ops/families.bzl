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
    "scans",
    "activations",
    "special",
    "promotion",
    "linalg",
    "indexing",
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

# How many files the CPU kernels of a family are split into (1 when not listed), so that the
# compiles of a large family run side by side and adding an op recompiles a part of it. A shard
# past about 60 s of compile is a sign to raise its family's count (docs/building.md).
CPU_SHARDS = {
    "unary": 4,
    "binary": 2,
}

def cpu_shards_flag():
    """The codegen flag that gives it CPU_SHARDS."""
    return "--cpu_shards=" + ",".join(["%s:%d" % (f, n) for f, n in CPU_SHARDS.items()])

def cpu_generated_sources():
    """The .cc files the codegen writes for reference_backend/cpu."""
    files = []
    for f in OP_FAMILIES:
        n = CPU_SHARDS.get(f, 1)
        if n == 1:
            files.append(f + "_cpu.cc")
        else:
            files += ["%s_cpu_%d.cc" % (f, k) for k in range(n)]
    return files
