"""Live progress on stderr: what a long command is doing while it runs.

Engine code reports the stage it is in (``stage("AM24.T4: fit")``) and each finished unit of a longer
run (``done("[3/28] AM24.T4 certified (2.1 s)")``). Nothing is printed unless a command line turned
reporting on (:func:`reporting`), so library use and pool workers stay silent. On a terminal the current
stage is a transient rich status line that appears once the command has run for a second, and finished
units scroll above it (with a bar, done/total and the estimated time left once counted units finish);
otherwise (a pipe, a CI log) plain lines: every finished unit, and a stage line
for each stage that lasts a second or more, so short commands print nothing.
stdout is never touched: tables and ``--json`` stay clean.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

#: set (to anything but "" or "0") to silence progress everywhere, as -q does
ENV = "PROOFKIT_QUIET"
#: a command that has run this long shows its stage (the issue's "anything longer than a second")
DELAY_S = 1.0


class _Plain:
    """Plain lines (logs, pipes, tests): every finished unit, and a stage once it has lasted DELAY_S."""

    def __init__(self, stream: TextIO) -> None:
        self.stream, self.timer = stream, None
        self.lock = threading.Lock()

    def _print(self, text: str) -> None:
        with self.lock:
            print(text, file=self.stream, flush=True)

    def stage(self, text: str) -> None:
        self.close()
        self.timer = threading.Timer(DELAY_S, self._print, (f"proofkit: {text}",))
        self.timer.daemon = True
        self.timer.start()

    def done(self, text: str, total: int | None = None) -> None:
        self.close()
        self._print(text)

    def close(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None


def _WhenCounted(column: Any) -> Any:
    """A rich progress column drawn only once the run has a count of units (a bar, done/total and the
    time left mean nothing for one check)."""
    from rich.progress import ProgressColumn
    from rich.text import Text

    class WhenCounted(ProgressColumn):
        def render(self, task: Any) -> Any:
            return column.render(task) if task.total is not None else Text("")

    return WhenCounted()


class _Live:
    """A transient rich progress line on a terminal: spinner, the current stage, and once a run of counted
    units is under way a bar with done/total, elapsed and estimated time left. It appears once the command
    has run DELAY_S (whatever it is doing then: a stage set later shows at once) and is removed at the end;
    finished units scroll above it."""

    def __init__(self, stream: TextIO) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            SpinnerColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.console = Console(file=stream, highlight=False, soft_wrap=True)
        counted = [_WhenCounted(c) for c in (BarColumn(), MofNCompleteColumn(), TextColumn("time left"),
                                            TimeRemainingColumn())]
        self.bar = Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), *counted,
                            console=self.console, transient=True)
        self.task = self.bar.add_task("working", total=None)
        self.shown, self.due = False, False
        self.lock = threading.Lock()
        self.timer = threading.Timer(DELAY_S, self._due)
        self.timer.daemon = True
        self.timer.start()

    def _due(self) -> None:
        with self.lock:
            self.due = True
            self._show()

    def _show(self) -> None:
        if self.due and not self.shown:
            self.bar.start()
            self.shown = True

    def stage(self, text: str) -> None:
        with self.lock:
            self.bar.update(self.task, description=text)
            self._show()

    def done(self, text: str, total: int | None = None) -> None:
        with self.lock:
            self.bar.console.print(text, markup=False)
            if total is not None:
                self.bar.update(self.task, total=total, advance=1)

    def close(self) -> None:
        self.timer.cancel()
        with self.lock:
            if self.shown:
                self.bar.stop()
                self.shown = False


_sink: _Plain | _Live | None = None


@contextmanager
def reporting(enabled: bool = True, stream: TextIO | None = None) -> Iterator[None]:
    """Report progress to ``stream`` (default stderr) inside the block: a live status line on a
    terminal, plain lines otherwise; nothing when ``enabled`` is false (``-q``) or ``$PROOFKIT_QUIET`` is
    set."""
    global _sink
    previous = _sink
    stream = sys.stderr if stream is None else stream
    sink: _Plain | _Live | None = None
    if enabled and os.environ.get(ENV, "") in ("", "0"):
        sink = _Live(stream) if _isatty(stream) else _Plain(stream)
    _sink = sink
    try:
        yield
    finally:
        if sink is not None:
            sink.close()
        _sink = previous


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def stage(text: str, plain: bool = True) -> None:
    """The stage a running command is in (shown after a second, replaced by the next stage); ``plain``
    False: on a terminal only (a stage every command passes through, such as loading the theorems, would
    add a line to every log)."""
    if _sink is not None and (plain or isinstance(_sink, _Live)):
        _sink.stage(text)


def done(text: str, total: int | None = None) -> None:
    """One finished unit of a longer run (a theorem of ``check --all``, a value of ``scan``); ``total``:
    the units of the run, given with each finished one, which a terminal shows as a bar with the time
    left."""
    if _sink is not None:
        _sink.done(text, total)


def counter(k: int, n: int) -> str:
    """``[k/n]`` with k padded to n's width, so streamed rows line up."""
    return f"[{k:>{len(str(n))}}/{n}]"


class Tally:
    """The counter of units as they finish: ``tally()`` is ``[k/n]`` for the k-th to finish, so a pool's
    rows, which come in completion order, count up (a row's position in the input would read
    ``[2/33]`` before ``[1/33]``)."""

    def __init__(self, n: int) -> None:
        self.n, self.k = n, 0

    def __call__(self) -> str:
        self.k += 1
        return counter(self.k, self.n)


def note(text: str) -> None:
    """A remark on how the command runs (``-j 1000`` capped by the CPUs), printed like a finished unit:
    only while progress is reported, never on stdout."""
    done(f"proofkit: note: {text}")
