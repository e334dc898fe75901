"""Command line: ``proofkit list|show|check|falsify|scan|replay|completion`` and the subcommands of
:data:`COMMAND_MODULES`. A thin layer over the API; help texts, examples and exit codes in ``--help``
(:mod:`proofkit.interface.clihelp`), a runnable ``reproduce:`` line after every verdict
(:mod:`proofkit.render.reproduce`).

Exit codes: 0 holds / as expected, 1 refuted / regression, 2 bad input, 3 inconclusive. Bad input and
an engine that cannot evaluate a theorem as written (e.g. the inverse of a non-square matrix) are one
line on stderr, never a traceback; the latter is inconclusive (3), never refuted.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import MAX_ECHO, MAX_EXPECTED, InputError, cap_text, did_you_mean
from ..language.verdict import TheoremResult, Verdict
from ..runtime import progress, workguard
from ..storage.atomic import prepare_folder

# light imports only: importing the CLI (and ``proofkit --version``) must not load sympy, scipy or the
# theorem registry; the engine modules are imported by the commands that use them
from . import clihelp, completion

#: modules whose ``add_commands(sub, parser_class, add_max_work)`` adds subcommands; a subcommand added
#: there either sets ``handler`` (``set_defaults(handler=fn)``, fn(args) -> exit code) or is crasp's
COMMAND_MODULES = ("proofkit.crasp.tools.cli", "proofkit.sweep.cli", "proofkit.bench.cli",
                   "proofkit.publish.cli", "proofkit.interface.formats_cli", "proofkit.kernel.cli",
                   "proofkit.publish.drops_cli", "proofkit.publish.plot_cli")

EXIT = {Verdict.CERTIFIED: 0, Verdict.CONFIRMED: 0, Verdict.REFUTED: 1, Verdict.INCONCLUSIVE: 3}
#: a claim's own code raised: an internal error, never a verdict
EXIT_ERROR = 4


def _dps(text: str) -> int:
    """Working precision: an integer in [MIN_DPS, MAX_DPS] (below MIN_DPS nothing is decided)."""
    from ..language.tolerances import MAX_DPS, MIN_DPS

    expected = f"--dps: expected an integer in [{MIN_DPS}, {MAX_DPS}]"
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{expected}, got {text!r}") from None
    if not MIN_DPS <= value <= MAX_DPS:
        raise argparse.ArgumentTypeError(f"{expected}, got {value}")
    return value


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--seed: expected a non-negative integer, got {text!r}") from None
    if value < 0 or value >= 2**32:
        raise argparse.ArgumentTypeError(f"--seed: expected an integer in [0, 2^32), got {value}")
    return value


def _budget(text: str) -> int:
    from ..engine import MAX_SETTINGS

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--budget: expected an integer in [1, {MAX_SETTINGS}], got "
                                         f"{text!r}") from None
    if not 1 <= value <= MAX_SETTINGS:
        raise argparse.ArgumentTypeError(f"--budget: expected an integer in [1, {MAX_SETTINGS}], got {value}")
    return value


def _max_work(text: str) -> int:
    try:
        return workguard.parse_cap(text, "--max-work")
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


MAX_WORK_HELP = (f"refuse work estimated above this many units (about 1.5 ns each; default "
                 f"{workguard.DEFAULT_MAX_WORK:.0e}, also ${workguard.ENV}); see "
                 "proofkit/runtime/workguard.py")


def add_max_work(s: argparse.ArgumentParser, top: bool = False) -> None:
    """--max-work and -q, accepted before or after the subcommand (a subcommand's default never hides
    the top-level value)."""
    s.add_argument("--max-work", type=_max_work, default=None if top else argparse.SUPPRESS,
                   metavar="UNITS", help=MAX_WORK_HELP)
    s.add_argument("-q", "--quiet", action="store_true", default=False if top else argparse.SUPPRESS,
                   help="no progress on stderr (rows as they finish, the running stage after 1 s; also "
                        "$PROOFKIT_QUIET=1)")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # bad usage is bad input: one line, exit 2
        # argparse quotes unrecognized arguments whole: cap the line like every other input error
        line = cap_text(_suggest(self, message), MAX_EXPECTED + MAX_ECHO)
        print(f"proofkit: error: {line}", file=sys.stderr)
        raise SystemExit(2)


_INVALID_CHOICE = re.compile(r"invalid choice: '(?P<got>[^']*)' \(choose from (?P<choices>.*)\)$")
_UNRECOGNIZED = re.compile(r"unrecognized arguments: (?P<got>\S+)")


def _suggest(parser: argparse.ArgumentParser, message: str) -> str:
    """argparse's message with the closest name added: a subcommand or choice (``proofkit chek``: did you
    mean check?) or an option (``--theorem``: did you mean --theorems?)."""
    if m := _INVALID_CHOICE.search(message):
        choices = re.findall(r"'([^']*)'", m["choices"])
        hint = did_you_mean(m["got"], choices)
        return message.replace(" (choose from", f"{hint} (choose from", 1) if hint else message
    if (m := _UNRECOGNIZED.search(message)) and m["got"].startswith("-"):
        # the top parser reports a subcommand's leftovers: the options of the subcommand typed count
        typed = [a for a in getattr(parser, "argv", sys.argv[1:]) if not a.startswith("-")][:2]
        options = [o for sub in _parsers(parser) if sub.prog.split()[1:] == typed[:len(sub.prog.split()) - 1]
                   for a in sub._actions for o in a.option_strings]
        flag = m["got"].split("=", 1)[0]
        elsewhere = [" ".join(sub.prog.split()[1:]) for sub in _parsers(parser)[1:]
                     if flag in sub._option_string_actions]
        if elsewhere:  # check AM24.T4 --drop A8: an option of other subcommands, not a typo
            return message + f" ({flag} is an option of: {', '.join(dict.fromkeys(elsewhere))})"
        return message + did_you_mean(flag, options)
    return message


def _parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """The parser and its subcommands' parsers, at every depth."""
    out = [parser]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                out += _parsers(sub)
    return out


