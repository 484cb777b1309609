"""External repositories of sgmcmc, all backed by Debian packages; nothing is downloaded.

A consumer workspace does:

    local_repository(name = "sgmcmc", path = "/path/to/sgmcmc")
    load("@sgmcmc//:deps.bzl", "sgmcmc_deps")
    sgmcmc_deps()

Each repository is defined only if the workspace has not defined one of that name already,
so a consumer may pre-define its own copy.
"""

load("//third_party:python3.bzl", "python3_headers_repository")
load("//third_party:stubs.bzl", "local_stub_repository")

def _maybe(rule, name, **kwargs):
    if name not in native.existing_rules():
        rule(name = name, **kwargs)

def _system(name, build_file):
    _maybe(
        native.new_local_repository,
        name = name,
        path = "/usr",
        build_file = str(Label("//third_party:" + build_file)),
    )

def sgmcmc_deps():
    """Registers every external repository sgmcmc needs."""

    # Bazel's own repositories, which Bazel 4 would otherwise try to download.
    _maybe(
        local_stub_repository,
        name = "rules_cc",
        files = {
            Label("//third_party/stubs:rules_cc_defs.bzl"): "cc/defs.bzl",
            Label("//third_party/stubs:empty.BUILD"): "cc/BUILD",
        },
    )
    _maybe(
        local_stub_repository,
        name = "remote_coverage_tools",
        files = {
            Label("//third_party/stubs:coverage.BUILD"): "BUILD",
            Label("//third_party/stubs:coverage_report_generator.sh"): "coverage_report_generator.sh",
        },
    )
    _maybe(native.local_repository, name = "rules_java", path = "/usr/share/bazel/rules/java")
    _maybe(native.local_repository, name = "platforms", path = "/usr/share/bazel/tools/platforms")
    _maybe(native.local_repository, name = "bazel_skylib", path = "/usr/share/bazel/tools/skylib")

    # Debian's -dev packages.
    _system("com_google_absl", "absl.BUILD")
    _system("eigen", "eigen.BUILD")
    _system("com_google_googletest", "googletest.BUILD")
    _system("com_github_google_benchmark", "benchmark.BUILD")
    _system("com_google_protobuf", "protobuf.BUILD")
    _system("random123", "random123.BUILD")
    _system("boost_math", "boost_math.BUILD")
    _system("openmpi", "openmpi.BUILD")
    _system("zlib", "zlib.BUILD")
    _system("pybind11", "pybind11.BUILD")
    _maybe(
        python3_headers_repository,
        name = "python3",
        build_file = Label("//third_party:python3.BUILD"),
    )

    # py_binary / py_test run on Debian's /usr/bin/python3 (third_party/BUILD).
    native.register_toolchains(str(Label("//third_party:python_toolchain")))
