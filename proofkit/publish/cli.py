"""Subcommands ``cite``, ``bundle``, ``verify-bundle`` (:func:`add_commands`) and ``report``
(:func:`add_report_arguments`, :func:`report_main`).

Exit codes. ``report``: 0 every verdict equals its theorem file's expectation, 1 one does not (as
``check --all``), 2 bad input. ``cite`` and ``bundle``: 0, or 2 for bad input (an unknown id is one line).
``verify-bundle``: 0 every field, verdict, record and certificate reproduces, 1 one does not, or the bundle
was altered after it was written or is forged (a duplicate claim name or record), 2 bad input (not a
bundle, or a re-check above --max-work), 3 the theorem is not registered here.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ..errors import InputError, did_you_mean
from ..language import registry
from ..language.tolerances import MAX_DPS, MIN_DPS
from ..runtime import progress
from ..scale import parallel
from ..scale.parallel import jobs_arg
from ..storage import atomic
from ..storage.formats import stamp
from . import figures, records  # light; the rest of publish (and the engine) loads in the handlers

#: the formats of --format (render.FORMATS's names, here so --help and TAB need not load the renderer)
REPORT_FORMATS = ("md", "latex", "csv", "json")
#: the file a report writes per format under --out: verdicts.<extension>
REPORT_STEM = "verdicts"
RECORDS_HELP = ("folder of counterexample records (default: counterexamples/ of proofkit's source tree, else "
                "./counterexamples)")


def _int_arg(name: str, lo: int, hi: int) -> Any:
    def parse(text: str) -> int:
        expected = f"{name}: expected an integer in [{lo}, {hi}]"
        if not text.isascii() or not text.strip().lstrip("+").isdigit():
            raise argparse.ArgumentTypeError(f"{expected}, got {text!r}")
        value = int(text)
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{expected}, got {value}")
        return value
    return parse


def add_commands(sub: Any, parser_class: type, add_max_work: Any) -> None:
    """``cite``, ``bundle`` and ``verify-bundle`` (``parser_class``: the CLI's, bad usage is one line)."""
    s = sub.add_parser("cite", help="what to cite for a theorem: the paper's BibTeX, proofkit's, and the "
                       "evidence bundle's SHA-256 (docs/citing.md)")
    s.add_argument("id", help="a theorem id (proofkit list)")
    s.add_argument("--no-bundle", action="store_true",
                   help="skip the evidence bundle's hash (computing it runs the check)")
    s.add_argument("--records", default=None, metavar="DIR", help=RECORDS_HELP)
    s.add_argument("--json", action="store_true", help="as a JSON object")
    add_max_work(s)
    s.set_defaults(handler=cmd_cite)
    s = sub.add_parser("bundle", help="an evidence bundle: spec, inputs, verdict, records, environment, "
                       "SHA-256 (docs/citing.md)")
    s.add_argument("id", help="a theorem id (proofkit list)")
    s.add_argument("--out", default=None, metavar="FILE", help="write the bundle here (default: stdout)")
    s.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="a parameter (repeatable)")
    s.add_argument("--seed", type=_int_arg("--seed", 0, 2**32 - 1), default=0, help="seed (default 0)")
    s.add_argument("--dps", type=_int_arg("--dps", MIN_DPS, MAX_DPS), default=MIN_DPS,
                   help=f"working decimal digits, {MIN_DPS}..{MAX_DPS} (default {MIN_DPS})")
    s.add_argument("--records", default=None, metavar="DIR", help=RECORDS_HELP)
    add_max_work(s)
    s.set_defaults(handler=cmd_bundle)
    s = sub.add_parser("verify-bundle", help="re-derive an evidence bundle here and compare every field: "
                       "hash, specification, citation, pins, every claim, the record set, every certificate "
                       "(exit 0 iff all reproduce)")
    s.add_argument("file", help="a bundle written by proofkit bundle")
    s.add_argument("--records", default=None, metavar="DIR",
                   help="the records folder the bundle's record set must equal (default: counterexamples/ of "
                   "proofkit's source tree, else ./counterexamples)")
    s.add_argument("--json", action="store_true", help="as a JSON object")
    add_max_work(s)
    s.set_defaults(handler=cmd_verify_bundle)


