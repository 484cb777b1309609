"""sgmcmc results in ArviZ's InferenceData layout, as xarray Datasets and netCDF files.

ArviZ (not in Debian) reads what this writes with arviz.from_netcdf(path); the layout is
ArviZ's InferenceData schema (arviz-devs/arviz, schema.md):
  * one netCDF group per InferenceData group: "posterior" (the draws) and "sample_stats"
    (per-draw sampler statistics: step_size, iteration, thermostat, ...);
  * every variable's first two dimensions are "chain" and "draw", with integer coordinates
    0..m-1 and 0..n-1; a parameter's own axes are "<var>_dim_0", "<var>_dim_1", ... (ArviZ's
    default names) with coordinates 0..size-1; no variable shares its name with a dimension;
  * every group carries the attributes created_at (ISO 8601, UTC), inference_library
    ("sgmcmc"), inference_library_version, plus the run's settings (sampler, seed, thin,
    burn_in, step_size, ...).
Written with Debian's python3-xarray and python3-netcdf4 (engine "netcdf4").

    result = sgmcmc.sample(grad_log_density, theta0, sampler="sgld", n_samples=1000)
    sgmcmc.arviz.to_netcdf(result, "run.nc")      # or result.to_netcdf("run.nc")
    # elsewhere: idata = arviz.from_netcdf("run.nc"); arviz.summary(idata)
"""

import datetime

import numpy as np

import sgmcmc

GROUPS = ("posterior", "sample_stats")


def _dataset(variables, attrs):
    import xarray as xr
    data_vars, coords = {}, {}
    for name, values in variables.items():
        values = np.asarray(values)
        if values.ndim < 2:
            raise ValueError("%s must have shape (chain, draw, ...), got %s"
                             % (name, values.shape))
        dims = ["chain", "draw"] + ["%s_dim_%d" % (name, i) for i in range(values.ndim - 2)]
        for dim, size in zip(dims, values.shape):
            coords[dim] = np.arange(size)
        data_vars[name] = (dims, values)
    dataset = xr.Dataset(data_vars, coords=coords)
    dataset.attrs.update(attrs)
    return dataset


def _attrs(extra):
    attrs = {"created_at": datetime.datetime.now(datetime.timezone.utc).isoformat(),
             "inference_library": "sgmcmc",
             "inference_library_version": sgmcmc.__version__}
    for key, value in extra.items():
        # netCDF attributes: numbers and strings (None is left out, bools become ints).
        if isinstance(value, bool):
            value = int(value)
        if isinstance(value, (int, float, str, np.integer, np.floating)):
            attrs[key] = value
    return attrs


def to_datasets(samples, var_name="theta"):
    """{"posterior": Dataset with `var_name` (chain, draw, *shape), "sample_stats": Dataset
    of samples.sample_stats} for an sgmcmc.Samples (or anything with draws, sample_stats and
    attrs)."""
    if var_name in ("chain", "draw") or var_name in samples.sample_stats:
        raise ValueError("var_name %r collides with a dimension or a sample statistic"
                         % var_name)
    attrs = _attrs(samples.attrs)
    return {"posterior": _dataset({var_name: samples.draws}, attrs),
            "sample_stats": _dataset(dict(samples.sample_stats), attrs)}


def to_netcdf(samples, path, var_name="theta"):
    """Writes to_datasets(samples) to `path`, one netCDF group each; returns path."""
    datasets = to_datasets(samples, var_name)
    mode = "w"
    for group in GROUPS:
        datasets[group].to_netcdf(str(path), mode=mode, group=group, engine="netcdf4")
        mode = "a"
    return path


def read_netcdf(path):
    """{group: xarray.Dataset} of a file written by to_netcdf (or by ArviZ), every group."""
    import netCDF4
    import xarray as xr
    with netCDF4.Dataset(str(path), mode="r") as handle:
        groups = list(handle.groups)
    return {group: xr.open_dataset(str(path), group=group, engine="netcdf4").load()
            for group in groups}
