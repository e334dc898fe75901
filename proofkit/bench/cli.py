"""``proofkit bench [--quick] [--json]``: measure the ratio table, store the result, regenerate the docs.

Exit 0 on success, 2 on bad options. The result goes to ``benchmarks/results/`` of proofkit's source tree
(``--out DIR`` elsewhere; an installed package without a source tree stores nothing unless given
``--out``); a complete full run also regenerates ``docs/benchmarks.md`` there (``--docs PATH``
elsewhere). ``--render RESULT.json`` regenerates the page from a stored result without measuring.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..storage.atomic import write_file
from .common import FULL, QUICK, SECTION_NAMES


def add_commands(sub: Any, parser_class: type, add_max_work: Any) -> None:
    """Register ``bench``. Its sizes are fixed per mode (no input grows them), so it takes no
    ``--max-work``: ``add_max_work`` is part of the registration interface only."""
    s = sub.add_parser("bench", help="benchmark ratios measured in one run (table, JSON, docs)")
    s.add_argument("--quick", action="store_true", help="smoke run: small sizes, under a minute")
    s.add_argument("--json", action="store_true", help="print the result object instead of the table")
    s.add_argument("--only", metavar="SECTIONS",
                   help=f"comma-separated sections: {', '.join(SECTION_NAMES)} (default: all)")
    s.add_argument("--out", metavar="DIR", help="folder for the result file (default: benchmarks/results "
                                                "of proofkit's source tree)")
    s.add_argument("--no-save", action="store_true", help="store no result file and leave the docs alone")
    s.add_argument("--docs", metavar="PATH", help="where a complete full run writes the generated page "
                                                  "(default: docs/benchmarks.md of the source tree)")
    s.add_argument("--render", metavar="RESULT", help="write the page from this stored result; measure "
                                                      "nothing")
    s.set_defaults(handler=cmd_bench)


def _note(text: str) -> None:
    print(f"proofkit bench: {text}", file=sys.stderr)


def _render(path: str | Path, target: Path) -> Path:
    from . import docs, machine, suite

    result = suite.load(path)
    page = docs.render(result, docs.source_name(Path(path), machine.source_root()))
    return write_file(target, page, "--docs")


def cmd_bench(args: argparse.Namespace) -> int:
    """Run (or render), print the table or the JSON, store the result and regenerate the page."""
    from . import machine, suite, table  # lazy: the sections load the engine (the CLI starts light)

    root = machine.source_root()
    docs_path = Path(args.docs) if args.docs else (root / "docs" / "benchmarks.md" if root else None)
    if args.render:
        if args.quick or args.only or args.out or args.no_save or args.json:
            raise InputError("--render", "no other option than --docs with --render", args.render)
        if docs_path is None:
            raise InputError("--docs", "a path for the page (no source tree here)")
        _note(f"wrote {_render(args.render, docs_path)}")
        return 0
    if args.no_save and (args.out or args.docs):
        raise InputError("--no-save", "no --out or --docs with --no-save")
    sections = suite.parse_sections(args.only)
    out_dir = None if args.no_save else Path(args.out) if args.out else (
        root / "benchmarks" / "results" if root else None)
    result = suite.run(QUICK if args.quick else FULL, sections)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        table.show(result)
    if out_dir is None:
        if not args.no_save:
            _note("no source tree: the result was not stored (give --out DIR)")
        return 0
    path = suite.save(result, out_dir)
    _note(f"wrote {path}")
    if suite.complete(result) and docs_path is not None:
        _note(f"wrote {_render(path, docs_path)}")
    return 0
