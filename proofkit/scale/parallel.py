"""Independent checks in a process pool (``check --all -j N``, ``scan -j N``) with the same results as a
serial run.

Every check is seeded on its own and shares no state with the others, so running them in separate processes
changes nothing but the wall clock: results come back in input order, the theorem set (``--theorems``,
``$PROOFKIT_THEOREMS``), the work cap and the array backend are re-established in each worker, and the workers
get theorem ids, not theorem objects (theorem files hold lambdas; each worker imports them by path, as the
registry does). A bad-input error in a worker is raised again in the parent as the same one-line error.
Records are written atomically (:mod:`proofkit.storage.atomic`), so concurrent scan values never clobber one
another.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from ..errors import InputError
from ..language import registry
from ..numerics import arrays
from ..runtime import progress, workguard


def jobs_arg(text: str) -> int:
    """``-j N``: N worker processes (1 = serial, 0 = one per CPU)."""
    if not text.isascii() or not text.isdigit():
        raise InputError("-j", "a non-negative integer number of worker processes (0: one per CPU)", text)
    n = int(text)
    return n if n > 0 else (os.cpu_count() or 1)


@dataclass(frozen=True)
class Failure:
    """A bad-input error raised in a worker, carried back as plain fields."""

    field: str
    expected: str
    got: str | None


def in_context(folders: tuple[str, ...], cap: int, backend: str, fn: Callable[..., Any],
                args: tuple[Any, ...]) -> Any:
    """``fn(*args)`` under the parent's theorem folders, work cap and backend, silent (the parent reports
    progress); a bad-input error comes back as a :class:`Failure`."""
    try:
        with registry.using(folders), workguard.work_cap(cap), arrays.using(backend), \
                progress.reporting(False):
            return fn(*args)
    except InputError as exc:
        return Failure(str(exc.field), str(exc.expected), None if exc.got is None else str(exc.got))


def exit_with_parent() -> None:
    """Pool worker initializer: end this worker once the parent process is gone. A parent killed with
    SIGKILL cannot shut its pool down, and its workers would otherwise finish work nobody collects, then
    wait forever for the next. multiprocessing's parent sentinel becomes ready when the parent ends
    (every start method, every platform), so the watching thread sleeps until then."""
    parent = multiprocessing.parent_process()
    if parent is None:  # not a multiprocessing child: nothing to watch
        return

    def watch() -> None:
        parent.join()
        os._exit(1)

    threading.Thread(target=watch, name="proofkit-pool-parent", daemon=True).start()


def worker_context() -> tuple[tuple[str, ...], int, str]:
    """What a worker re-establishes before its call: the theorem folders the user named
    (``$PROOFKIT_THEOREMS`` and ``--theorems``; named explicitly because a Dask worker does not share
    this process's environment; built-in and entry-point sets are found by the worker itself), the work
    cap and the array backend."""
    folders = tuple(str(s.folder) for s in registry.sources() if s.kind == "folder")
    return folders, workguard.max_work(), arrays.current()


def run_all(fn: Callable[..., Any], calls: Sequence[tuple[Any, ...]], jobs: int,
            on_done: Callable[[int, Any], None] | None = None) -> list[Any]:
    """``[fn(*args) for args in calls]``, in ``jobs`` processes (serial when jobs == 1 or one call);
    ``fn`` must be a module-level function of picklable arguments. ``on_done(i, result)`` is called in
    the parent as each call finishes (completion order), so rows stream while the pool works; the list
    returned is in input order."""
    out: list[Any] = [None] * len(calls)
    if jobs <= 1 or len(calls) <= 1:
        for i, args in enumerate(calls):
            out[i] = fn(*args)
            if on_done is not None:
                on_done(i, out[i])
        return out
    folders, cap, backend = worker_context()
    with ProcessPoolExecutor(max_workers=min(jobs, len(calls)), initializer=exit_with_parent) as pool:
        index = {pool.submit(in_context, folders, cap, backend, fn, tuple(args)): i
                 for i, args in enumerate(calls)}
        for future in as_completed(index):
            i = index[future]
            out[i] = future.result()
            if on_done is not None and not isinstance(out[i], Failure):
                on_done(i, out[i])
    for r in out:
        if isinstance(r, Failure):
            raise InputError(r.field, r.expected, r.got)
    return out