class _Version(argparse.Action):
    """``--version``: the version line (its git commit looked up only when asked)."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        print(clihelp.version_line())
        parser.exit()


def _command(sub: Any, name: str, help: str) -> argparse.ArgumentParser:
    """A subcommand whose --help ends with its examples and exit codes (``clihelp.epilog``)."""
    return sub.add_parser(name, help=help, description=help[0].upper() + help[1:] + ".",
                          epilog=clihelp.epilog(name), formatter_class=argparse.RawDescriptionHelpFormatter)


def _json(s: argparse.ArgumentParser, what: str = "the result", verdict: bool = True,
          extra: str = "") -> None:
    s.add_argument("--json", action="store_true", help=f"{what} as JSON on stdout"
                   + (" (with the line that reproduces it as \"reproduce\")" if verdict else "") + extra)


def build_parser() -> argparse.ArgumentParser:
    from ..language import registry
    from ..language.tolerances import MAX_DPS, MIN_DPS
    from ..numerics import arrays
    from ..scale.parallel import jobs_arg

    p = _Parser(prog="proofkit", description=clihelp.DESCRIPTION, epilog=clihelp.epilog(),
                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action=_Version, help="print the version (and git commit) and exit")
    p.add_argument("--theorems", action="append", default=[], metavar="DIR",
                   help=f"a folder of your own theorem files, added to the built-in ones (repeatable; "
                        f"also ${registry.ENV}, os.pathsep-separated); see docs/user_theorems.md")
    add_max_work(p, top=True)
    p.add_argument("--backend", choices=arrays.CLI_BACKENDS, default=None,
                   help=f"array namespace of the batched float64 screens (default numpy, also "
                        f"${arrays.ENV}); cupy needs the gpu extra and a CUDA device. Exact and ball "
                        f"stages always run on the CPU core")
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=_Parser, metavar="COMMAND")
    s = sub.add_parser("list", help="the encoded theorems: id, title, paper")
    _json(s, "the list", verdict=False)
    s = sub.add_parser("show", help="statement, assumptions, claims, parameters of a theorem")
    s.add_argument("id", help="theorem id (see proofkit list)")
    s.add_argument("--json", action="store_true", help="as JSON, the statement as text and as LaTeX")
    s.add_argument("--latex", action="store_true", help="the statement as LaTeX (sympy.latex) only")
    s.add_argument("--drop", action="append", default=[], metavar="ASSUMPTION_ID",
                   help="the statement without this assumption's hypothesis (repeatable)")

    def common(s: argparse.ArgumentParser, json_extra: str = "") -> None:
        s.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                       help="a theorem parameter (repeatable; proofkit show ID lists them). A parameter "
                            "that follows another (learned_dim follows n) moves with it unless set itself")
        s.add_argument("--dps", type=_dps, default=MIN_DPS,
                       help=f"working decimal digits, {MIN_DPS}..{MAX_DPS} (default {MIN_DPS})")
        s.add_argument("--seed", type=_seed, default=0,
                       help="seed of every random choice: fits, samples, search (default 0)")
        _json(s, extra=json_extra)
        add_max_work(s)

    s = _command(sub, "check", "decide every claim of a theorem (or --all)")
    s.add_argument("id", nargs="?", help="theorem id (see proofkit list); or --all")
    s.add_argument("--all", action="store_true",
                   help="every theorem: the verdict table; exit 0 iff every verdict is the expected one")
    s.add_argument("-j", "--jobs", type=jobs_arg, default=1, metavar="N",
                   help="with --all: N worker processes (0: one per CPU; default 1); same verdicts")
    common(s, "; with --all one document per theorem, a line each (JSON lines, docs/formats.md)")
    s = _command(sub, "falsify", "search for a counterexample under a variant")
    s.add_argument("id", help="theorem id (see proofkit list)")
    s.add_argument("--drop", action="append", default=[], metavar="ASSUMPTION_ID",
                   help="search without this assumption: every parameter setting the remaining "
                        "assumptions allow, its declared variant first (repeatable; proofkit show ID "
                        "lists them)")
    s.add_argument("--out", default="counterexamples", metavar="DIR",
                   help="folder for counterexample records (default counterexamples)")
    s.add_argument("--no-shrink", action="store_true",
                   help="keep the given dimensions (by default a counterexample is searched at smaller ones)")
    s.add_argument("--budget", type=_budget, default=4, metavar="N",
                   help="with --drop: settings the numeric search covers (default 4; the exact constructions "
                        "cover every setting the remaining assumptions allow)")
    s.add_argument("--expect-counterexample", action="store_true",
                   help="for scripts: exit 0 iff a counterexample is found (1 when none is)")
    s.add_argument("--known", default=None, metavar="DIR",
                   help="stored records replayed before the search (default: the source tree's "
                        "counterexamples/, else ./counterexamples); the first that bears on the drop and "
                        "reproduces is the answer")
    s.add_argument("--no-known", action="store_true",
                   help="search without replaying stored records first")
    common(s)
    s = _command(sub, "scan", "verdict per parameter value and the threshold")
    s.add_argument("id", help="theorem id (see proofkit list)")
    s.add_argument("--param", required=True, metavar="NAME", help="the parameter to scan")
    s.add_argument("--values", required=True, metavar="V1,V2,...", help="comma-separated values of --param")
    s.add_argument("--no-search", action="store_true", help="check only; no counterexample search")
    s.add_argument("--out", default=None, metavar="DIR",
                   help="folder for counterexample records (default: none written)")
    s.add_argument("-j", "--jobs", type=jobs_arg, default=1, metavar="N",
                   help="N worker processes over the values (0: one per CPU; default 1); same rows")
    common(s)
    s = sub.add_parser("report", help="the verdict table of every encoded result (md, latex, csv, json), "
                       "figures; --tables: the paper tables")
    importlib.import_module("proofkit.publish.cli").add_report_arguments(s)  # handler: report_main
    add_max_work(s)
    for module in COMMAND_MODULES:  # subcommands that live beside their engine (crasp, sweep, bench)
        importlib.import_module(module).add_commands(sub, _Parser, add_max_work)
    s = _command(sub, "replay", "recompute a counterexample record")
    s.add_argument("file", metavar="FILE", help="a counterexample record (JSON) written by falsify or scan")
    _json(s)
    add_max_work(s)
    s = _command(sub, "completion", "print a shell completion script")
    s.add_argument("shell", choices=completion.SHELLS, help="the shell to complete in")
    _globals_everywhere(p)
    return p


def _globals_everywhere(parser: argparse.ArgumentParser) -> None:
    """Give every subcommand (at any depth) the global options it lacks, so they are accepted after the
    subcommand too, where users type them (``proofkit check AM24.T4 --backend numpy``): given there,
    ``--theorems`` adds to the folders given before, the others replace the value given before."""
    top = {a.dest: a for a in parser._actions}
    for sp in _parsers(parser)[1:]:
        have = sp._option_string_actions
        if "--theorems" not in have:
            sp.add_argument("--theorems", action="append", dest="theorems_after", default=argparse.SUPPRESS,
                            metavar="DIR", help=top["theorems"].help)
        if "--backend" not in have:
            sp.add_argument("--backend", choices=top["backend"].choices, default=argparse.SUPPRESS,
                            help=top["backend"].help)
        if "--max-work" not in have:
            sp.add_argument("--max-work", type=_max_work, default=argparse.SUPPRESS, metavar="UNITS",
                            help=MAX_WORK_HELP)
        if "--quiet" not in have and "-q" not in have:
            sp.add_argument("-q", "--quiet", action="store_true", default=argparse.SUPPRESS,
                            help=top["quiet"].help)


def _emit(args: argparse.Namespace, obj: Any, text: str) -> None:
    """The text, or with --json the object stamped with its published format (docs/formats.md)."""
    from ..storage import formats
    print(json.dumps(formats.stamp(args.cmd, obj), indent=1, default=str) if args.json else text)


def cmd_list(args: argparse.Namespace) -> int:
    from ..language import registry
    thms = registry.load_all()
    items = [{"id": t.id, "title": t.title, "paper": str(t.paper)} for t in thms.values()]
    _emit(args, items, "\n".join(f"{t['id']:10s} {t['title']}  [{t['paper']}]" for t in items))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from ..language import registry
    from ..publish.spec_json import theorem_json
    from ..render import report

    thm = registry.get(args.id)
    obj = theorem_json(thm, args.drop)
    if args.latex and not args.json:
        print(obj["statement_latex"])
        return 0
    _emit(args, obj, report.show(thm, args.drop))
    return 0


def _set_texts(args: argparse.Namespace) -> dict[str, str]:
    """The --set items as typed (name -> value text), for reproduce lines (parsed before this is used)."""
    return {k.strip(): v.strip() for k, v in (item.split("=", 1) for item in args.set)}


def _text(value: Any) -> str:
    """A parameter value as --set / --values read it."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _reproduce(args: argparse.Namespace, theorem_id: str | None = None,
               values: str | None = None) -> str | None:
    """The runnable line that recomputes this command's verdict (for check --all: one theorem's, given
    ``theorem_id``; for scan: one value's, given ``values``); None for commands without a verdict."""
    from ..render import reproduce
    if args.cmd == "replay":
        return reproduce.line("replay", extra=[str(Path(args.file).resolve())])
    if args.cmd not in ("check", "falsify", "scan"):
        return None
    extra: list[str] = []
    if args.cmd == "check" and theorem_id is None and args.all:
        extra.append("--all")
    if args.cmd == "falsify":
        extra += ["--no-shrink"] * args.no_shrink + ["--expect-counterexample"] * args.expect_counterexample
        extra += ["--budget", str(args.budget)] * (args.budget != 4)
    if args.cmd == "scan":
        extra += ["--param", args.param, "--values", values or args.values] + ["--no-search"] * args.no_search
    return reproduce.line(args.cmd, theorem_id or args.id, sets=_set_texts(args), seed=args.seed,
                          dps=args.dps, drops=args.drop if args.cmd == "falsify" else (), extra=extra)


