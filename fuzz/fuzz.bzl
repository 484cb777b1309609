"""sgmcmc_fuzz_target: one fuzz target, as a libFuzzer binary and as a replay test.

For a target NAME (NAME.cc defines LLVMFuzzerTestOneInput) with seeds in corpus/CORPUS/:
  NAME       the fuzzer. Under --config=fuzz (clang-14, ASan + UBSan) it links libFuzzer's
             main: `bazel-bin/fuzz/NAME -max_total_time=60 fuzz/corpus/CORPUS`
             (bench/fuzz.sh runs them all). Under any other config it links the replay main
             (fuzz/replay_main.cc), which runs the files it is given, e.g. a crash input.
  NAME_test  `bazel test`: the replay main over the seeds plus `mutations` deterministic
             mutations of them, with the default compiler and no libFuzzer (seconds).
"""

load("//tools/build_defs:cc.bzl", "SGMCMC_COPTS")

def sgmcmc_fuzz_target(name, corpus, deps = [], mutations = 2000, size = "small"):
    native.cc_library(
        name = name + "_lib",
        srcs = [name + ".cc"],
        copts = SGMCMC_COPTS,
        deps = deps + ["//fuzz:fuzz_support"],
        alwayslink = True,
    )
    native.cc_binary(
        name = name,
        deps = [":" + name + "_lib"] + select({
            "//fuzz:libfuzzer": [],
            "//conditions:default": ["//fuzz:replay_main"],
        }),
        linkopts = select({
            "//fuzz:libfuzzer": ["-fsanitize=fuzzer"],
            "//conditions:default": [],
        }),
    )
    native.cc_test(
        name = name + "_test",
        size = size,
        deps = [":" + name + "_lib", "//fuzz:replay_main"],
        data = native.glob(["corpus/%s/**" % corpus]),
        args = ["fuzz/corpus/" + corpus, "--mutations=%d" % mutations],
    )
