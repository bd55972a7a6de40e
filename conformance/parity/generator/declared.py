"""Every op Backplane declares, read from sdk/ops/*.yaml with the structured_group shorthand
expanded as the codegen does (docs/op_declarations.md, "What structured_group stands for")."""
import os
import re

import yaml

_FUNC_NAME = re.compile(r"^([A-Za-z0-9_]+)(?:\.([A-Za-z0-9_]+))?\(")


class Arg:
    """One argument of a schema: its type as written ("Tensor(a!)", "int[1]?"), name, whether
    the op writes it, and whether it is keyword-only."""

    def __init__(self, type_, name, kwarg_only):
        self.type = type_
        self.name = name
        self.kwarg_only = kwarg_only

    @property
    def written(self):
        return "!" in self.type

    @property
    def is_tensor(self):
        return self.type.startswith("Tensor")


def parse_args(func):
    """The arguments of a schema string, in order."""
    inside = func[func.index("(") + 1:func.rindex("->")]
    inside = inside[:inside.rindex(")")]
    args, kwarg_only, depth, part = [], False, 0, ""
    for ch in inside + ",":
        if ch == "," and depth == 0:
            part = part.strip()
            if part == "*":
                kwarg_only = True
            elif part:
                decl = part.split("=")[0].strip()
                type_, name = decl.rsplit(" ", 1)
                args.append(Arg(type_, name, kwarg_only))
            part = ""
            continue
        depth += ch in "([" and 1 or 0
        depth -= ch in ")]" and 1 or 0
        part += ch
    return args


class DeclaredOp:
    """One declared op: its full name ("add.Tensor"), family ("binary"), kind and arguments."""

    def __init__(self, name, family, kind, dtypes, args, delegate=None, alias_of=None):
        self.name = name
        # For the ops of an `alias_of` entry: the functional op aliased ("acos" for arccos_).
        self.alias_of = alias_of
        # The structured out= op the op runs through (itself for that op), or None.
        self.delegate = delegate
        self.family = family
        self.kind = kind  # "functional", "inplace" or "out"
        self.dtypes = dtypes  # the declaration's dtypes key of its structured group, or None
        self.args = args

    @property
    def written_args(self):
        return [a.name for a in self.args if a.written]

    @property
    def base(self):
        """The op's name without overload and without a trailing underscore: "add"."""
        return self.name.split(".")[0].rstrip("_")

    @property
    def target_base(self):
        """base, or for an alias's ops the base of the op aliased ("acos" for arccos_): the
        differences follow the math, whichever name calls it."""
        return self.alias_of.split(".")[0] if self.alias_of else self.base

    @property
    def overload(self):
        return self.name.split(".")[1] if "." in self.name else ""

    def __repr__(self):
        return "DeclaredOp(%s, %s, %s)" % (self.name, self.family, self.kind)


_DTYPE_GROUPS = {
    "integral": ["uint8", "int8", "int16", "int32", "int64"],
    "reduced_floating": ["float16", "bfloat16"],
    "floating": ["float16", "bfloat16", "float32", "float64"],
    "complex": ["complex64", "complex128"],
}
_DTYPE_GROUPS["all"] = ["bool"] + sum((_DTYPE_GROUPS[g] for g in ("integral", "floating",
                                                                  "complex")), [])


def dtype_set(text):
    """The dtypes of a declaration's `dtypes:` key (codegen/model.cc, parse_dtype_set)."""
    out = set()
    for word in str(text).split(","):
        word = word.strip()
        out.update(_DTYPE_GROUPS.get(word, [word]))
    return out


def _kind_of(func):
    head = func.split("->")[0]
    # Written outputs, a tensor each or a list of them (`Tensor(a!)[] out`).
    if "Tensor(a!) out" in head or "Tensor(a!)[] out" in head or re.search(
            r"Tensor\([a-z]!\) (out|values|indices|max|min)\b", head):
        return "out"
    if "Tensor(a!) self" in head:
        return "inplace"
    return "functional"


def _split_name(func):
    m = _FUNC_NAME.match(func)
    if not m:
        raise ValueError("cannot read the op name of " + func)
    return m.group(1), m.group(2) or ""


def _join(name, overload):
    return name + ("." + overload if overload else "")


def ops_of_family(path, family):
    with open(path) as f:
        entries = yaml.safe_load(f) or []
    ops = []
    for e in entries:
        func = e["func"]
        name, overload = _split_name(func)
        alias_of = e.get("alias_of")
        # An alias's entry, and a Scalar overload's that says its in-place variants, stand for
        # a group as a structured_group entry does.
        group = e.get("structured_group") or (alias_of and True) or (
            ("scalar_of" in e and "inplace" in e) or None)
        dtypes = e.get("dtypes")
        args = parse_args(func)
        if group is None:
            full = _join(name, overload)
            delegate = e.get("structured_delegate") or (full if e.get("structured") else None)
            ops.append(DeclaredOp(full, family, _kind_of(func), dtypes, args, delegate))
            continue
        out = group if isinstance(group, str) else (
            name + ".out" if not overload else name + "." + overload + "_out")
        # An alias's (or Scalar overload's) ops are named and grouped as a structured group's
        # (the out= op's name stands for the group); they run their target's kernels.
        ops.append(DeclaredOp(_join(name, overload), family, "functional", dtypes, args, out,
                              alias_of))
        if e.get("inplace", False) is not False:
            self_written = [Arg("Tensor(a!)", a.name, a.kwarg_only) if a.name == "self" else a
                            for a in args]
            ops.append(DeclaredOp(e.get("inplace_name", _join(name + "_", overload)), family,
                                  "inplace", dtypes, self_written, out, alias_of))
        ops.append(DeclaredOp(out, family, "out", dtypes, args + [Arg("Tensor(a!)", "out", True)],
                              out, alias_of))
    return ops


def families(repo_root):
    """The family names, in sdk/ops/families.bzl's order."""
    text = open(os.path.join(repo_root, "sdk/ops/families.bzl")).read()
    block = text[text.index("OP_FAMILIES = ["):]
    block = block[:block.index("]")]
    return re.findall(r'"([a-z_]+)"', block)


def declared_ops(repo_root):
    ops = []
    for family in families(repo_root):
        ops += ops_of_family(os.path.join(repo_root, "sdk/ops", family + ".yaml"), family)
    # An op runs in the dtypes of its structured group's out= op, else of the op of its name
    # that declares them (arange's overloads all run arange.start_out).
    by_name = {o.name: o for o in ops}
    for o in ops:  # an alias's: its target's (resolved first: the target may delegate)
        target = by_name.get(o.alias_of)
        if o.alias_of and target is not None:
            o.dtypes = target.dtypes or by_name.get(target.delegate, target).dtypes
    for o in ops:
        if o.dtypes is None and o.delegate in by_name:
            o.dtypes = by_name[o.delegate].dtypes
    for o in ops:
        if o.dtypes is None:
            o.dtypes = next((p.dtypes for p in ops if p.base == o.base and p.dtypes), None)
        o.dtype_set = dtype_set(o.dtypes) if o.dtypes is not None else None
    return ops
