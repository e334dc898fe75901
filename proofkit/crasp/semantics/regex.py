"""``regex:PATTERN@ALPHABET`` ground truths matched by a finite automaton (``proofkit crasp check --against``,
:func:`proofkit.crasp.theory.morphisms.resolve`): linear time in the strings read, whatever the pattern
(Python's backtracking matcher takes exponential time on patterns such as ((a|a|a)(a|a|a))*). Built by hand
because no well-kept library both parses Python's regex syntax and gives an automaton; the parsing itself is
``re``'s own.

The one spelling, everywhere a regular expression names a language, is :data:`FORM`: the first ``@`` ends
the pattern (a pattern writes the symbol @ as ``\\x40``) and ALPHABET is the symbols written together, one
character each. Where a program fixes the alphabet (``crasp check``), ``@ALPHABET`` may be left out; when
given, it must list the program's symbols. :func:`regex_truth` reads it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from ...errors import InputError
from ..language.lexer import Plain, brief, symbol_list
from .compare import check_symbols
from .truth import GroundTruth

try:  # the parser of the re module: private, but stable (renamed from sre_parse in Python 3.11)
    import re._constants as _re_constants
    import re._parser as _re_parser
except ImportError:  # pragma: no cover (Python 3.10)
    import sre_constants as _re_constants  # type: ignore[no-redef]
    import sre_parse as _re_parser  # type: ignore[no-redef]

#: characters of a pattern
MAX_REGEX_CHARS = 1000
#: how a regular expression names a language, as error messages show it
FORM = ("regex:PATTERN@ALPHABET, e.g. regex:a*b*@ab (ALPHABET: the symbols written together; '@' ends "
        "the pattern, which writes the symbol @ as \\x40)")
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
    strings), ``^ $ \\A \\Z``, and inline flags. Which symbols one character item accepts (a literal, ``.``, a
    class with ranges and ``\\d \\w \\s``, under i/a/s flags) is asked of ``re`` itself on that one item
    alone, so it is exactly Python's. Constructs that need backtracking or look beyond the current symbol
    (backreferences, lookaround, conditionals, atomic groups, possessive repeats, ``\\b \\B``) are refused.
    The automaton is determinized lazily as strings are read (a subset of automaton states per distinct prefix
    behaviour), within MAX_DFA_STATES states and MAX_BUILD_STEPS steps; the strings are then run column by
    column through a transition table, as :class:`proofkit.crasp.semantics.truth.DFA` does. Symbols are
    non-blank characters (program alphabets are), so ``^`` and ``$`` mean the two ends of the string. Every
    error is an InputError naming ``field`` (the option or argument that gave the pattern).
    """

    def __init__(self, pattern: str, alphabet: tuple[str, ...], field: str = "--against") -> None:
        self.name, self.table2_row, self.description = "regex", None, f"regex:{brief(pattern)}"
        self.pattern, self.alphabet, self.field = pattern, tuple(alphabet), field
        if any(len(s) != 1 or s.isspace() for s in self.alphabet):
            raise InputError(self.field, "regex:PATTERN for a program whose symbols are single non-blank "
                             "characters", Plain(symbol_list(self.alphabet)))
        if len(pattern) > MAX_REGEX_CHARS:
            raise InputError(self.field, f"a pattern of at most {MAX_REGEX_CHARS} characters after regex:",
                             Plain(f"{len(pattern)} characters"))
        try:
            re.compile(pattern)
            tree = _re_parser.parse(pattern)
        except (re.error, OverflowError, RecursionError, ValueError) as exc:
            raise InputError(self.field, "a valid Python regular expression after regex:",
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
            raise InputError(self.field, f"a regular expression of at most {MAX_NFA_STATES} automaton "
                             "states (counted repeats such as a{1000} are expanded)",
                             Plain(brief(self.pattern)))
        self._eps.append([])
        self._moves.append([])
        return len(self._eps) - 1

    def _sequence(self, items: list, flags: int) -> tuple[int, int]:
        self._depth += 1
        if self._depth > MAX_REGEX_NESTING:
            raise InputError(self.field, f"a regular expression nested at most {MAX_REGEX_NESTING} groups "
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
        raise InputError(self.field, _UNSUPPORTED, Plain(f"{op} {str(av)[:40]}" if op == "AT" else op))

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
                    raise InputError(self.field, _UNSUPPORTED, Plain(name))
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
            raise InputError(self.field, f"a regular expression whose automaton on these strings is built "
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
                raise InputError(self.field, f"a regular expression whose automaton on these strings has at "
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


def regex_truth(spec: str, alphabet: Sequence[str] | None = None, field: str = "--against") -> RegexAutomaton:
    """The automaton of ``spec`` = ``regex:PATTERN@ALPHABET`` (:data:`FORM`); every error an InputError
    naming ``field`` and showing the form.

    ``alphabet``: the symbols fixed by a program (``crasp check``), or None. With it, ``@ALPHABET`` may be
    left out, and when given must list the same symbols (in any order; the automaton reads them in the
    program's order). Without it, ``@ALPHABET`` is required."""
    if not isinstance(spec, str) or not spec.startswith("regex:"):
        raise InputError(field, FORM, spec)
    pattern, at, letters = spec[len("regex:"):].partition("@")
    if not at and alphabet is None:
        raise InputError(field, FORM + " (the alphabet is required here)", spec)
    if not at:
        return RegexAutomaton(pattern, tuple(alphabet), field)
    symbols = tuple(letters)
    if not symbols or len(set(symbols)) != len(symbols) or any(c.isspace() for c in symbols):
        raise InputError(field, FORM + " (ALPHABET: distinct non-blank characters, at least one)",
                         Plain(brief(repr(letters))))
    if alphabet is not None and set(symbols) != set(alphabet):
        raise InputError(field, f"{FORM}, with ALPHABET the program's symbols {symbol_list(tuple(alphabet))} "
                         "(or no @ALPHABET)", Plain(brief(repr(letters))))
    return RegexAutomaton(pattern, tuple(alphabet) if alphabet is not None else symbols, field)
