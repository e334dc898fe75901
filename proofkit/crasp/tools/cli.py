"""``proofkit crasp eval|info|check|compile|rows``: the C-RASP tools on a user's own program file.

A program file is data: parsed, never executed. Every error is an InputError (exit 2) naming the command-line
input at fault (``--string``, ``--max-len``, ``--against``, ...) on one line; a value is echoed at most
:data:`proofkit.errors.MAX_ECHO` characters. A syntax error in the program is reported as ``FILE:LINE:COL:
expected ..., got ...`` (still one self-contained line), followed by the line at fault, a caret under the
column and a hint for common slips (:mod:`proofkit.crasp.language.diagnostics`). Every command whose work
grows with its input is estimated and refused above the work cap first (:mod:`proofkit.runtime.workguard`).

``--against regex:PATTERN@ALPHABET`` is matched by a finite automaton built from the pattern
(:mod:`proofkit.crasp.semantics.regex`), never by Python's backtracking engine, whose time is exponential on
patterns such as ``(a|a)*b``.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from ...errors import InputError, echo, one_of
from ...language.params import ascii_int
from ...numerics import arrays
from ...runtime import progress, workguard
from ...storage import formats
from ..communication import comm
from ..language import analysis
from ..language.diagnostics import ProgramTextError
from ..language.ir import Program
from ..language.lexer import CraspSyntaxError
from ..language.parser import load
from ..semantics.interp import evaluate, symbols_of
from ..semantics.regex import FORM, regex_truth
from ..semantics.truth import LIBRARY, GroundTruth, exhaustive_check, load_dfa
from ..semantics.vector import accepts_prefixes, max_length
from .evaltable import eval_report
from .info import info, info_text

MAX_CHECK_LEN = 24
MAX_COMPILE_CHECK_LEN = 16
EXIT_CODES = """exit codes:
  0  ran; the program agrees (check), the network agrees (compile), rows within the bound (rows)
  1  a disagreement was found (its string is printed), or rows above the bound
  2  bad input: one line on stderr naming the option at fault (a syntax error in the program adds the line
     with a caret under the column and a hint)"""
EXAMPLES = """examples:
  proofkit crasp info theorems/hyb24/programs/dyck1.crasp
  proofkit crasp eval theorems/hyb24/programs/majority.crasp --string aab
  proofkit crasp check theorems/hyb24/programs/astar_bstar.crasp --against 'regex:a*b*@ab' --max-len 12
  proofkit crasp check theorems/hyb24/programs/dyck1.crasp --against library:DYCK-1 --max-len 16
  proofkit crasp compile theorems/hyb24/programs/majority.crasp --precision float64 --sample-len 2000
  proofkit crasp rows theorems/hyb24/programs/majority.crasp --N 8

