"""``proofkit crasp eval|check|compile|rows``: the C-RASP tools on a user's own program file.

A program file is data: parsed, never executed. Every error is an InputError (exit 2, one line) naming the
command-line input at fault (``--string``, ``--max-len``, ``--against``, ...); a value is echoed at most
:data:`proofkit.errors.MAX_ECHO` characters. Every command whose work grows with its input is estimated and
refused above the work cap first (:mod:`proofkit.workguard`).

``--against regex:PATTERN`` is matched by a finite automaton built from the pattern (:class:`RegexAutomaton`),
never by Python's backtracking engine, whose time is exponential on patterns such as ``(a|a)*b``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
from pathlib import Path
from typing import Any

import numpy as np

from .. import workguard
from ..errors import InputError, echo
from . import analysis, comm
from .interp import evaluate, symbols_of
from .lexer import Plain, brief, symbol_list
from .parser import load
from .truth import LIBRARY, MAX_REGEX_CHARS, GroundTruth, check_symbols, exhaustive_check, load_dfa
from .vector import accepts_prefixes, max_length

try:  # the parser of the re module: private, but stable (renamed from sre_parse in Python 3.11)
    import re._constants as _re_constants
    import re._parser as _re_parser
except ImportError:  # pragma: no cover (Python 3.10)
    import sre_constants as _re_constants  # type: ignore[no-redef]
    import sre_parse as _re_parser  # type: ignore[no-redef]

#: work units per (position x op) of ``crasp eval``: the scalar interpreter plus the printed table (measured
#: about 140 ns, i.e. about 100 units of workguard's 1.5 ns)
EVAL_CELL = 100


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
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {echo(text)}") from None


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
        workguard.guard("--string", workguard.Work((n + 1) * ops * EVAL_CELL,
                                                   f"{n + 1} positions x {ops} ops x {EVAL_CELL}"))
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
    table = [{"N": N, "rows": comm.rows(lambda X: accepts_prefixes(program, X), k, N),
              "bound": comm.program_bound_for_ops(program.ops, N)} for N in range(1, top + 1)]
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


# ----------------------------------------------------------------------------- regex:PATTERN
#: states of the automaton built from a pattern (counted repeats are expanded: a{1000}{1000} is refused)
MAX_NFA_STATES = 5000
#: states of the deterministic automaton built lazily while strings are read, and its cells (states x
#: alphabet), and the steps (closure and transition work) spent building it: a bound on time and memory
MAX_DFA_STATES = 20_000
MAX_DFA_CELLS = 1 << 24
MAX_BUILD_STEPS = 5_000_000
#: groups and repeats nested in a pattern (the construction recurses once per level)
MAX_REGEX_NESTING = 100
_UNSUPPORTED = ("a regular expression without backreferences, lookaround, conditionals, atomic groups, "
                "possessive repeats or \\b/\\B (regex:PATTERN is matched by a finite automaton)")
_CATEGORY = {"CATEGORY_DIGIT": r"\d", "CATEGORY_NOT_DIGIT": r"\D", "CATEGORY_SPACE": r"\s",
             "CATEGORY_NOT_SPACE": r"\S", "CATEGORY_WORD": r"\w", "CATEGORY_NOT_WORD": r"\W"}
_TYPE_FLAGS = re.ASCII | re.LOCALE | re.UNICODE
_ATOM_FLAGS = re.IGNORECASE | re.DOTALL | re.ASCII | re.UNICODE


def _char(code: int) -> str:
    """A code point as an escape that means exactly that character inside and outside classes."""
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


class RegexAutomaton(GroundTruth):
    """``regex:PATTERN`` over single-character symbols, accepting what ``re.fullmatch`` accepts, in time
    linear in the strings read.

    The pattern is parsed by the ``re`` module's own parser and turned into an automaton with empty moves
    (Thompson's construction): concatenation, alternation, groups, every repeat (lazy ones accept the same
    strings), ``^ $ \\A \\Z``, and inline flags. Which symbols one character item accepts (a literal, ``.``,
    a class with ranges and ``\\d \\w \\s``, under i/a/s flags) is asked of ``re`` itself on that one item
    alone, so it is exactly Python's. Constructs that need backtracking or look beyond the current symbol
    (backreferences, lookaround, conditionals, atomic groups, possessive repeats, ``\\b \\B``) are refused.
    The automaton is determinized lazily as strings are read (a subset of automaton states per distinct
    prefix behaviour), within MAX_DFA_STATES states and MAX_BUILD_STEPS steps; the strings are then run
    column by column through a transition table, as :class:`proofkit.crasp.truth.DFA` does. Symbols are
    non-blank characters (program alphabets are), so ``^`` and ``$`` mean the two ends of the string.
    """

    def __init__(self, pattern: str, alphabet: tuple[str, ...]) -> None:
        self.name, self.table2_row, self.description = "regex", None, f"regex:{brief(pattern)}"
        self.pattern, self.alphabet = pattern, tuple(alphabet)
        if any(len(s) != 1 or s.isspace() for s in self.alphabet):
            raise InputError("--against", "regex:PATTERN for a program whose symbols are single non-blank "
                             "characters", Plain(symbol_list(self.alphabet)))
        if len(pattern) > MAX_REGEX_CHARS:
            raise InputError("--against", f"a pattern of at most {MAX_REGEX_CHARS} characters after regex:",
                             Plain(f"{len(pattern)} characters"))
        try:
            re.compile(pattern)
            tree = _re_parser.parse(pattern)
        except (re.error, OverflowError, RecursionError, ValueError) as exc:
            raise InputError("--against", "a valid Python regular expression after regex:",
                             str(exc)) from None
        self._eps: list[list[tuple[int, str | None]]] = []  # empty moves (target, None / "begin" / "end")
        self._moves: list[list[tuple[tuple[int, ...], int]]] = []  # (symbol indices, target)
        self._atoms: dict[tuple[str, int], tuple[int, ...]] = {}
        self._steps = self._depth = 0
        start, self._final = self._sequence(list(tree), tree.state.flags)
        k = len(self.alphabet)
        self._max_states = max(2, min(MAX_DFA_STATES, MAX_DFA_CELLS // k))
        self._ids: dict[tuple[frozenset[int], bool], int] = {}
        self._sets: list[frozenset[int]] = []
        self._done: list[bool] = []
        self._table = np.zeros((16, k), dtype=np.int32)
        self._accepting = np.zeros(16, dtype=bool)
        self._state(self._closure({start}, begin=True), start=True)

    # -- the automaton with empty moves
    def _new(self) -> int:
        if len(self._eps) >= MAX_NFA_STATES:
            raise InputError("--against", f"a regular expression of at most {MAX_NFA_STATES} automaton "
                             "states (counted repeats such as a{1000} are expanded)",
                             Plain(brief(self.pattern)))
        self._eps.append([])
        self._moves.append([])
        return len(self._eps) - 1

    def _sequence(self, items: list, flags: int) -> tuple[int, int]:
        self._depth += 1
        if self._depth > MAX_REGEX_NESTING:
            raise InputError("--against", f"a regular expression nested at most {MAX_REGEX_NESTING} groups "
                             "or repeats deep", Plain(brief(self.pattern)))
        start = end = self._new()
        for op, av in items:
            a, b = self._item(str(op), av, flags)
            self._eps[end].append((a, None))
            end = b
        self._depth -= 1
        return start, end

    def _item(self, op: str, av: Any, flags: int) -> tuple[int, int]:
        if op in ("LITERAL", "NOT_LITERAL", "ANY", "IN"):
            a, b = self._new(), self._new()
            self._moves[a].append((self._atom(op, av, flags), b))
            return a, b
        if op == "SUBPATTERN":
            _group, add, remove, sub = av
            if add & _TYPE_FLAGS:
                flags &= ~_TYPE_FLAGS
            return self._sequence(list(sub), (flags | add) & ~remove)
        if op == "BRANCH":
            a, b = self._new(), self._new()
            for alternative in av[1]:
                s, e = self._sequence(list(alternative), flags)
                self._eps[a].append((s, None))
                self._eps[e].append((b, None))
            return a, b
        if op in ("MAX_REPEAT", "MIN_REPEAT"):
            return self._repeat(*av, flags)
        if op == "AT" and str(av) in ("AT_BEGINNING", "AT_BEGINNING_STRING", "AT_END", "AT_END_STRING"):
            a, b = self._new(), self._new()
            self._eps[a].append((b, "begin" if "BEGINNING" in str(av) else "end"))
            return a, b
        raise InputError("--against", _UNSUPPORTED, Plain(f"{op} {str(av)[:40]}" if op == "AT" else op))

    def _repeat(self, lo: int, hi: int, sub: Any, flags: int) -> tuple[int, int]:
        start = end = self._new()
        for _ in range(lo):
            a, b = self._sequence(list(sub), flags)
            self._eps[end].append((a, None))
            end = b
        if hi == _re_constants.MAXREPEAT:
            loop = self._new()
            a, b = self._sequence(list(sub), flags)
            self._eps[end].append((loop, None))
            self._eps[loop].append((a, None))
            self._eps[b].append((loop, None))
            return start, loop
        exits = [end]
        for _ in range(hi - lo):
            a, b = self._sequence(list(sub), flags)
            self._eps[end].append((a, None))
            end = b
            exits.append(end)
        out = self._new()
        for e in exits:
            self._eps[e].append((out, None))
        return start, out

    def _atom(self, op: str, av: Any, flags: int) -> tuple[int, ...]:
        """The indices of the symbols one character item accepts, asked of ``re`` on that item alone."""
        if op == "LITERAL":
            text = _char(av)
        elif op == "NOT_LITERAL":
            text = f"[^{_char(av)}]"
        elif op == "ANY":
            text = "."
        else:
            parts = []
            for item_op, item in av:
                name = str(item_op)
                if name == "NEGATE":
                    parts.append("^")
                elif name == "LITERAL":
                    parts.append(_char(item))
                elif name == "RANGE":
                    parts.append(f"{_char(item[0])}-{_char(item[1])}")
                elif name == "CATEGORY" and str(item) in _CATEGORY:
                    parts.append(_CATEGORY[str(item)])
                else:
                    raise InputError("--against", _UNSUPPORTED, Plain(name))
            text = "[" + "".join(parts) + "]"
        key = (text, flags & _ATOM_FLAGS)
        if key not in self._atoms:
            compiled = re.compile(text, flags & _ATOM_FLAGS)
            self._atoms[key] = tuple(k for k, s in enumerate(self.alphabet) if compiled.fullmatch(s))
        return self._atoms[key]

    # -- the deterministic automaton, built lazily
    def _spend(self, steps: int) -> None:
        self._steps += steps
        if self._steps > MAX_BUILD_STEPS:
            raise InputError("--against", f"a regular expression whose automaton on these strings is built "
                             f"in at most {MAX_BUILD_STEPS} steps (lower --max-len or simplify the pattern)",
                             Plain(brief(self.pattern)))

    def _closure(self, states: set[int], begin: bool, end: bool = False) -> frozenset[int]:
        """The states reached by empty moves; ``^`` moves only at the start, ``$`` moves only at the end."""
        seen, stack = set(states), list(states)
        while stack:
            for target, guard in self._eps[stack.pop()]:
                if target not in seen and (guard is None or (begin if guard == "begin" else end)):
                    seen.add(target)
                    stack.append(target)
        self._spend(len(seen) + 1)
        return frozenset(seen)

    def _state(self, states: frozenset[int], start: bool = False) -> int:
        key = (states, start)
        k = self._ids.get(key)
        if k is None:
            k = len(self._sets)
            if k >= self._max_states:
                raise InputError("--against", f"a regular expression whose automaton on these strings has at "
                                 f"most {self._max_states} states (lower --max-len or simplify the pattern)",
                                 Plain(brief(self.pattern)))
            if k >= len(self._accepting):
                self._table = np.concatenate([self._table, np.zeros_like(self._table)])
                self._accepting = np.concatenate([self._accepting, np.zeros_like(self._accepting)])
            self._ids[key] = k
            self._sets.append(states)
            self._done.append(False)
            self._accepting[k] = self._final in self._closure(set(states), begin=start, end=True)
        return k

    def _expand(self, k: int) -> None:
        """The transitions of deterministic state k on every symbol."""
        targets: list[set[int]] = [set() for _ in self.alphabet]
        for s in self._sets[k]:
            for symbols, target in self._moves[s]:
                for x in symbols:
                    targets[x].add(target)
                self._spend(len(symbols) + 1)
        row = [self._state(self._closure(t, begin=False)) for t in targets]
        self._table[k] = row
        self._done[k] = True

    def accepts_prefixes(self, X: Any) -> np.ndarray:
        X = check_symbols(X, len(self.alphabet))
        B, n = X.shape
        S = np.zeros((B, n + 1), dtype=np.int64)
        for t in range(n):
            for k in np.unique(S[:, t]).tolist():
                if not self._done[k]:
                    self._expand(k)
            S[:, t + 1] = self._table[S[:, t], X[:, t]]
        return self._accepting[S]
