"""Compiles each public header alone, as C99 and as C++, with warnings as errors.

For every header in `hdrs` the macro writes a source file holding only `#include "backplane/<h>"`
and builds it as C (-std=c99) and C++ (the project's -std=c++20), each with -Wall -Wextra
-pedantic -Werror. The libraries are deps of `name`, a test that also compares the struct
layouts the C and C++ compilers see (layout_test_main.c).
"""

load("@rules_cc//cc:defs.bzl", "cc_library", "cc_test")

_STRICT = ["-Wall", "-Wextra", "-pedantic", "-Werror"]

def header_compile_tests(name, hdrs, cxx_only_hdrs, deps):
    libs = []
    for hdr in hdrs + cxx_only_hdrs:
        base = hdr.split("/")[-1].replace(".", "_")
        langs = [("cc", [])] if hdr in cxx_only_hdrs else [("c", ["-std=c99"]), ("cc", [])]
        for ext, std in langs:
            src = "alone/%s.%s" % (base, ext)
            native.genrule(
                name = "%s_%s_src" % (base, ext),
                outs = [src],
                cmd = "echo '#include \"backplane/%s\"' > $@" % hdr.split("/")[-1],
            )
            cc_library(
                name = "%s_alone_%s" % (base, ext),
                srcs = [src],
                copts = std + _STRICT,
                deps = deps,
            )
            libs.append(":%s_alone_%s" % (base, ext))
    cc_library(
        name = name + "_layout_c",
        srcs = ["layout_test_c.c", "layout_fingerprint.inc"],
        copts = ["-std=c99"] + _STRICT,
        deps = deps,
    )
    cc_library(
        name = name + "_layout_cc",
        srcs = ["layout_test_cc.cc", "layout_fingerprint.inc"],
        copts = _STRICT,
        deps = deps,
    )
    cc_test(
        name = name,
        srcs = ["layout_test_main.c"],
        copts = ["-std=c99"] + _STRICT,
        deps = libs + [name + "_layout_c", name + "_layout_cc"] + deps,
    )
