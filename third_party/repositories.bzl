"""External repositories of Backplane, all taken from this machine (Debian packages, CUDA toolkit).

Nothing here downloads. Each rule fails with a message naming the Debian package to install
(`tools/setup` installs all of them) when what it needs is missing.
"""

_SETUP_HINT = "run tools/setup (it installs the Debian packages the build needs)"

# ---------------------------------------------------------------------------------------------
# rules_cc from Debian's bazel-rules-cc.
#
# Debian ships rules_cc 0.0.4, which is newer than Bazel 4.2.3: two of its .bzl files load
# `use_cpp_toolchain` from @bazel_tools, which 4.2.3 does not have. We copy the tree and define
# that function locally in those two files.
# ---------------------------------------------------------------------------------------------

_USE_CPP_TOOLCHAIN_LOAD = 'load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain", "use_cpp_toolchain")'
_USE_CPP_TOOLCHAIN_COMPAT = """load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain")
load("//cc/private/rules_impl:bazel4_compat.bzl", "use_cpp_toolchain")"""
_BAZEL4_COMPAT_BZL = """# Written by Backplane's third_party/repositories.bzl: Bazel 4.2.3 lacks this helper.
def use_cpp_toolchain(mandatory = True):
    return ["@bazel_tools//tools/cpp:toolchain_type"]
"""
_FILES_NEEDING_COMPAT = [
    "cc/private/rules_impl/cc_flags_supplier.bzl",
    "cc/private/rules_impl/compiler_flag.bzl",
]

def _debian_rules_cc_impl(rctx):
    src = rctx.attr.path
    if not rctx.path(src + "/cc/defs.bzl").exists:
        fail("rules_cc not found at %s: %s" % (src, _SETUP_HINT))
    result = rctx.execute(["cp", "-R", src + "/.", "."])
    if result.return_code != 0:
        fail("copying rules_cc from %s failed: %s" % (src, result.stderr))
    rctx.file("cc/private/rules_impl/bazel4_compat.bzl", _BAZEL4_COMPAT_BZL, executable = False)
    for f in _FILES_NEEDING_COMPAT:
        text = rctx.read(f)
        if _USE_CPP_TOOLCHAIN_LOAD not in text:
            continue  # A newer Debian copy that no longer needs the patch.
        rctx.file(f, text.replace(_USE_CPP_TOOLCHAIN_LOAD, _USE_CPP_TOOLCHAIN_COMPAT), executable = False)

debian_rules_cc = repository_rule(
    implementation = _debian_rules_cc_impl,
    attrs = {"path": attr.string(default = "/usr/share/bazel/rules/cc")},
    local = True,
)

# ---------------------------------------------------------------------------------------------
# C/C++ libraries from Debian's -dev packages, described by pkg-config.
#
# `libraries` maps a target name to the pkg-config modules it stands for. Headers live in
# /usr/include, which the toolchain already searches as a system directory, so the generated
# targets carry only defines and link flags.
# ---------------------------------------------------------------------------------------------

def _pkg_config(rctx, modules, what):
    result = rctx.execute(["pkg-config", what] + modules)
    if result.return_code != 0:
        fail("pkg-config %s %s failed (%s): %s" % (
            what,
            " ".join(modules),
            result.stderr.strip(),
            _SETUP_HINT,
        ))
    return [flag for flag in result.stdout.strip().split(" ") if flag]

def _pkg_config_repository_impl(rctx):
    lines = ['package(default_visibility = ["//visibility:public"])', ""]
    for name, spec in rctx.attr.libraries.items():
        modules = spec.split(" ")
        cflags = _pkg_config(rctx, modules, "--cflags")
        defines = [f[2:] for f in cflags if f.startswith("-D")]
        linkopts = _pkg_config(rctx, modules, "--libs")
        lines.append("cc_library(")
        lines.append('    name = "%s",' % name)
        lines.append("    defines = %s," % repr(defines))
        lines.append("    linkopts = %s," % repr([f for f in rctx.attr.extra_linkopts.get(name, "").split(" ") if f] + linkopts))
        lines.append(")")
        lines.append("")
    rctx.file("WORKSPACE", 'workspace(name = "%s")\n' % rctx.name)
    rctx.file("BUILD.bazel", "\n".join(lines))

pkg_config_repository = repository_rule(
    implementation = _pkg_config_repository_impl,
    attrs = {
        "libraries": attr.string_dict(mandatory = True),
        "extra_linkopts": attr.string_dict(),
    },
    local = True,
)

