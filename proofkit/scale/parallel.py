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

#: peak resident memory of one worker process, with margin: a process that runs every built-in check in
#: turn peaks at 333 MiB (VmHWM, measured on the development machine, 2026-11)
WORKER_MEMORY = 400 << 20
#: the most worker processes -j may ask for (more is never useful: the pool is capped by CPUs anyway)
MAX_JOBS = 4096


def jobs_arg(text: str) -> int:
    """``-j N``: N worker processes (1 = serial, 0 = one per CPU). The pool itself is capped by the usable
    CPUs and the available memory (:func:`workers`)."""
    if not text.isascii() or not text.isdigit() or len(text) > 4 or int(text) > MAX_JOBS:
        raise InputError("-j", f"a non-negative integer number of worker processes, at most {MAX_JOBS} "
                         "(0: one per CPU)", text)
    n = int(text)
    return n if n > 0 else usable_cpus()


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity mask where the platform has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def available_memory() -> int | None:
    """Bytes of memory available for new processes (Linux MemAvailable), None where unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def workers(jobs: int, tasks: int) -> tuple[int, str]:
    """How many worker processes to start for ``jobs`` asked and ``tasks`` to run: at most one per task,
    per usable CPU and per WORKER_MEMORY of available memory (at least one); with the reason when that
    is fewer than asked (a CPU-bound pool gains nothing beyond the CPUs, and a pool beyond the memory
    swaps or is killed)."""
    cpus, memory = usable_cpus(), available_memory()
    by_memory = max(1, memory // WORKER_MEMORY) if memory is not None else jobs
    n = max(1, min(jobs, tasks, cpus, by_memory))
    why = ""
    if n < min(jobs, tasks):
        limits = [f"{cpus} usable CPU{'s' if cpus != 1 else ''}"]
        if memory is not None:
            limits.append(f"{memory / 2**30:.1f} GiB available at {WORKER_MEMORY / 2**30:.2f} GiB per worker")
        why = f"-j {jobs}: {n} worker process{'es' if n != 1 else ''} ({'; '.join(limits)})"
    return n, why


@dataclass(frozen=True)
class Failure:
    """A bad-input error raised in a worker, carried back as plain fields."""

    field: str
    expected: str
    got: str | None
    #: the error's whole one-line message (a write error adds the OS's reason to field, expected, got)
    message: str = ""

    def error(self) -> InputError:
        """The error again, with its whole message."""
        exc = InputError(self.field, self.expected, self.got)
        if self.message:
            exc.args = (self.message,)
        return exc


def in_context(folders: tuple[str, ...], cap: int, backend: str, fn: Callable[..., Any],
                args: tuple[Any, ...]) -> Any:
    """``fn(*args)`` under the parent's theorem folders, work cap and backend, silent (the parent reports
    progress); a bad-input error comes back as a :class:`Failure`."""
    try:
        with registry.using(folders), workguard.work_cap(cap), arrays.using(backend), \
                progress.reporting(False):
            return fn(*args)
    except InputError as exc:
        return Failure(str(exc.field), str(exc.expected), None if exc.got is None else str(exc.got), str(exc))


def pool_size(jobs: int, tasks: int) -> int:
    """The worker processes to start (:func:`workers`), noting on the progress stream why when fewer
    than asked: what every pool of proofkit calls before it starts."""
    n, why = workers(jobs, tasks)
    if why:
        progress.note(why)
    return n


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
    n = pool_size(jobs, len(calls))
    if n <= 1:
        return run_all(fn, calls, 1, on_done)
    folders, cap, backend = worker_context()
    # the parent only waits from here: its stage says so (the workers' own stages are not seen here)
    progress.stage(f"{len(calls)} runs on {n} worker processes")
    with ProcessPoolExecutor(max_workers=n, initializer=exit_with_parent) as pool:
        index = {pool.submit(in_context, folders, cap, backend, fn, tuple(args)): i
                 for i, args in enumerate(calls)}
        for future in as_completed(index):
            i = index[future]
            out[i] = future.result()
            if on_done is not None and not isinstance(out[i], Failure):
                on_done(i, out[i])
    for r in out:
        if isinstance(r, Failure):
            raise r.error()
    return out