grammar, conventions and the Python API: docs/crasp.md"""


def _sub(cs: Any, name: str, help_text: str, description: str) -> argparse.ArgumentParser:
    s = cs.add_parser(name, help=help_text, description=description, epilog=EXIT_CODES,
                      formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("program", help="a C-RASP program file (grammar: docs/crasp.md)")
    s.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    return s


def add_commands(sub: Any, parser_class: type, add_max_work: Any) -> None:
    c = sub.add_parser("crasp", help="C-RASP programs: eval, info, check, compile, rows",
                       description="The C-RASP tools on your own program files (Huang et al. 2024).",
                       epilog=f"{EXAMPLES}\n\n{EXIT_CODES}",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    cs = c.add_subparsers(dest="crasp_cmd", required=True, parser_class=parser_class)
    s = _sub(cs, "eval", "the value of every operation at every prefix of a string",
             "Run the reference interpreter on one string: a table with the input symbol at each position "
             "and one row per IR operation, labelled with what it is, Booleans as true/false.")
    s.add_argument("--string", required=True, help="the input: its characters when every symbol is one "
                   "character, else symbols separated by blanks")
    _sub(cs, "info", "fragment, depth, operations and static bounds of a program (nothing is run)",
         "What the program is: its fragment and the features that decide it, depth, operations, count "
         "bounds, period and locality, the longest strings the vectorized interpreter runs, and the "
         "compiled network's fixed-point precision.")
    s = _sub(cs, "check", "exhaustive agreement with a ground truth up to a length",
             "Compare the program with a ground truth at every prefix of every string up to --max-len; on "
             "disagreement print the shortest, then least, string.")
    s.add_argument("--against", required=True, metavar="TRUTH",
                   help=f"the ground truth: {FORM} (@ALPHABET may be left out: the program's), "
                        f"library:NAME (one of {', '.join(sorted(LIBRARY))}), or a DFA JSON file")
    s.add_argument("--max-len", type=_integer, required=True, metavar="L",
                   help=f"check every string of length <= L (at most {MAX_CHECK_LEN}; alphabet^L strings at "
                        f"every prefix, estimated first and refused above --max-work)")
    s = _sub(cs, "compile", "compile to a Limit Transformer and check it against the interpreter",
             "Compile the program (Thm 9), run the network on every string up to --check-len and compare "
             "with the interpreter at every prefix; --sample-len adds a seeded screen of long strings.")
    s.add_argument("--check-len", type=_integer, default=8, metavar="L",
                   help=f"enumerate every string of length <= L (at most {MAX_COMPILE_CHECK_LEN}; default 8)")
    s.add_argument("--precision", type=_precision, default="exact", metavar="{exact,float64}",
                   help="arithmetic of the network's forward pass (default exact rationals)")
    s.add_argument("--sample-len", type=_integer, default=None, metavar="L",
                   help="also screen seeded random strings of length L (up to 100000) in --precision")
    s.add_argument("--samples", type=_integer, default=None, metavar="S",
                   help="how many strings --sample-len draws (default 16)")
    s.add_argument("--seed", type=_integer, default=0, metavar="N",
                   help="seed of the --sample-len draw (default 0; the same seed draws the same strings)")
    s.add_argument("--out", metavar="WEIGHTS.json", help="write the weights as JSON to this file")
    s = _sub(cs, "rows", "one-way communication rows for N = 1..K",
             "Exact one-way communication rows of the program for N = 1..K, with the program-level bound.")
    s.add_argument("--N", type=_integer, required=True, dest="N", metavar="K", help="largest N (1..12)")
    for name in ("eval", "info", "check", "compile", "rows"):
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
        return regex_truth(spec, alphabet, "--against")
    if spec.startswith("library:"):
        name = spec[len("library:"):]
        if name not in LIBRARY:
            raise one_of("--against", sorted(LIBRARY), name, "library:NAME with NAME one of")
        truth = LIBRARY[name]
    else:
        path = Path(spec)
        try:
            is_file = path.is_file()
        except (OSError, ValueError):  # a name too long for the file system, a NUL byte: not a file
            is_file = False
        if not is_file:
            raise InputError("--against", "regex:PATTERN@ALPHABET, library:NAME or an existing DFA JSON file",
                             spec)
        try:
            truth = load_dfa(path)  # bounded, non-blocking read; strict JSON
        except InputError as exc:  # a field of the file, or the read: said as a fault of --against
            raise InputError("--against", f"a DFA JSON file ({exc.field}: {exc.expected})", exc.got) from None
    if truth.alphabet != alphabet:
        raise InputError("--against", f"a ground truth over the program's alphabet {list(alphabet)}",
                         list(truth.alphabet))
    return truth


def _load(path: str) -> Program:
    """The program file; a syntax error is reported as FILE:LINE:COL with the line and a caret."""
    try:
        return load(path)
    except CraspSyntaxError as exc:
        raise ProgramTextError(exc) from None


def run(args: argparse.Namespace) -> tuple[int, Any, str]:
    """(exit code, JSON object, text) for one crasp subcommand."""
    program = _load(args.program)
    commands = {"eval": _eval, "info": _info, "check": _check, "rows": _rows, "compile": _compile}
    return commands[args.crasp_cmd](program, args)


def _eval(program: Program, args: argparse.Namespace) -> tuple[int, Any, str]:
    try:
        symbols = symbols_of(program, args.string)
    except InputError as exc:
        raise InputError("--string", exc.expected, exc.got) from None
    n = len(symbols)
    ops = len(program.ops)
    cell = workguard.SCALAR_CELL
    workguard.guard("--string", workguard.Work((n + 1) * ops * cell,
                                               f"{n + 1} positions x {ops} ops x {cell}"))
    obj, text = eval_report(program, args.program, args.string, symbols, evaluate(program, symbols))
    return 0, obj, text


def _info(program: Program, args: argparse.Namespace) -> tuple[int, Any, str]:
    obj = info(program, args.program)
    return 0, obj, info_text(obj, program)


def _check(program: Program, args: argparse.Namespace) -> tuple[int, Any, str]:
    n = _len(args.max_len, "--max-len", MAX_CHECK_LEN)
    longest = max_length(program)  # huge constants limit the length the vectorized interpreter runs
    if longest is not None and n > longest:
        allowed = f"an integer in [0, {longest}]" if longest >= 0 else "no value"
        raise InputError("--max-len", f"{allowed} for this program (its constants let a count exceed "
                         f"int64 on longer strings; crasp eval has no such limit)", n)
    truth = _truth(args.against, program.alphabet)
    k = len(program.alphabet)
    bad = exhaustive_check(lambda X: accepts_prefixes(program, X), truth, k, n,
                           per_cell=len(program.ops) + 1, field="--max-len")
    summary = analysis.summary(program)
    strings = workguard.strings(k, n)
    obj = {"program": args.program, "against": args.against, "max_len": n, "strings": strings,
           "agrees": bad is None, "disagreement": None if bad is None else bad.text(program.alphabet),
           "program_accepts": None if bad is None else bad.f_value,
           "fragment": summary["fragment"], "depth": summary["depth"]}
    text = (f"agrees with {args.against} on every prefix of every string of length <= {n} ({k}^{n} strings "
            f"of length {n} read at every prefix: all {strings:,} strings of length <= {n})"
            if bad is None else
            f"DISAGREES on {bad.text(program.alphabet)!r} (shortest, then least): program "
            f"{'accepts' if bad.f_value else 'rejects'}, ground truth "
            f"{'accepts' if bad.truth_value else 'rejects'}")
    return (0 if bad is None else 1), obj, text


def _rows(program: Program, args: argparse.Namespace) -> tuple[int, Any, str]:
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


def _reference_work(program: Program, n: int) -> workguard.Work:
    """The reference interpreter's part of ``crasp compile``'s check: every string of length <= n, run once
    per prefix-tree node or word (a lower bound of the whole check, known before compiling)."""
    k, ops, count = len(program.alphabet), len(program.ops), workguard.strings(len(program.alphabet), n)
    return workguard.Work(count * (n + 1) * ops * workguard.SCALAR_CELL,
                          f"{count} strings (alphabet {k}, length <= {n}) x {n + 1} positions x {ops} ops x "
                          f"{workguard.SCALAR_CELL} for the interpreter")


def _compile(program: Program, args: argparse.Namespace) -> tuple[int, Any, str]:
    from ..compilation.checking import check_against, run_work
    from ..compilation.compiler import compile_program
    from ..compilation.longscreen import screen
    from ..compilation.variants import reference

    n = _len(args.check_len, "--check-len", MAX_COMPILE_CHECK_LEN)
    if args.samples is not None and args.sample_len is None:
        raise InputError("--samples", "--sample-len as well (the length of the seeded strings)", args.samples)
    if args.out:  # before the work, as scan --out: a bad --out costs nothing
        _check_out(args.out)
    workguard.guard("--check-len", _reference_work(program, n))  # before compiling
    network = compile_program(program)
    workguard.guard("--check-len", run_work(network, n) + _reference_work(program, n))
    mismatch = check_against(network, reference(program), n, args.precision, field="--check-len")
    screened = None
    if args.sample_len is not None:
        samples = 16 if args.samples is None else args.samples
        screened = screen(program, network, args.sample_len, samples, args.seed, args.precision)
    if args.out:  # atomic (temp file, fsync, rename); a folder, device or unwritable path is exit 2
        from ...storage.atomic import write_file

        write_file(args.out, network.to_json(), "--out")
    failed = mismatch is not None or (screened is not None and screened.mismatch is not None)
    obj = {"program": args.program, "check_len": n, "precision": args.precision,
           "agrees": not failed, "mismatch": None if mismatch is None else str(mismatch),
           "screen": None if screened is None else screened.as_dict(program.alphabet), "weights": args.out}
    text = (f"compiled network agrees with the interpreter at every prefix of every string up to length {n} "
            f"({args.precision})" if mismatch is None else f"MISMATCH: {mismatch}")
    if screened is not None:
        text += "\n" + screened.text()
    return (1 if failed else 0), obj, text


def _check_out(out: str) -> None:
    """The folder of --out exists and is a folder (the file itself is written atomically afterwards)."""
    from ...storage.atomic import prepare_folder

    try:
        prepare_folder(Path(os.path.realpath(out)).parent, "--out", create=False)
    except ValueError:  # a NUL byte (main(argv) in-process; a real command line cannot carry one)
        raise InputError("--out", "a writable location (a path without NUL bytes)", out) from None


def emit(kind: str, obj: Any, text: str, as_json: bool) -> None:
    """The text, or with ``as_json`` the object stamped with its published format ``kind``
    (``crasp-<subcommand>``, docs/formats.md)."""
    print(json.dumps(formats.stamp(kind, obj), indent=1, default=str) if as_json else text)