def cmd_cite(args: argparse.Namespace) -> int:
    from . import bundle, cite

    thm = registry.get(args.id)
    sha = None
    if not args.no_bundle:
        sha = bundle.build(thm, seed=0, dps=MIN_DPS, records_folder=records.folder(args.records))["sha256"]
    c = cite.citation(thm, sha)
    print(json.dumps(stamp("cite", c), indent=1) if args.json else cite.text(c))
    return 0


def cmd_bundle(args: argparse.Namespace) -> int:
    from . import bundle

    thm = registry.get(args.id)
    overrides = thm.params.parse_sets(args.set)
    folder = records.folder(args.records)
    if args.out is not None:  # a bad --out costs nothing: checked before the check runs
        atomic.prepare_folder(Path(args.out).parent, "--out", create=False)
    b = bundle.build(thm, overrides, seed=args.seed, dps=args.dps, records_folder=folder)
    text = bundle.dumps(b)
    if args.out is None:
        print(text, end="")
        return 0
    path = atomic.write_file(args.out, text, "--out")
    print(f"{path}: {thm.id} {b['verdict']['verdict']}, {len(b['verdict']['claims'])} claims, "
          f"{len(b['records'])} records; sha256 {b['sha256']}")
    return 0


def cmd_verify_bundle(args: argparse.Namespace) -> int:
    from . import bundle
    from . import verify as verifying

    v = verifying.verify(bundle.load(args.file), args.file, records.folder(args.records))
    print(json.dumps(stamp("verify-bundle", v.as_dict()), indent=1) if args.json else v.text())
    if v.status == "unregistered":
        return 3
    return 0 if v.reproduces else 1


# ----------------------------------------------------------------------------------------------- report
def add_report_arguments(s: argparse.ArgumentParser) -> None:
    """The ``report`` subcommand's arguments; its handler is :func:`report_main`."""
    s.add_argument("ids", nargs="*", metavar="ID", help="theorems to report (default: every registered one)")
    fmt = s.add_argument("--format", default=None, metavar="FMT",
                         help="md, latex, csv or json, or several comma-separated with --out (default md)")
    fmt.completions = REPORT_FORMATS  # what TAB offers (the value is a comma-separated list)
    s.add_argument("--out", default=None, metavar="DIR",
                   help=f"write {REPORT_STEM}.<md|tex|csv|json> (and figures) into DIR instead of stdout")
    s.add_argument("--figures", action="store_true",
                   help=f"also write figures and their data into --out DIR (needs {figures.HINT})")
    s.add_argument("--standalone", action="store_true",
                   help="with --format latex: a complete two-column document instead of a fragment to "
                        "\\input (docs/report.md)")
    s.add_argument("--records", default=None, metavar="DIR", help=RECORDS_HELP)
    s.add_argument("-j", "--jobs", type=jobs_arg, default=1, metavar="N",
                   help="N worker processes for the checks (0: one per CPU; default 1); same table")
    s.add_argument("--tables", action="store_true",
                   help="instead: the paper tables reproduced row by row (theorems *.TAB* by default)")
    s.add_argument("--json", action="store_true",
                   help="with --tables: as JSON; else the same as --format json")
    s.add_argument("--paper-refs", action="store_true",
                   help="instead: paper_refs.md's summary tables of the built-in theorems, from their "
                        "claims, readings and expected verdicts (no check is run)")
    s.add_argument("--coverage", action="store_true",
                   help="instead: paper_refs.md's proof-coverage tables of the built-in theorems, from "
                        "their proof walks (every equation of a proof, checked or with its reason; no check "
                        "is run)")
    s.add_argument("--write", default=None, metavar="FILE",
                   help="with --paper-refs or --coverage: replace the generated tables inside FILE "
                        "(e.g. paper_refs.md)")
    s.set_defaults(handler=report_main)


def _formats(args: argparse.Namespace) -> list[str]:
    from . import render

    if args.json and args.format not in (None, "json"):
        raise InputError("--json", "no --json with --format other than json", args.format)
    names = [f.strip() for f in (args.format or ("json" if args.json else "md")).split(",") if f.strip()]
    bad = [f for f in names if f not in render.FORMATS]
    if bad or not names:
        raise InputError("--format", "md, latex, csv or json (comma-separated)"
                         + did_you_mean(bad[0] if bad else "", render.FORMATS), args.format)
    if len(names) > 1 and args.out is None:
        raise InputError("--format", "one format on stdout (several need --out DIR)", args.format)
    return list(dict.fromkeys(names))


