"""``proofkit sweep SPEC``: a theorem checked (and searched) at every point of a parameter grid, one result
file per point, resumable, on a local process pool or a Dask cluster (docs/sweeps.md).

Read top-down: ``spec`` (the spec file, parsed and validated against the theorem's parameters, its points)
-> ``store`` (the sweep folder: manifest, one atomically written file per point, resume) -> ``runner``
(the points computed in this process, a process pool or on a Dask scheduler, yielded as they complete)
-> ``summary`` (the table and the threshold as ``scan`` reads it) -> ``cli`` (the subcommand).
"""

#: how to install what a Dask scheduler needs (here, so the subcommand's help names it without loading
#: the runner and the engine)
DASK_HINT = 'pip install "proofkit[dask]"'