# Header-only libraries without a pkg-config file (Boost): a cc_library that adds no flags, since
# the headers are in /usr/include; the rule checks that they are there.
def _system_headers_repository_impl(rctx):
    for header in rctx.attr.headers:
        if not rctx.path("/usr/include/" + header).exists:
            fail("/usr/include/%s not found: %s" % (header, _SETUP_HINT))
    for library in rctx.attr.shared_libraries:
        if not rctx.path("/usr/lib/x86_64-linux-gnu/lib%s.so" % library).exists:
            fail("/usr/lib/x86_64-linux-gnu/lib%s.so not found: %s" % (library, _SETUP_HINT))
    rctx.file("WORKSPACE", 'workspace(name = "%s")\n' % rctx.name)
    rctx.file("BUILD.bazel", 'package(default_visibility = ["//visibility:public"])\n\ncc_library(name = "%s", linkopts = %s)\n' % (
        rctx.attr.library,
        repr(["-l" + library for library in rctx.attr.shared_libraries]),
    ))

system_headers_repository = repository_rule(
    implementation = _system_headers_repository_impl,
    attrs = {
        "library": attr.string(mandatory = True),
        "headers": attr.string_list(mandatory = True),
        # Linked as -l<name>, each checked for first.
        "shared_libraries": attr.string_list(default = []),
    },
    local = True,
)

# ---------------------------------------------------------------------------------------------
# CUDA toolkit headers (cuda.h, nvrtc.h). Nothing links libcuda or libnvrtc: both are dlopened at
# run time, so binaries start on machines without CUDA. Only the top-level include folder is
# exposed: the toolkit's lib64 -> lib links make recursive globs over its root loop.
# ---------------------------------------------------------------------------------------------

def _cuda_toolkit_impl(rctx):
    root = rctx.os.environ.get("CUDA_HOME", rctx.attr.path)
    include = rctx.path(root + "/include")
    rctx.file("WORKSPACE", 'workspace(name = "%s")\n' % rctx.name)
    if not rctx.path(root + "/include/nvrtc.h").exists:
        # Keep the build working without a toolkit; targets that need it say why.
        rctx.file("BUILD.bazel", """package(default_visibility = ["//visibility:public"])
cc_library(name = "headers", srcs = ["missing.cc"])
""")
        rctx.file("missing.cc", '#error "CUDA toolkit not found at %s (set CUDA_HOME)"\n' % root)
        return
    rctx.symlink(include, "include")
    rctx.file("BUILD.bazel", """package(default_visibility = ["//visibility:public"])

# Headers only: libcuda and libnvrtc are loaded with dlopen at run time.
cc_library(
    name = "headers",
    hdrs = glob(["include/*.h"]),
    includes = ["include"],
)

# cublas_v2.h for cuBLAS's types (libcublas is dlopened too): it pulls in the runtime's headers
# (driver_types.h -> crt/, cuda_fp16.h -> *.hpp, nv/target).
cc_library(
    name = "cublas_headers",
    hdrs = glob(["include/*.h", "include/*.hpp", "include/crt/**", "include/nv/**"]),
    includes = ["include"],
)
""")

cuda_toolkit = repository_rule(
    implementation = _cuda_toolkit_impl,
    attrs = {"path": attr.string(default = "/usr/local/cuda")},
    environ = ["CUDA_HOME"],
    local = True,
)

# ---------------------------------------------------------------------------------------------
# libtorch (Debian's libtorch-dev 1.13), for side-by-side benchmarks only: Backplane never needs
# it to build or pass its tests. Without it, :libtorch is a library whose one source fails to
# compile with a message, so only targets that use it (all tagged manual) stop building.
# ---------------------------------------------------------------------------------------------

def _libtorch_impl(rctx):
    rctx.file("WORKSPACE", 'workspace(name = "%s")\n' % rctx.name)
    lib = rctx.attr.libdir + "/libtorch_cpu.so"
    if not rctx.path("/usr/include/ATen/ATen.h").exists or not rctx.path(lib).exists:
        rctx.file("BUILD.bazel", """package(default_visibility = ["//visibility:public"])
cc_library(name = "libtorch", srcs = ["missing.cc"])
""")
        rctx.file("missing.cc", '#error "libtorch not found (apt-get install libtorch-dev): only the side-by-side benchmarks need it"\n')
        return
    rctx.file("BUILD.bazel", """package(default_visibility = ["//visibility:public"])

# Headers in /usr/include (ATen/, c10/, torch/), libraries in %s.
cc_library(
    name = "libtorch",
    linkopts = ["-L%s", "-ltorch_cpu", "-lc10"],
)
""" % (rctx.attr.libdir, rctx.attr.libdir))

libtorch_repository = repository_rule(
    implementation = _libtorch_impl,
    attrs = {"libdir": attr.string(default = "/usr/lib/x86_64-linux-gnu")},
    local = True,
)