def cmd_check(args: argparse.Namespace) -> int:
    from ..engine.check import check
    from ..language import registry
    from ..render import report
    from ..scale import parallel
    from ..storage import formats

    if args.all == bool(args.id):
        raise InputError("check", "a theorem id or --all (exactly one)")
    thms = list(registry.load_all().values()) if args.all else [registry.get(args.id)]
    if args.all and args.set:
        raise InputError("--set", "no --set with --all (parameters differ between theorems)")
    sets = thms[0].params.parse_sets(args.set) if not args.all else {}
    results: list[TheoremResult] = []

    def as_json(res: TheoremResult) -> str:
        return json.dumps(formats.stamp("check", dict(res.as_dict(), reproduce=_reproduce(args, res.id))),
                          default=str)

    tally, width = progress.Tally(len(thms)), max(len(t.id) for t in thms)

    def emit(i: int, res: TheoremResult) -> None:  # as each theorem is decided (pool: completion order)
        if args.all:
            progress.done(f"{tally()} {res.id:{width}s} {res.label}"
                          f"{'' if res.as_expected() else '  (NOT as expected)'} ({res.elapsed_s:.1f} s)",
                          total=len(thms))
        elif not args.json:
            print(report.theorem_detail(res) + f"\nreproduce: {_reproduce(args, res.id)}")
        if args.json and args.jobs <= 1:
            print(as_json(res), flush=True)

    if args.all and args.jobs > 1:  # pooled: rows stream on stderr, stdout in input order at the end
        calls = [(t.id, args.dps, args.seed) for t in thms]
        from ..engine.check import check_id

        results = parallel.run_all(check_id, calls, args.jobs, on_done=emit)
        if args.json:
            for res in results:
                print(as_json(res), flush=True)
    else:
        for i, t in enumerate(thms):
            results.append(check(t, sets, dps=args.dps, seed=args.seed))
            emit(i, results[-1])
    if args.all:
        if not args.json:
            print(report.verdict_table(results))
            for r in results:
                for e in r.errata:
                    print(f"erratum {r.id}: printed {e.printed}; holds: {e.found} ({e.residual})")
            for r in results:
                if not r.as_expected():
                    print(f"reproduce {r.id}: {_reproduce(args, r.id)}")
            print(f"reproduce: {_reproduce(args)}")
        if any(r.errors for r in results):
            for r in results:
                for c in r.errors:
                    print(f"ERROR {r.id}: claim {c.name!r} raised {c.error} (internal error, no verdict)")
            return EXIT_ERROR
        return 0 if all(r.as_expected() for r in results) else 1
    if results[0].errors:
        return EXIT_ERROR
    return EXIT[results[0].verdict]