def _paper_tables(args: argparse.Namespace) -> int:
    """The former ``report``: paper tables row by row, with the toolkit's verdict and evidence."""
    from ..engine.check import check
    from ..render import report

    if args.format or args.out or args.figures:
        raise InputError("--tables", "no --format, --out or --figures with --tables")
    thms = [registry.get(i) for i in args.ids] or [t for t in registry.load_all().values() if ".TAB" in t.id]
    results = [check(t) for t in thms]
    obj = [{"id": r.id, "title": t.title, "rows": [c.as_dict() for c in r.claims]}
           for t, r in zip(thms, results)]
    print(json.dumps(obj, indent=1, default=str) if args.json else
          "\n\n".join(report.table_rows(t, r) for t, r in zip(thms, results)))
    return 0 if all(r.as_expected() for r in results) else 1


def _paper_refs(args: argparse.Namespace) -> int:
    """paper_refs.md's generated summary tables (``--paper-refs``) or proof-coverage tables
    (``--coverage``) of the built-in theorems, printed or written into ``--write FILE`` between their
    markers."""
    from . import coverage, refs

    if not (args.paper_refs or args.coverage):
        raise InputError("--write", "--paper-refs or --coverage (they write paper_refs.md's generated "
                                    "tables)")
    flag = "--coverage" if args.coverage else "--paper-refs"
    if args.paper_refs and args.coverage:
        raise InputError("--coverage", "one of --paper-refs and --coverage per command")
    if args.ids or args.format or args.out or args.figures or args.tables:
        raise InputError(flag, "no theorem ids, --format, --out, --figures or --tables with it")
    builtin = [t for t in registry.load_all().values() if registry.where(t.id)[1].kind == "builtin"]
    block = coverage.block(builtin) if args.coverage else refs.summary(builtin)
    if args.write is None:
        print(block)
        return 0
    path = Path(args.write)
    try:
        text = path.read_text(encoding="utf-8")
        new = (coverage if args.coverage else refs).replace_block(text, block)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise InputError("--write", "a readable UTF-8 file holding the generated-table markers",
                         f"{args.write} ({exc})") from None
    print(atomic.write_file(path, new, "--write"))
    return 0


def report_main(args: argparse.Namespace) -> int:
    """``proofkit report``: check every (or every named) theorem at its defaults and write the verdict
    table in the chosen formats, and figures with --figures."""
    from . import render, table

    if args.tables:
        return _paper_tables(args)
    if args.paper_refs or args.coverage or args.write is not None:
        return _paper_refs(args)
    formats = _formats(args)
    if args.standalone and "latex" not in formats:
        raise InputError("--standalone", "--format latex (it makes the LaTeX a complete document)",
                         ",".join(formats))
    if args.figures and args.out is None:
        raise InputError("--figures", "--out DIR (figures are written as files)")
    if args.figures:
        figures.require_matplotlib()
    thms = list(registry.load_all().values()) if not args.ids else [registry.get(i) for i in args.ids]
    stored = records.load_folder(records.folder(args.records))
    out_dir = atomic.prepare_folder(args.out, "--out", create=True) if args.out is not None else None

    tally, width = progress.Tally(len(thms)), max(len(t.id) for t in thms)

    def done(i: int, res: Any) -> None:
        progress.done(f"{tally()} {res.id:{width}s} {res.verdict} "
                      f"({res.elapsed_s:.1f} s)", total=len(thms))

    from ..engine.check import check_id

    results = parallel.run_all(check_id, [(t.id, MIN_DPS, 0) for t in thms], args.jobs, on_done=done)
    base = out_dir if out_dir is not None else Path.cwd()
    rows = [row for t, r in zip(thms, results)
            for row in table.rows(t, r, records.for_theorem(stored, t.id), base)]
    prov = table.provenance()
    for name in formats:
        write, ext = render.FORMATS[name]
        if name == "latex" and args.standalone:
            write = render.to_latex_document
        if out_dir is None:
            print(write(rows, prov), end="")
        else:
            print(atomic.write_file(out_dir / f"{REPORT_STEM}.{ext}", write(rows, prov), "--out"))
    if args.figures and out_dir is not None:
        for path in figures.write_all(out_dir, args.jobs):
            print(path)
    return 0 if all(r.as_expected() for r in results) else 1