# ---------------------------------------------------------------------------------------------
# CPython's headers (Debian's python3-dev), for the Python extension module (//python). They live
# in /usr/include/python3.X, below the toolchain's system directory but not on its search path,
# so the folder is linked in and exposed as an include path; pyconfig.h includes the
# architecture's own copy by its path under /usr/include, which the toolchain already searches.
# ---------------------------------------------------------------------------------------------

def _python_headers_impl(rctx):
    include = "/usr/include/" + rctx.attr.version
    if not rctx.path(include + "/Python.h").exists:
        fail("%s/Python.h not found (apt-get install python3-dev): %s" % (include, _SETUP_HINT))
    rctx.symlink(include, "include")
    rctx.file("WORKSPACE", 'workspace(name = "%s")\n' % rctx.name)
    rctx.file("BUILD.bazel", """package(default_visibility = ["//visibility:public"])

cc_library(
    name = "headers",
    hdrs = glob(["include/**/*.h"]),
    includes = ["include"],
)
""")

python_headers_repository = repository_rule(
    implementation = _python_headers_impl,
    attrs = {"version": attr.string(default = "python3.11")},
    local = True,
)


def backplane_dependencies():
    """Declares every external repository Backplane uses."""
    debian_rules_cc(name = "rules_cc")

    # Bazel's analysis needs rules_java even for C++-only builds; Debian ships it.
    native.local_repository(name = "rules_java", path = "/usr/share/bazel/rules/java")

    # `bazel test` needs this repository; see its BUILD file.
    native.local_repository(
        name = "remote_coverage_tools",
        path = "third_party/remote_coverage_tools",
    )

    pkg_config_repository(
        name = "com_google_absl",
        libraries = {
            "base": "absl_base",
            "strings": "absl_strings",
            "str_format": "absl_str_format",
            "status": "absl_status absl_statusor",
            "inlined_vector": "absl_inlined_vector",
            "flat_hash_map": "absl_flat_hash_map",
            "flat_hash_set": "absl_flat_hash_set",
            "synchronization": "absl_synchronization",
            "flags": "absl_flags absl_flags_parse",
        },
    )
    pkg_config_repository(
        name = "com_google_googletest",
        libraries = {
            "gtest": "gtest",
            "gtest_main": "gtest_main",
            "gmock": "gmock",
        },
    )
    pkg_config_repository(
        name = "com_github_google_benchmark",
        libraries = {"benchmark": "benchmark", "benchmark_main": "benchmark"},
        # Debian ships libbenchmark_main.a without a pkg-config file.
        extra_linkopts = {"benchmark_main": "-lbenchmark_main -lpthread"},
    )
    pkg_config_repository(
        name = "com_github_nlohmann_json",
        libraries = {"json": "nlohmann_json"},
    )
    pkg_config_repository(
        name = "com_github_jbeder_yaml_cpp",
        libraries = {"yaml_cpp": "yaml-cpp"},
    )
    pkg_config_repository(
        name = "com_github_google_highway",
        libraries = {"hwy": "libhwy"},
    )
    # SLEEF: the vectorised libm behind sdk/iter/vec/vec_math.h (PyTorch uses it too).
    pkg_config_repository(
        name = "com_github_shibatch_sleef",
        libraries = {"sleef": "sleef"},
    )
    # OpenBLAS: the CPU's GEMM (reference_backend/cpu/matmul.cc; chosen against BLIS in
    # docs/design/matmul.md). pkg-config's module follows Debian's alternative (pthread build).
    pkg_config_repository(
        name = "openblas",
        libraries = {"openblas": "openblas"},
    )
    # Boost.Math: an independent reference for the special functions, in tests only.
    system_headers_repository(
        name = "boost",
        library = "math",
        headers = ["boost/math/special_functions/digamma.hpp"],
    )
    # Boost.Context: the fibers that run a cooperative kernel's threads in the CUDA emulator.
    system_headers_repository(
        name = "boost_context",
        library = "context",
        headers = ["boost/context/fiber.hpp"],
        shared_libraries = ["boost_context"],
    )
    cuda_toolkit(name = "cuda")
    libtorch_repository(name = "libtorch")

    # The Python module (//python): Debian's python3-dev, pybind11-dev and libdlpack-dev.
    python_headers_repository(name = "python3")
    system_headers_repository(
        name = "pybind11",
        library = "pybind11",
        headers = ["pybind11/pybind11.h"],
    )
    system_headers_repository(
        name = "dlpack",
        library = "dlpack",
        headers = ["dlpack/dlpack.h"],
    )
