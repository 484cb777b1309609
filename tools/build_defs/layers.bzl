"""The package groups that enforce the four floors (README.md "Layout", docs/ARCHITECTURE.md).

LAYER_EXCLUSIONS maps each package to the packages that may NOT depend on it: the floors
below it and the forbidden neighbours on its own floor. sgmcmc_layer_package_groups() turns
each entry into the package group "<pkg>_users" = "//..." minus those packages; in Bazel 4
"//..." inside a package_group means every package of every repository, so consumer
workspaces keep access to single targets. tools/check_layers.py checks the #includes against
the same order. An entry covers the package's subpackages too ("-//models/..."), so the model
families //models/lda, //models/dp, ... are all on floor 3: each is in "models_users" (they may
use each other) and no lower floor may use any of them.
"""

_FLOOR1_BELOW_RNG = ["base", "math", "testing"]
_FLOOR1 = _FLOOR1_BELOW_RNG + ["linalg", "parallel", "rng"]

LAYER_EXCLUSIONS = {
    "testing": ["base"],
    "math": ["base", "testing"],
    "rng": _FLOOR1_BELOW_RNG + ["linalg", "parallel"],
    "linalg": _FLOOR1_BELOW_RNG + ["parallel", "rng"],
    "parallel": _FLOOR1_BELOW_RNG + ["linalg", "rng"],
    "data": _FLOOR1 + ["samplers"],
    "eval": _FLOOR1 + ["data"],
    "samplers": _FLOOR1 + ["data", "eval"],
    "models": _FLOOR1 + ["data", "eval", "samplers"],
    "tools": _FLOOR1 + ["data", "eval", "models", "samplers"],
    "python": _FLOOR1 + ["data", "eval", "models", "samplers", "tools"],
    # Fuzz targets (floor 4, beside tools, whose checkpoint and config readers they fuzz).
    "fuzz": _FLOOR1 + ["data", "eval", "models", "samplers", "tools", "python"],
}

def sgmcmc_layer_package_groups():
    """Defines one package_group "<pkg>_users" per entry of LAYER_EXCLUSIONS."""
    for package, excluded in LAYER_EXCLUSIONS.items():
        native.package_group(
            name = package + "_users",
            packages = ["//..."] + ["-//%s/..." % p for p in sorted(excluded)],
        )
