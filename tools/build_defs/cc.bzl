"""The C++ rule macros of sgmcmc: the one place compiler flags come from.

sgmcmc_cc_library / sgmcmc_cc_test / sgmcmc_cc_benchmark / sgmcmc_cc_binary wrap the native
rules with the project's warnings and optimisation flags. Benchmarks are testonly binaries
tagged "benchmark" and linked with Google Benchmark's main. Tests and benchmarks are private
(nothing depends on them); libraries state their visibility in their BUILD files (see the
package groups in //:BUILD).
"""

SGMCMC_COPTS = [
    "-Wall",
    "-Wextra",
    "-Wno-sign-compare",
    "-Wno-unused-parameter",
    "-Werror=return-type",
]

# Hot numerical kernels (variate generators, sampler inner loops) opt into this.
SGMCMC_FAST_COPTS = ["-O3", "-fno-math-errno"]

def sgmcmc_cc_library(name, copts = [], fast = False, **kwargs):
    native.cc_library(
        name = name,
        copts = SGMCMC_COPTS + (SGMCMC_FAST_COPTS if fast else []) + copts,
        **kwargs
    )

def sgmcmc_cc_binary(name, copts = [], **kwargs):
    native.cc_binary(
        name = name,
        copts = SGMCMC_COPTS + copts,
        **kwargs
    )

def sgmcmc_cc_test(name, copts = [], deps = [], visibility = ["//visibility:private"], **kwargs):
    native.cc_test(
        name = name,
        copts = SGMCMC_COPTS + copts,
        deps = deps + ["@com_google_googletest//:gtest_main"],
        visibility = visibility,
        **kwargs
    )

def sgmcmc_cc_benchmark(name, copts = [], deps = [], tags = [], visibility = ["//visibility:private"], **kwargs):
    native.cc_binary(
        name = name,
        copts = SGMCMC_COPTS + copts,
        deps = deps + ["@com_github_google_benchmark//:benchmark_main"],
        testonly = True,
        tags = tags + ["benchmark"],
        visibility = visibility,
        **kwargs
    )