def cmd_falsify(args: argparse.Namespace) -> int:
    from ..engine.falsify import falsify
    from ..language import registry
    from ..publish import records
    from ..render import report
    from ..storage import record
    from ..storage.record import RecordWriteError

    thm = registry.get(args.id)
    for aid in args.drop:
        thm.assumption(aid)
    overrides = thm.params.parse_sets(args.set)
    out_dir = prepare_folder(args.out, "--out", create=True)  # before the search: a bad --out costs nothing
    if args.no_known and args.known is not None:
        raise InputError("--known", "no --known DIR with --no-known", args.known)
    known_folder = None if args.no_known else records.folder(args.known)
    try:
        res = falsify(thm, args.drop, overrides, dps=args.dps, seed=args.seed,
                      shrink=not args.no_shrink, out_dir=out_dir, known_folder=known_folder,
                      budget=args.budget)
    except RecordWriteError as exc:  # the search finished: never lose its result silently
        if exc.saved is None:
            print(exc.text, end="")
        raise
    wanted = record.filename(res.record) if res.record_path and res.record is not None else None
    if wanted is not None and Path(res.record_path).name != wanted:  # docs/records.md: never replaced
        print(f"proofkit: note: {Path(res.record_path).with_name(wanted)} holds a different record; "
              f"kept it and wrote this one as {res.record_path}", file=sys.stderr)
    line = _reproduce(args)
    _emit(args, dict(res.as_dict(), reproduce=line),
          report.falsify_text(res, thm, overrides, args.drop) + f"\nreproduce: {line}")
    if res.verdict == Verdict.INCONCLUSIVE and not res.found:
        return EXIT[Verdict.INCONCLUSIVE]
    if args.expect_counterexample:  # for scripts that want a counterexample
        return 0 if res.found else 1
    return EXIT[res.verdict] if res.found else 0


