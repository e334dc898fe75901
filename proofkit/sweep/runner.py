"""The points of a sweep computed here (``-j 1``), in a local process pool (``-j N``) or on a Dask cluster
(``--scheduler ADDRESS``), yielded one by one as they complete so that the caller writes each result at
once (a kill loses at most the points in flight).

Every path runs the same unit, :func:`proofkit.engine.scan.scan_value_id` (``scan_value`` of a theorem by
id: the check, and the counterexample search where the theorem has one), wrapped in the pool's context
re-establishment (theorem folders, work cap, array backend; a bad-input error comes back as plain
fields). Its arguments are plain data and both functions are module-level, so Dask workers receive them
by reference: proofkit, and the theorem folders at the same paths, must be installed where the workers
run. Dask (``distributed``) is imported only when a scheduler is given.

A point that raises is not written: it is reported with its reason (bad input, e.g. the work cap, or a
crash of the worker) and the sweep goes on with the others.
"""

from __future__ import annotations

from asyncio import CancelledError
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from ..engine import scan
from ..engine.scan import ScanRow
from ..errors import InputError
from ..scale import parallel
from . import DASK_HINT

#: seconds to wait for a Dask scheduler to answer before the address is bad input
CONNECT_TIMEOUT_S = 10


@dataclass(frozen=True)
class Call:
    """One point to compute: its key and the arguments of :func:`proofkit.engine.scan.scan_value_id`."""

    key: str
    args: tuple[Any, ...]


@dataclass(frozen=True)
class Outcome:
    """A completed point: its row, or why it could not be computed (``bad_input``: an InputError such as
    the work cap, else a crash)."""

    key: str
    row: ScanRow | None = None
    error: str = ""
    bad_input: bool = False


def _unit(ctx: tuple[tuple[str, ...], int, str], call: Call) -> tuple[Any, ...]:
    """The arguments of the pool's context wrapper for one call."""
    return (*ctx, scan.scan_value_id, call.args)


def _settle(point_key: str, get: Any) -> Outcome:
    """The outcome of one point from ``get()`` (a future's result or a direct call)."""
    try:
        result = get()
    except (Exception, CancelledError) as exc:  # a worker that died, a bug at this point, a cancelled task
        # (asyncio's CancelledError is no Exception): the others go on
        return Outcome(point_key, error=f"crashed: {type(exc).__name__}: {str(exc)[:300]}")
    if isinstance(result, parallel.Failure):
        return Outcome(point_key, error=str(result.error()), bad_input=True)
    return Outcome(point_key, row=result)


def run_local(calls: Sequence[Call], jobs: int) -> Iterator[Outcome]:
    """The calls in this process (jobs <= 1) or in ``jobs`` processes, each outcome as it completes."""
    ctx = parallel.worker_context()
    if jobs <= 1 or len(calls) <= 1:
        for call in calls:
            yield _settle(call.key, lambda call=call: parallel.in_context(*_unit(ctx, call)))
        return
    n = parallel.pool_size(jobs, len(calls))
    if n <= 1:
        yield from run_local(calls, 1)
        return
    pool = ProcessPoolExecutor(max_workers=n, initializer=parallel.exit_with_parent)
    try:
        futures = {pool.submit(parallel.in_context, *_unit(ctx, call)): call.key for call in calls}
        for future in as_completed(futures):
            yield _settle(futures[future], future.result)
    finally:  # stopped early (an error writing a result, Ctrl-C): drop the points not started
        pool.shutdown(wait=True, cancel_futures=True)


def connect(address: str) -> Any:
    """A ``distributed.Client`` of the scheduler at ``address``; bad input (exit 2, one line) when Dask is
    not installed or the scheduler does not answer within CONNECT_TIMEOUT_S seconds."""
    try:
        import distributed
    except ImportError:
        raise InputError("--scheduler", f"Dask installed for a scheduler address: {DASK_HINT}",
                         address) from None
    try:
        return distributed.Client(address, timeout=CONNECT_TIMEOUT_S, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise InputError("--scheduler", "the address of a running Dask scheduler (tcp://HOST:PORT)",
                         f"{address} ({type(exc).__name__}: {str(exc)[:200]})") from None


def run_dask(client: Any, calls: Sequence[Call]) -> Iterator[Outcome]:
    """The calls as tasks of the Dask ``client``, each outcome as it completes."""
    import distributed

    ctx = parallel.worker_context()
    futures = {client.submit(parallel.in_context, *_unit(ctx, call), pure=False): call.key
               for call in calls}
    try:
        for future in distributed.as_completed(list(futures), loop=client.loop):
            yield _settle(futures[future], future.result)
    finally:  # stopped early: the cluster drops what is left
        client.cancel(list(futures))
