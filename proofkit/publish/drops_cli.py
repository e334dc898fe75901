"""``proofkit drops``: the drop table of :mod:`proofkit.publish.drops` (printed, as JSON, or written into
paper_refs.md between its markers)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..runtime import progress
from ..scale.parallel import jobs_arg
from ..storage import atomic
from . import DROP_PAPERS, records


def add_commands(sub: Any, parser_class: type, add_max_work: Any) -> None:
    """Register ``drops``."""
    from ..engine import MAX_SETTINGS

    s = sub.add_parser("drops", help="drop every assumption of the chosen theorems in turn: certified or "
                       "uncertified counterexample, proven superfluous, empty search (over what), no setting")
    s.add_argument("ids", nargs="*", metavar="ID",
                   help=f"theorem ids (default: the built-in theorems of {', '.join(DROP_PAPERS)})")
    s.add_argument("--budget", type=int, choices=range(1, MAX_SETTINGS + 1), default=4, metavar="N",
                   help="settings the numeric search covers per drop (default 4)")
    s.add_argument("--known", default=None, metavar="DIR",
                   help="stored records replayed where the search is empty (default: counterexamples/)")
    s.add_argument("--write", default=None, metavar="FILE",
                   help="replace the generated drop table inside FILE (e.g. paper_refs.md)")
    s.add_argument("-j", "--jobs", type=jobs_arg, default=1, metavar="N",
                   help="N worker processes (0: one per CPU; default 1); same rows")
    s.add_argument("--json", action="store_true", help="the rows (with timings) as JSON")
    add_max_work(s)
    s.set_defaults(handler=cmd_drops)


def cmd_drops(args: argparse.Namespace) -> int:
    from . import drops  # the engine: loaded when the table is computed, not for --help

    thms = drops.chosen(args.ids)
    if not any(t.assumptions for t in thms):
        raise InputError("ID", "a theorem with assumptions", ", ".join(args.ids))
    path = Path(args.write) if args.write else None
    text = None
    if path is not None:  # before the work: a bad --write costs nothing
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError("--write", "a readable UTF-8 file", f"{args.write} ({exc})") from None
    progress.stage(f"drops: {sum(len(t.assumptions) for t in thms)} assumption(s) of {len(thms)} theorem(s)")
    rows = drops.run(thms, budget=args.budget, known_folder=records.folder(args.known), dps=60, seed=0,
                     jobs=args.jobs)
    if args.json:
        print(json.dumps({"format": "proofkit-drops/1", "budget": args.budget,
                          "rows": [r.as_dict() for r in rows]}, indent=1))
    block = drops.table(rows, args.budget)
    if path is None:
        if not args.json:
            print(block)
        return 0
    print(atomic.write_file(path, drops.replace_block(text, block), "--write"), file=sys.stderr)
    return 0