def cmd_scan(args: argparse.Namespace) -> int:
    from ..engine.scan import scan
    from ..language import registry
    from ..render import report

    thm = registry.get(args.id)
    param = thm.params.get(args.param, "--param")
    base = thm.params.parse_sets(args.set)
    if args.param in base:
        raise InputError("--set", f"no --set {args.param} (it is the scanned parameter)", args.param)
    values: list[Any] = []
    seen: set[Any] = set()
    for text in args.values.split(","):
        if not text.strip():
            continue
        try:  # each value alone, then with the --set values (a parameter that follows it must allow it)
            values.append(param.parse(text))
            thm.params.resolve(dict(base, **{args.param: values[-1]}))
        except InputError as exc:
            raise InputError("--values", f"each entry {exc.expected} (values of {args.param})",
                             exc.got) from None
        if values[-1] in seen:  # 3 and 3.0 are one value of a float parameter
            raise InputError("--values", "each value once (as a sweep's grid)", text.strip())
        seen.add(values[-1])
    if not values:
        raise InputError("--values", "a comma-separated list of values")
    out_dir = prepare_folder(args.out, "--out", create=True) if args.out else None  # before the scan
    res = scan(thm, args.param, values, base, dps=args.dps, seed=args.seed, search=not args.no_search,
               out_dir=out_dir, jobs=args.jobs)
    rows = [_reproduce(args, values=_text(row.value)) for row in res.rows]
    obj = res.as_dict()
    for row, line in zip(obj["rows"], rows):
        row["reproduce"] = line
    line = _reproduce(args)
    _emit(args, dict(obj, reproduce=line), report.scan_text(res, rows) + f"\nreproduce: {line}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from ..engine.replay import replay

    res = replay(args.file)
    line = _reproduce(args)
    text = (f"{res.path}: {'reproduces' if res.reproduces else 'DOES NOT reproduce'}"
            f" ({'certified' if res.certified else 'not certified'})\n  {res.how}\nreproduce: {line}")
    _emit(args, dict(res.as_dict(), reproduce=line), text)
    return 0 if res.reproduces else 1


def cmd_completion(args: argparse.Namespace) -> int:
    print(completion.script(build_parser(), args.shell), end="")
    return 0


def cmd_crasp(args: argparse.Namespace) -> int:
    from ..crasp.tools.cli import emit, run

    code, obj, text = run(args)
    emit(f"crasp-{args.crasp_cmd}", obj, text, args.json)
    return code


def _engine_undefined() -> tuple[type[BaseException], ...]:
    """The errors that mean "the engine could not evaluate" (imported when an error is raised, not at
    start-up: ``--help`` and completion never load the engine)."""
    from ..engine.scan import ENGINE_UNDEFINED
    return ENGINE_UNDEFINED


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    if words == ["--version"]:  # start-up path: no parser, no engine
        print(clihelp.version_line())
        return 0
    if words[:1] == ["__complete"]:  # a shell's TAB (hidden): the cached index, no parser
        from . import complete
        return complete.main(words[1:])
    from ..language import registry
    from ..numerics import arrays
    from ..storage import formats
    parser = build_parser()
    parser.argv = list(sys.argv[1:] if argv is None else argv)  # type: ignore[attr-defined]
    args = parser.parse_args(argv)
    args.theorems = [*args.theorems, *getattr(args, "theorems_after", [])]
    builtin = {"list": cmd_list, "show": cmd_show, "check": cmd_check, "falsify": cmd_falsify,
               "scan": cmd_scan, "replay": cmd_replay, "crasp": cmd_crasp,
               "completion": cmd_completion}
    handler = getattr(args, "handler", None) or builtin[args.cmd]
    try:
        cap = args.max_work if args.max_work is not None else workguard.max_work()
        with registry.using(args.theorems), workguard.work_cap(cap), arrays.using(args.backend), \
                progress.reporting(not args.quiet):
            progress.stage(f"{args.cmd}: loading theorems", plain=False)  # on a terminal, after a second
            return handler(args)
    except InputError as exc:
        print(f"proofkit: bad input: {exc}", file=sys.stderr)
        return 2
    except _engine_undefined() as exc:  # backstop: the engine could not evaluate, which decides nothing
        reason = (f"{exc or type(exc).__name__} (the engine could not evaluate the theorem as written "
                  f"at these parameters)")
        line = _reproduce(args)
        if getattr(args, "json", False):
            print(json.dumps(formats.stamp("inconclusive", {"verdict": str(Verdict.INCONCLUSIVE),
                                                            "reason": reason}
                                           | ({"reproduce": line} if line else {}))))
        elif line:
            print(f"reproduce: {line}")
        print(f"proofkit: inconclusive: {reason}", file=sys.stderr)
        return EXIT[Verdict.INCONCLUSIVE]
    except BrokenPipeError:  # output piped into head & co.
        sys.stderr.close()
        return 0
    except Exception as exc:  # a bug (proofkit's, or a theorem file's): exit 4, never read as a verdict
        import traceback

        traceback.print_exc()
        print(f"proofkit: internal error: {cap_text(f'{type(exc).__name__}: {exc}', MAX_EXPECTED)} (no "
              f"verdict; the traceback above says where)", file=sys.stderr)
        return 4


if __name__ == "__main__":
    sys.exit(main())
