"""The C test plugin built as several shared libraries (see c_test_plugin.c for the variants)."""

load("@rules_cc//cc:defs.bzl", "cc_binary")

def c_test_plugins(variants, copts):
    for name, defines in variants.items():
        cc_binary(
            name = "testing/" + name,
            testonly = True,
            srcs = ["testing/c_test_plugin.c"],
            copts = copts + defines,
            linkshared = True,
            deps = [
                ":testing/host_memory_device",
                "//sdk/include:headers",
            ],
        )
