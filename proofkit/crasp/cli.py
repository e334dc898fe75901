"""``proofkit crasp eval|check|compile|rows``: the C-RASP tools on a user's own program file.

A program file is data: parsed, never executed. Every error is an InputError (exit 2, one line) naming the
command-line input at fault (``--string``, ``--max-len``, ``--against``, ...); a value is echoed at most
:data:`proofkit.errors.MAX_ECHO` characters. Every command whose work grows with its input is estimated and
refused above the work cap first (:mod:`proofkit.workguard`).

``--against regex:PATTERN`` is matched by a finite automaton built from the pattern
(:mod:`proofkit.crasp.regex`), never by Python's backtracking engine, whose time is exponential on
patterns such as ``(a|a)*b``.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from .. import arrays, progress, workguard
from ..errors import InputError, echo
from ..params import ascii_int
from . import analysis, comm
from .interp import evaluate, symbols_of
from .parser import load
from .regex import RegexAutomaton
from .truth import LIBRARY, GroundTruth, exhaustive_check, load_dfa
from .vector import accepts_prefixes, max_length


def add_commands(sub: Any, parser_class: type, add_max_work: Any) -> None:
    c = sub.add_parser("crasp", help="C-RASP programs: eval, check, compile, rows")
    cs = c.add_subparsers(dest="crasp_cmd", required=True, parser_class=parser_class)
    s = cs.add_parser("eval", help="the value of every operation at every prefix of a string")
    s.add_argument("program")
    s.add_argument("--string", required=True)
    s.add_argument("--json", action="store_true")
    s = cs.add_parser("check", help="exhaustive agreement with a ground truth up to a length")
    s.add_argument("program")
    s.add_argument("--against", required=True,
                   help="regex:PATTERN (matched by a finite automaton), library:NAME, or a DFA JSON file")
    s.add_argument("--max-len", type=_integer, required=True)
    s.add_argument("--json", action="store_true")
    s = cs.add_parser("compile", help="compile to a Limit Transformer and check it against the interpreter")
    s.add_argument("program")
    s.add_argument("--check-len", type=_integer, default=8)
    s.add_argument("--precision", type=_precision, default="exact", metavar="{exact,float64}")
    s.add_argument("--out", help="write the weights as JSON")
    s.add_argument("--json", action="store_true")
    s = cs.add_parser("rows", help="one-way communication rows for N = 1..K")
    s.add_argument("program")
    s.add_argument("--N", type=_integer, required=True, dest="N")
    s.add_argument("--json", action="store_true")
    for name in ("eval", "check", "compile", "rows"):
        add_max_work(cs.choices[name])


def _integer(text: str) -> int:
    """An integer option (argparse names the option); a bad value is echoed at most MAX_ECHO characters
    (argparse's own int type quotes it whole: a 100 000-character value came back on one line)."""
    value = ascii_int(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"expected an integer (ASCII digits), got {echo(text)}")
    return value


PRECISIONS = ("exact", "float64")


def _precision(text: str) -> str:
    if text not in PRECISIONS:
        raise argparse.ArgumentTypeError(f"expected one of {', '.join(PRECISIONS)}, got {echo(text)}")
    return text


def _len(value: int, field: str, limit: int) -> int:
    if not 0 <= value <= limit:
        raise InputError(field, f"an integer in [0, {limit}]", value)
    return value


def _truth(spec: str, alphabet: tuple[str, ...]) -> GroundTruth:
    """The ground truth named by --against (never evaluated as code); every error names --against."""
    if spec.startswith("regex:"):
        return RegexAutomaton(spec[len("regex:"):], alphabet)
    if spec.startswith("library:"):
        name = spec[len("library:"):]
        if name not in LIBRARY:
            raise InputError("--against", "library:NAME with NAME one of " + ", ".join(sorted(LIBRARY)), name)
        truth = LIBRARY[name]
    else:
        path = Path(spec)
        try:
            is_file = path.is_file()
        except (OSError, ValueError):  # a name too long for the file system, a NUL byte: not a file
            is_file = False
        if not is_file:
            raise InputError("--against", "regex:PATTERN, library:NAME or an existing DFA JSON file", spec)
        try:
            truth = load_dfa(path)  # bounded, non-blocking read; strict JSON
        except InputError as exc:  # a field of the file, or the read: said as a fault of --against
            raise InputError("--against", f"a DFA JSON file ({exc.field}: {exc.expected})", exc.got) from None
    if truth.alphabet != alphabet:
        raise InputError("--against", f"a ground truth over the program's alphabet {list(alphabet)}",
                         list(truth.alphabet))
    return truth


def run(args: argparse.Namespace) -> tuple[int, Any, str]:
    """(exit code, JSON object, text) for one crasp subcommand."""
    program = load(args.program)
    if args.crasp_cmd == "eval":
        try:
            symbols = symbols_of(program, args.string)
        except InputError as exc:
            raise InputError("--string", exc.expected, exc.got) from None
        n = len(symbols)
        ops = len(program.ops)
        cell = workguard.SCALAR_CELL
        workguard.guard("--string", workguard.Work((n + 1) * ops * cell,
                                                   f"{n + 1} positions x {ops} ops x {cell}"))
        values = evaluate(program, symbols)
        obj = {"program": args.program, "string": args.string, "accepts": bool(values[program.output][-1]),
               "values": {k: [int(v) for v in vs] for k, vs in values.items()}}
        width = max(len(k) for k in values)
        lines = [f"{k.ljust(width)}  " + " ".join(str(int(v)) for v in vs) for k, vs in values.items()]
        text = "\n".join([f"positions 0..{len(next(iter(values.values()))) - 1}"] + lines
                         + [f"accepts: {obj['accepts']}"])
        return 0, obj, text
    if args.crasp_cmd == "check":
        n = _len(args.max_len, "--max-len", 24)
        longest = max_length(program)  # huge constants limit the length the vectorized interpreter runs
        if longest is not None and n > longest:
            allowed = f"an integer in [0, {longest}]" if longest >= 0 else "no value"
            raise InputError("--max-len", f"{allowed} for this program (its constants let a count exceed "
                             f"int64 on longer strings; crasp eval has no such limit)", n)
        truth = _truth(args.against, program.alphabet)
        bad = exhaustive_check(lambda X: accepts_prefixes(program, X), truth, len(program.alphabet), n,
                               per_cell=len(program.ops) + 1, field="--max-len")
        summary = analysis.summary(program)
        obj = {"program": args.program, "against": args.against, "max_len": n, "agrees": bad is None,
               "disagreement": None if bad is None else bad.text(program.alphabet),
               "program_accepts": None if bad is None else bad.f_value,
               "fragment": summary["fragment"], "depth": summary["depth"]}
        text = (f"agrees with {args.against} on every prefix of every string of length <= {n}"
                if bad is None else
                f"DISAGREES on {bad.text(program.alphabet)!r} (shortest, then least): program "
                f"{'accepts' if bad.f_value else 'rejects'}, ground truth "
                f"{'accepts' if bad.truth_value else 'rejects'}")
        return (0 if bad is None else 1), obj, text
    if args.crasp_cmd == "rows":
        return _rows(program, args)
    return _compile(program, args)


def _rows(program: Any, args: argparse.Namespace) -> tuple[int, Any, str]:
    """``crasp rows``: rows(N) and the program-level bound for N = 1..--N; the growth label needs
    comm.TREND_MIN_POINTS values of N, so below that it is reported as not computed (null in JSON)."""
    top = args.N
    if not 1 <= top <= 12:
        raise InputError("--N", "an integer in [1, 12]", top)
    k = len(program.alphabet)
    if k ** (2 * top) > 2 ** 24:
        raise InputError("--N", f"at most alphabet_size^(2N) <= 2^24 strings (alphabet size {k})", top)
    longest = max_length(program)  # split N runs strings of length 2N; huge constants limit the length
    if longest is not None and 2 * top > longest:
        allowed = f"an integer in [1, {longest // 2}]" if longest >= 2 else "no value"
        raise InputError("--N", f"{allowed} for this program (its constants let a count exceed int64 on "
                         f"strings longer than {max(longest, 0)}; crasp eval has no such limit)", top)
    per_cell = len(program.ops) + 1  # every string of length 2N at every prefix, as for crasp check
    units = sum(k ** (2 * N) * (2 * N + 1) for N in range(1, top + 1)) * per_cell
    workguard.guard("--N", workguard.Work(units, f"sum over N = 1..{top} of {k}^(2N) strings x (2N + 1) "
                                                 f"positions x {per_cell} ops"))
    xp = arrays.namespace()  # strings built, evaluated and packed there; only packed rows come back
    table = []
    for N in range(1, top + 1):
        progress.stage(f"crasp rows: N={N} of {top} ({k}^{2 * N} strings)")
        table.append({"N": N, "rows": comm.rows(lambda X: accepts_prefixes(program, X, xp), k, N, xp=xp),
                      "bound": comm.program_bound_for_ops(program.ops, N)})
    ok = all(r["rows"] <= r["bound"] for r in table)
    trend = comm.trend(table) if len(table) >= comm.TREND_MIN_POINTS else None
    obj = {"program": args.program, "rows": table, "within_bound": ok, "trend": trend}
    text = "\n".join(f"N={r['N']}: rows {r['rows']} (program bound {r['bound']})" for r in table)
    trend_text = trend or f"not computed (needs --N >= {comm.TREND_MIN_POINTS})"
    text += f"\ntrend: {trend_text}; {'within' if ok else 'EXCEEDS'} the program-level bound"
    return (0 if ok else 1), obj, text


def _compile(program: Any, args: argparse.Namespace) -> tuple[int, Any, str]:
    from .compiler import check_against, compile_program
    from .variants import reference

    n = _len(args.check_len, "--check-len", 16)
    if args.out:  # before the work, as scan --out: a bad --out costs nothing
        _check_out(args.out)
    network = compile_program(program)
    mismatch = check_against(network, reference(program), n, args.precision, field="--check-len")
    if args.out:  # atomic (temp file, fsync, rename); a folder, device or unwritable path is exit 2
        from ..atomic import write_file

        write_file(args.out, network.to_json(), "--out")
    obj = {"program": args.program, "check_len": n, "precision": args.precision,
           "agrees": mismatch is None, "mismatch": None if mismatch is None else str(mismatch),
           "weights": args.out}
    text = (f"compiled network agrees with the interpreter at every prefix of every string up to length {n} "
            f"({args.precision})" if mismatch is None else f"MISMATCH: {mismatch}")
    return (0 if mismatch is None else 1), obj, text


def _check_out(out: str) -> None:
    """The folder of --out exists and is a folder (the file itself is written atomically afterwards)."""
    from ..atomic import prepare_folder

    try:
        prepare_folder(Path(os.path.realpath(out)).parent, "--out", create=False)
    except ValueError:  # a NUL byte (main(argv) in-process; a real command line cannot carry one)
        raise InputError("--out", "a writable location (a path without NUL bytes)", out) from None


def emit(obj: Any, text: str, as_json: bool) -> None:
    print(json.dumps(obj, indent=1, default=str) if as_json else text)
