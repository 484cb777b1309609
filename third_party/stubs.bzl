"""A repository rule that lays out a local repository from files kept in this repo.

Used for the stand-ins of Bazel's own repositories (rules_cc, remote_coverage_tools) so that
they resolve the same way from this workspace and from any consumer workspace.
"""

def _local_stub_repository_impl(ctx):
    ctx.file("WORKSPACE", "workspace(name = \"%s\")\n" % ctx.name)
    for label, dest in ctx.attr.files.items():
        ctx.symlink(label, dest)

local_stub_repository = repository_rule(
    implementation = _local_stub_repository_impl,
    attrs = {
        "files": attr.label_keyed_string_dict(
            allow_files = True,
            doc = "Files of this repo mapped to their path in the new repository.",
        ),
    },
    local = True,
)
