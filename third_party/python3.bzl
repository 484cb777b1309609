"""A repository rule exposing the Python headers of Debian's python3-dev.

The include directory is the one `/usr/bin/python3-config --includes` prints (the Debian
interpreter's, e.g. /usr/include/python3.11), not that of whatever python3 is first on PATH
(a pyenv interpreter would not have numpy and the other Debian modules). It is linked as
include/ in the repository and described by third_party/python3.BUILD; wheel_tag.bzl holds the interpreter's wheel tag.
"""

_WHEEL_TAG = """
import sys, sysconfig
abi = "cp%d%d" % sys.version_info[:2]
print("%s-%s-%s" % (abi, abi, sysconfig.get_platform().replace("-", "_").replace(".", "_")))
"""

def _python3_headers_repository_impl(ctx):
    config = ctx.attr.python_config
    result = ctx.execute([config, "--includes"])
    if result.return_code != 0:
        fail("%s --includes failed (is python3-dev installed?): %s" % (config, result.stderr))
    flags = result.stdout.strip().split(" ")
    if not flags or not flags[0].startswith("-I"):
        fail("%s --includes printed no -I flag: %s" % (config, result.stdout))
    ctx.symlink(flags[0][2:], "include")

    # The wheel tag of that interpreter (e.g. cp311-cp311-linux_x86_64), for //python:wheel.
    tag = ctx.execute([ctx.attr.python, "-c", _WHEEL_TAG])
    if tag.return_code != 0:
        fail("%s could not compute its wheel tag: %s" % (ctx.attr.python, tag.stderr))
    ctx.file("wheel_tag.bzl", "WHEEL_TAG = \"%s\"\n" % tag.stdout.strip())
    ctx.symlink(ctx.attr.build_file, "BUILD.bazel")
    ctx.file("WORKSPACE", "workspace(name = \"%s\")\n" % ctx.name)

python3_headers_repository = repository_rule(
    implementation = _python3_headers_repository_impl,
    attrs = {
        "build_file": attr.label(allow_single_file = True),
        "python": attr.string(default = "/usr/bin/python3"),
        "python_config": attr.string(default = "/usr/bin/python3-config"),
    },
    local = True,
)
