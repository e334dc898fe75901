"""``proofkit sweep SPEC [--out DIR] [-j N | --scheduler ADDRESS] [--force] [--json]``: one progress line
per completed point on stderr (``[k/n] T=2 -> holds (1.2 s)``, silenced by ``-q``), the summary on stdout.

Exit codes: 0 the sweep completed, whatever the verdicts (a sweep reports; the statuses are in the table,
the point files and ``--json``); 2 bad input (the spec, the folder, a scheduler that does not answer, or a
point refused as bad input, e.g. by the work cap: the other points are still computed and written); 3 a
point could not be computed (its worker crashed); a rerun computes the points that were not written.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..runtime import progress
from ..scale.parallel import jobs_arg
from . import DASK_HINT

if TYPE_CHECKING:  # the engine loads when a sweep runs, not when --help is built
    from ..language.spec import Theorem
    from .spec import SweepSpec
    from .summary import Entry


def add_commands(sub: Any, parser_class: type, add_max_work: Any) -> None:
    """The ``sweep`` subcommand (``parser_class`` is the CLI's: bad usage is one line, exit 2)."""
    s = sub.add_parser("sweep", help="a theorem over a parameter grid, one result file per point, resumable "
                       "(docs/sweeps.md)")
    s.add_argument("spec", metavar="SPEC", help="the sweep spec, a JSON file (TOML with Python 3.11+)")
    s.add_argument("--out", default=None, metavar="DIR", help="the sweep folder (default: the spec's out)")
    s.add_argument("-j", "--jobs", type=jobs_arg, default=1, metavar="N",
                   help="N worker processes (0: one per CPU; default 1); same point files")
    s.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help=f"run the points on the Dask scheduler at ADDRESS (tcp://HOST:PORT); needs "
                        f"{DASK_HINT}")
    s.add_argument("--force", action="store_true",
                   help="use DIR although it holds another spec's sweep (its manifest is replaced; point "
                        "files are kept and reused where the key matches) or other files")
    s.add_argument("--json", action="store_true", help="the summary as JSON")
    add_max_work(s)
    s.set_defaults(handler=cmd_sweep)


def _warn(line: str) -> None:
    """A line on stderr that -q does not silence (a point file recomputed, a point not computed)."""
    print(line, file=sys.stderr, flush=True)


def cmd_sweep(args: argparse.Namespace) -> int:
    """Validate the spec, connect to the scheduler if any, open (or resume) the folder, compute the points
    not yet there, print the summary; the exit code of the module docstring."""
    from ..storage import formats
    from . import runner, store
    from .spec import load
    from .summary import summarize, text

    t0 = time.perf_counter()
    spec, theorem = load(args.spec)
    if args.scheduler is not None and args.jobs != 1:
        raise InputError("-j", "no -j with --scheduler (the cluster's workers run the points)", args.jobs)
    folder = args.out if args.out is not None else spec.out
    if folder is None:
        raise InputError("--out", "a sweep folder: --out DIR, or out in the spec")
    out = Path(folder)
    client = runner.connect(args.scheduler) if args.scheduler is not None else None  # before any write
    try:
        store.open_folder(out, spec, force=args.force)
        entries = _run(args, spec, theorem, out, client)
    finally:
        if client is not None:
            client.close()
    summary = summarize(spec, theorem, entries, str(out), time.perf_counter() - t0)
    print(json.dumps(formats.stamp("sweep", summary), indent=1) if args.json else
          text(spec, entries, summary))
    if any(e.bad_input for e in entries):
        return 2
    return 3 if summary["failed"] else 0


def _run(args: argparse.Namespace, spec: SweepSpec, theorem: Theorem, out: Path, client: Any) -> list[Entry]:
    """Resume what the folder holds, compute the rest, write each result as it completes."""
    from . import runner, store
    from .summary import Entry, coordinates, label

    entries, calls, idents = [], [], {}
    records = str((out / store.RECORDS).resolve()) if spec.search else None
    first = next(iter(spec.grid))
    for point in spec.points():
        ident = store.identity(spec, theorem, point)
        key = store.key(ident)
        body, why = store.read_point(out, key, ident)
        if why:
            _warn(f"proofkit: warning: {why}; computing the point again")
        entries.append(Entry(point, key, body, resumed=body is not None))
        if body is None:
            idents[key] = ident
            base = {k: v for k, v in point.overrides.items() if k != first}
            calls.append(runner.Call(key, (spec.theorem, first, point.grid[first], base, spec.dps,
                                           point.seed, spec.search, records)))
    total, done = len(entries), len(entries) - len(calls)
    if done:
        progress.done(f"resuming: {done} of {total} points already computed in {out}")
    by_key = {e.key: e for e in entries}
    outcomes = runner.run_dask(client, calls) if client is not None else runner.run_local(calls, args.jobs)
    for outcome in outcomes:
        entry, done = by_key[outcome.key], done + 1
        where = f"{progress.counter(done, total)} {label(coordinates(spec, entry.point))} ->"
        if outcome.row is None:
            entry.error, entry.bad_input = outcome.error, outcome.bad_input
            _warn(f"{where} not computed: {outcome.error}")
            continue
        entry.body = store.point_body(idents[outcome.key], outcome.key, outcome.row, out)
        store.write_point(out, entry.body)
        progress.done(f"{where} {entry.body['status']} ({entry.body['elapsed_s']:.1f} s)", total=len(calls))
    return entries
