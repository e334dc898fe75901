"""Independent ground-truth recognizers for the languages of Huang et al. 2024 (Thm 10, Lemma 11, Table 2 /
App. E.1.1, and the program library), written without C-RASP.

Every recognizer works on batches: ``X`` is an integer array of shape (B, n) holding symbol indices in
alphabet order, and ``accepts_prefixes(X)`` returns a Boolean array of shape (B, n + 1) whose column k says
whether the prefix ``X[:, :k]`` is accepted (column 0 is the empty string). This is the same per-prefix
convention as the C-RASP interpreters (proofkit/crasp/language/ir.py: position 0 is the virtual start
position), so a program and its ground truth can be compared at every prefix of every string.

Regular languages are DFAs (missing transitions go to an implicit dead state); the counter languages
(MAJORITY, DYCK-1, a^n b^n c^n, ...) are vectorized with numpy cumulative sums. User regular expressions
(``regex:PATTERN@ALPHABET``) are automata of :mod:`proofkit.crasp.semantics.regex`; the batch conventions and
the exhaustive and sampled comparisons are :mod:`proofkit.crasp.semantics.compare`'s (importable from here
too).
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from proofkit.errors import InputError
from proofkit.storage import formats, safejson

from .compare import (
    Disagreement,
    PrefixFn,
    all_strings,
    as_prefix_fn,
    check_prefix_output,
    check_symbols,
    exhaustive_check,
    iter_string_chunks,
    sample_check,
)

# the batch conventions and comparisons live in compare.py; their names stay importable from here
__all__ = [
    "AUXILIARY", "DFA", "DFA_KEYS", "LIBRARY", "MAX_JSON_CHARS", "CounterTruth", "Disagreement",
    "GroundTruth", "PrefixFn", "all_strings", "as_prefix_fn", "blocks_equal_prefixes", "by_table2_row",
    "check_prefix_output", "check_symbols", "cycle_dfa", "depth_dyck_dfa", "dyck1_prefixes",
    "exhaustive_check", "iter_string_chunks", "last_marker_dfa", "load_dfa", "majority_prefixes",
    "make_dfa", "mod_dfa", "prefix_counts", "sample_check", "sorted_prefixes", "subsequence_dfa",
]

MAX_JSON_CHARS = 5_000_000
DFA_KEYS = ("alphabet", "states", "start", "accept", "delta")


# ----------------------------------------------------------------------------------------------------
# Ground truths


class GroundTruth(ABC):
    """A recognizer over a fixed alphabet with batched per-prefix acceptance (the common interface)."""

    name: str
    alphabet: tuple[str, ...]
    table2_row: int | None
    description: str

    @abstractmethod
    def accepts_prefixes(self, X: Any) -> np.ndarray:
        """Acceptance of every prefix: bool (B, n + 1), column 0 = the empty prefix."""

    def accepts_batch(self, X: Any) -> np.ndarray:
        """Acceptance of each whole row of X: bool (B,)."""
        return self.accepts_prefixes(X)[:, -1]

    def encode(self, string: str | Sequence[str]) -> np.ndarray:
        """Symbol indices of one string (a str is split into characters); InputError on a foreign symbol."""
        index = {s: i for i, s in enumerate(self.alphabet)}
        if isinstance(string, str) and any(len(s) != 1 for s in self.alphabet):
            raise InputError("string", "a list of symbols (the alphabet has multi-character symbols)", string)
        out = []
        for sym in string:
            if sym not in index:
                raise InputError("string", f"symbols from {list(self.alphabet)}", sym)
            out.append(index[sym])
        return np.asarray(out, dtype=np.int64)

    def decode(self, row: Sequence[int]) -> str:
        """The string of one row of symbol indices (symbols concatenated)."""
        return "".join(self.alphabet[int(i)] for i in row)

    def accepts(self, string: str | Sequence[str]) -> bool:
        """Whether one string (a str or a sequence of symbols) is accepted."""
        return bool(self.accepts_batch(self.encode(string)[None, :])[0])


def _check_alphabet(alphabet: Any, single_chars: bool = False) -> tuple[str, ...]:
    """Validate an alphabet: a non-empty list/tuple of distinct non-empty strings."""
    if not isinstance(alphabet, (list, tuple)) or not alphabet:
        raise InputError("alphabet", "a non-empty list of symbols", alphabet)
    for s in alphabet:
        if not isinstance(s, str) or not s or (single_chars and len(s) != 1):
            kind = "single-character strings" if single_chars else "non-empty strings"
            raise InputError("alphabet", f"symbols that are {kind}", s)
    if len(set(alphabet)) != len(alphabet):
        raise InputError("alphabet", "distinct symbols", list(alphabet))
    return tuple(alphabet)


@dataclass(frozen=True, eq=True)
class DFA(GroundTruth):
    """A deterministic finite automaton; a missing transition goes to an implicit rejecting dead state."""

    alphabet: tuple[str, ...]
    states: tuple[str, ...]
    start: str
    accept: frozenset[str]
    delta: Mapping[str, Mapping[str, str]]
    name: str = field(default="dfa", compare=False)
    table2_row: int | None = field(default=None, compare=False)
    description: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        _check_alphabet(self.alphabet)
        self._check_states()
        if not isinstance(self.start, str) or self.start not in self.states:
            raise InputError("start", f"one of the states {list(self.states)}", self.start)
        for s in self.accept:
            if s not in self.states:
                raise InputError("accept", f"states from {list(self.states)}", s)
        self._check_delta()
        object.__setattr__(self, "_table", self._build_table())

    def _check_states(self) -> None:
        """States: a non-empty tuple of distinct strings."""
        if not self.states or any(not isinstance(s, str) for s in self.states):
            raise InputError("states", "a non-empty list of state names (strings)", self.states)
        if len(set(self.states)) != len(self.states):
            raise InputError("states", "distinct state names", list(self.states))

    def _check_delta(self) -> None:
        """Transitions: known source state, known symbol, known target state."""
        if not isinstance(self.delta, Mapping):
            raise InputError("delta", "an object {state: {symbol: state}}", type(self.delta).__name__)
        for src, row in self.delta.items():
            if src not in self.states:
                raise InputError("delta", f"source states from {list(self.states)}", src)
            if not isinstance(row, Mapping):
                raise InputError(f"delta.{src}", "an object {symbol: state}", row)
            for sym, dst in row.items():
                if sym not in self.alphabet:
                    raise InputError(f"delta.{src}", f"symbols from {list(self.alphabet)}", sym)
                if not isinstance(dst, str) or dst not in self.states:
                    raise InputError(f"delta.{src}.{sym}", f"one of the states {list(self.states)}", dst)

    def _build_table(self) -> tuple[np.ndarray, np.ndarray, int]:
        """Dense transition table with the dead state as the last row, accepting mask, start index."""
        n_states, k = len(self.states), len(self.alphabet)
        sidx = {s: i for i, s in enumerate(self.states)}
        aidx = {a: i for i, a in enumerate(self.alphabet)}
        table = np.full((n_states + 1, k), n_states, dtype=np.int64)
        for src, row in self.delta.items():
            for sym, dst in row.items():
                table[sidx[src], aidx[sym]] = sidx[dst]
        acc = np.zeros(n_states + 1, dtype=bool)
        for s in self.accept:
            acc[sidx[s]] = True
        return table, acc, sidx[self.start]

    def accepts_prefixes(self, X: Any) -> np.ndarray:
        """Run the DFA on every row at once, one position at a time: position-major state rows in the
        narrowest integer type, each step one gather from the flattened table (state * k + symbol)."""
        table, acc, start = self._table  # type: ignore[attr-defined]
        X = check_symbols(X, len(self.alphabet))
        B, n = X.shape
        k = table.shape[1]
        small = np.int16 if table.size < 2**15 else np.int32 if table.size < 2**31 else np.int64
        flat = (table * k).astype(small).ravel()  # next state, pre-multiplied by k
        XT = np.empty((n, B), dtype=small)
        XT[...] = X.T  # contiguous positions (X may be either layout)
        states = np.empty((n + 1, B), dtype=small)
        states[0] = start * k
        for t in range(n):
            np.take(flat, states[t] + XT[t], out=states[t + 1])
        return np.repeat(acc, k)[states].T  # acc per state * k; a (B, n + 1) view, position-major

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form {"alphabet", "states", "start", "accept", "delta"}."""
        return {
            "alphabet": list(self.alphabet),
            "states": list(self.states),
            "start": self.start,
            "accept": [s for s in self.states if s in self.accept],
            "delta": {s: dict(self.delta[s]) for s in self.states if s in self.delta},
        }

    def to_json(self) -> str:
        """Serialize to the JSON format read by from_json."""
        return json.dumps(self.to_dict())

    @classmethod
    def from_json(cls, text_or_dict: str | Mapping[str, Any], **meta: Any) -> DFA:
        """Parse and strictly validate a DFA from JSON text or an already-parsed dict: the field checks
        first (they say more), then the published schema (``proofkit/schemas/dfa.schema.json``,
        :func:`proofkit.storage.formats.validate`, InputError naming the JSON path), so a file proofkit
        accepts is
        a file the schema accepts."""
        data = _parse_json_object(text_or_dict)
        for key in data:
            if key not in DFA_KEYS:
                raise InputError(safejson.key_name(key), f"only the keys {list(DFA_KEYS)}", key)
        for key in DFA_KEYS:
            if key not in data:
                raise InputError(key, "a required key of the DFA object", None)
        states = _json_list(data["states"], "states")
        accept = _hashable_list(_json_list(data["accept"], "accept"), "accept")
        if len(set(accept)) != len(accept):
            raise InputError("accept", "distinct states", accept)
        delta = data["delta"]
        if not isinstance(delta, dict):
            raise InputError("delta", "an object {state: {symbol: state}}", delta)
        dfa = cls(
            alphabet=_check_alphabet(_json_list(data["alphabet"], "alphabet")),
            states=tuple(states),
            start=data["start"],
            accept=frozenset(accept),
            delta={k: dict(v) if isinstance(v, dict) else v for k, v in delta.items()},
            **meta,
        )
        formats.validate("dfa", dict(data))
        return dfa


def _parse_json_object(text_or_dict: str | Mapping[str, Any]) -> Mapping[str, Any]:
    """JSON text or a mapping -> a mapping; InputError field "dfa" otherwise. Text goes through the
    bounded loader (size, depth, duplicate keys, number caps: ``proofkit.storage.safejson``)."""
    if isinstance(text_or_dict, Mapping):
        return text_or_dict
    if not isinstance(text_or_dict, str):
        raise InputError("dfa", "JSON text or a dict", type(text_or_dict).__name__)
    data = safejson.loads(text_or_dict, "dfa", max_bytes=MAX_JSON_CHARS)
    if not isinstance(data, dict):
        raise InputError("dfa", "a JSON object", type(data).__name__)
    return data


def load_dfa(path: str | Path, **meta: Any) -> DFA:
    """A DFA JSON file (a regular file of at most MAX_JSON_CHARS bytes, read without blocking) parsed
    and validated by :meth:`DFA.from_json`; every failure an InputError naming the field."""
    return DFA.from_json(safejson.read_text(path, "dfa", MAX_JSON_CHARS), **meta)


def _json_list(value: Any, field_name: str) -> list[Any]:
    """A JSON array field; InputError naming the field otherwise."""
    if not isinstance(value, list):
        raise InputError(field_name, "a JSON array", value)
    return value


def _hashable_list(values: list[Any], field_name: str) -> list[str]:
    """Elements that are strings (state names)."""
    for v in values:
        if not isinstance(v, str):
            raise InputError(field_name, "state names (strings)", v)
    return values


@dataclass(frozen=True)
class CounterTruth(GroundTruth):
    """A recognizer given by a vectorized prefix function (counter languages via numpy cumsum)."""

    name: str
    alphabet: tuple[str, ...]
    fn: PrefixFn = field(compare=False)
    table2_row: int | None = None
    description: str = ""

    def accepts_prefixes(self, X: Any) -> np.ndarray:
        """Validate X, then apply the prefix function."""
        X = check_symbols(X, len(self.alphabet))
        return check_prefix_output(self.fn(X), X.shape[0], X.shape[1], self.name)


# ----------------------------------------------------------------------------------------------------
# Counter languages (vectorized)


def prefix_counts(X: np.ndarray, symbol: int) -> np.ndarray:
    """#symbol in every prefix: int (B, n + 1), column 0 = 0."""
    B, n = X.shape
    out = np.zeros((B, n + 1), dtype=np.int64)
    np.cumsum(X == symbol, axis=1, out=out[:, 1:])
    return out


def majority_prefixes(X: np.ndarray) -> np.ndarray:
    """MAJORITY over {a, b}: #a >= #b (the empty string is accepted)."""
    return prefix_counts(X, 0) >= prefix_counts(X, 1)


def dyck1_prefixes(X: np.ndarray) -> np.ndarray:
    """DYCK-1 over {(, )}: every prefix has #( >= #) and the totals are equal (the standard definition:
    App. C.1.2 words it like MAJORITY, "at least as many ( as )", which is not DYCK-1)."""
    bal = prefix_counts(X, 0) - prefix_counts(X, 1)
    return (np.minimum.accumulate(bal, axis=1) >= 0) & (bal == 0)


def sorted_prefixes(X: np.ndarray) -> np.ndarray:
    """Whether each prefix is non-decreasing in symbol index (i.e. of the form a*b*c*...)."""
    B, n = X.shape
    out = np.ones((B, n + 1), dtype=bool)
    if n >= 2:
        out[:, 2:] = np.logical_and.accumulate(X[:, 1:] >= X[:, :-1], axis=1)
    return out


def blocks_equal_prefixes(X: np.ndarray, k: int) -> np.ndarray:
    """a^n b^n ... over the first k letters: sorted blocks with equal counts (n >= 0)."""
    ok = sorted_prefixes(X)
    c0 = prefix_counts(X, 0)
    for s in range(1, k):
        ok &= prefix_counts(X, s) == c0
    return ok


def _counter(name: str, alphabet: str, fn: PrefixFn, description: str) -> CounterTruth:
    """A CounterTruth over the characters of ``alphabet``."""
    return CounterTruth(name=name, alphabet=tuple(alphabet), fn=fn, description=description)


# ----------------------------------------------------------------------------------------------------
# DFA builders for the regular languages


def make_dfa(alphabet: str | Sequence[str], states: Sequence[str], start: str, accept: Sequence[str],
             delta: Mapping[str, Mapping[str, str]], name: str, table2_row: int | None = None,
             description: str = "") -> DFA:
    """Build a DFA from compact literals (a str alphabet is split into characters)."""
    return DFA(alphabet=tuple(alphabet), states=tuple(states), start=start, accept=frozenset(accept),
               delta={k: dict(v) for k, v in delta.items()}, name=name, table2_row=table2_row,
               description=description)


def cycle_dfa(alphabet: str, word: str, name: str, table2_row: int | None, description: str) -> DFA:
    """(word)*: a cycle through len(word) states, anything else dead."""
    m = len(word)
    states = [f"q{i}" for i in range(m)]
    delta = {f"q{i}": {word[i]: f"q{(i + 1) % m}"} for i in range(m)}
    return make_dfa(alphabet, states, "q0", ["q0"], delta, name, table2_row, description)


def mod_dfa(alphabet: str, weights: Mapping[str, int], modulus: int, name: str,
            table2_row: int | None, description: str) -> DFA:
    """Accept iff the weighted symbol count is 0 mod ``modulus``."""
    states = [f"r{i}" for i in range(modulus)]
    delta = {f"r{i}": {a: f"r{(i + weights[a]) % modulus}" for a in alphabet} for i in range(modulus)}
    return make_dfa(alphabet, states, "r0", ["r0"], delta, name, table2_row, description)


def depth_dyck_dfa(depth: int, table2_row: int | None) -> DFA:
    """D_depth over {a, b}: D_0 = {eps}, D_n = (a D_{n-1} b)*: balance stays in [0, depth], ends at 0."""
    states = [f"d{i}" for i in range(depth + 1)]
    delta: dict[str, dict[str, str]] = {}
    for i in range(depth + 1):
        row = {}
        if i < depth:
            row["a"] = f"d{i + 1}"
        if i > 0:
            row["b"] = f"d{i - 1}"
        delta[f"d{i}"] = row
    return make_dfa("ab", states, "d0", ["d0"], delta, f"D_{depth}", table2_row,
                    f"depth-bounded Dyck D_{depth} = (a D_{depth - 1} b)*")


def subsequence_dfa(alphabet: str, pattern: str, avoid: bool, name: str) -> DFA:
    """Strings that contain (avoid=False) or avoid (avoid=True) ``pattern`` as a scattered subsequence."""
    m = len(pattern)
    states = [f"m{i}" for i in range(m + 1)]
    delta: dict[str, dict[str, str]] = {}
    for i in range(m + 1):
        row = {}
        for a in alphabet:
            if i < m and a == pattern[i]:
                if not (avoid and i == m - 1):
                    row[a] = f"m{i + 1}"
            else:
                row[a] = f"m{i}"
        delta[f"m{i}"] = row
    accept = states[:m] if avoid else [states[m]]
    verb = "avoiding" if avoid else "containing"
    return make_dfa(alphabet, states, "m0", accept, delta, name, None,
                    f"strings {verb} the subsequence {pattern!r}")


def last_marker_dfa(alphabet: str, good: str, transparent: str, name: str, table2_row: int | None,
                    description: str) -> DFA:
    """Sigma* good transparent*: the last symbol outside ``transparent`` exists and equals ``good``."""
    delta = {s: {a: ("y" if a == good else s if a == transparent else "n") for a in alphabet} for s in "ny"}
    return make_dfa(alphabet, ["n", "y"], "n", ["y"], delta, name, table2_row, description)


def _tomita_dfas() -> list[DFA]:
    """Tomita 1..7 over {0, 1} (Table 1 / Table 2 rows 1..7, App. E.1.1); the T3 DFA is ours, built from
    Table 1's definition."""
    t1 = make_dfa("01", ["q"], "q", ["q"], {"q": {"1": "q"}}, "Tomita1", 1, "1*")
    t2 = cycle_dfa("01", "10", "Tomita2", 2, "(10)*")
    t3 = make_dfa("01", ["s0", "s1", "s2", "s3"], "s0", ["s0", "s1", "s3"],
                  {"s0": {"0": "s0", "1": "s1"}, "s1": {"1": "s0", "0": "s2"},
                   "s2": {"0": "s3"}, "s3": {"0": "s2", "1": "s1"}},
                  "Tomita3", 3, "no maximal odd run of 1s immediately followed by a maximal odd run of 0s")
    t4 = make_dfa("01", ["z0", "z1", "z2"], "z0", ["z0", "z1", "z2"],
                  {"z0": {"0": "z1", "1": "z0"}, "z1": {"0": "z2", "1": "z0"}, "z2": {"1": "z0"}},
                  "Tomita4", 4, "no substring 000")
    par = {f"p{z}{o}": {"0": f"p{1 - z}{o}", "1": f"p{z}{1 - o}"} for z in (0, 1) for o in (0, 1)}
    t5 = make_dfa("01", list(par), "p00", ["p00"], par, "Tomita5", 5, "even #0 and even #1")
    t6 = mod_dfa("01", {"0": 1, "1": -1}, 3, "Tomita6", 6, "#0 - #1 = 0 mod 3")
    t7 = make_dfa("01", ["p0", "p1", "p2", "p3"], "p0", ["p0", "p1", "p2", "p3"],
                  {"p0": {"0": "p0", "1": "p1"}, "p1": {"1": "p1", "0": "p2"},
                   "p2": {"0": "p2", "1": "p3"}, "p3": {"1": "p3"}}, "Tomita7", 7, "0*1*0*1*")
    return [t1, t2, t3, t4, t5, t6, t7]


def _regular_dfas() -> list[DFA]:
    """The remaining regular languages of Table 2 (App. E.1.1) and of Lemma 11 and the program library."""
    out = [
        make_dfa("ab", ["A", "B"], "A", ["A", "B"], {"A": {"a": "A", "b": "B"}, "B": {"b": "B"}},
                 "a*b*", None, "a*b*"),
        make_dfa("ab", ["s0", "s1", "s2"], "s0", ["s2"],
                 {"s0": {"a": "s1"}, "s1": {"a": "s1", "b": "s2"}, "s2": {"b": "s2"}}, "a+b+", None, "a+b+"),
    ]
    out += [depth_dyck_dfa(d, row) for d, row in ((2, 8), (3, 9), (4, 10), (12, 11))]
    out += [
        cycle_dfa("ab", "aa", "(aa)*", None, "(aa)* over {a, b} (Lemma 11)"),
        cycle_dfa("a", "aa", "(aa)*/unary", 12, "(aa)* over {a} (benchmark)"),
        cycle_dfa("ab", "aaaa", "(aaaa)*", None, "(aaaa)* over {a, b}"),
        cycle_dfa("a", "aaaa", "(aaaa)*/unary", 13, "(aaaa)* over {a} (benchmark)"),
        cycle_dfa("ab", "abab", "(abab)*", 14, "(abab)*"),
        _blocks_plus_dfa("abcde", "#15", 15),
        make_dfa("abcd", ["L", "R"], "L", ["R"],
                 {"L": {"a": "L", "b": "L", "d": "R"}, "R": {"b": "R", "c": "R"}}, "#16", 16,
                 "{a,b}*d{b,c}*"),
        last_marker_dfa("012", "0", "2", "#17", 17, "{0,1,2}*02*"),
        make_dfa("ab", ["s0", "s1", "s2"], "s0", ["s2"],
                 {"s0": {"a": "s1", "b": "s0"}, "s1": {"a": "s1", "b": "s2"}, "s2": {"a": "s2", "b": "s2"}},
                 "Sigma*abSigma*", None, "contains the substring ab"),
        last_marker_dfa("abe", "b", "e", "Sigma*be*", None, "{a,b,e}*be* (toy FlipFlop; = #17 renamed)"),
        mod_dfa("01", {"0": 0, "1": 1}, 2, "PARITY", None, "even number of 1s over {0, 1}"),
        subsequence_dfa("01", "1010", avoid=True, name="avoid-1010"),
        subsequence_dfa("ab", "aab", avoid=False, name="subseq-aab"),
    ]
    return out


def _blocks_plus_dfa(alphabet: str, name: str, table2_row: int | None) -> DFA:
    """a+b+c+...: non-empty blocks of every letter in alphabet order (#15 = aa*bb*cc*dd*ee*)."""
    delta: dict[str, dict[str, str]] = {"start": {alphabet[0]: alphabet[0]}}
    for i, a in enumerate(alphabet):
        delta[a] = {a: a}
        if i + 1 < len(alphabet):
            delta[a][alphabet[i + 1]] = alphabet[i + 1]
    pattern = "".join(f"{a}{a}*" for a in alphabet)
    return make_dfa(alphabet, ["start", *alphabet], "start", [alphabet[-1]], delta, name, table2_row, pattern)


def _counter_truths() -> list[CounterTruth]:
    """The non-regular counter languages (HYB24.T10 and the robustness variants)."""
    return [
        _counter("MAJORITY", "ab", majority_prefixes, "#a >= #b"),
        _counter("DYCK-1", "()", dyck1_prefixes, "every prefix #( >= #), totals equal"),
        _counter("a^nb^n", "ab", lambda X: blocks_equal_prefixes(X, 2), "a^n b^n, n >= 0"),
        _counter("a^nb^nc^n", "abc", lambda X: blocks_equal_prefixes(X, 3), "a^n b^n c^n, n >= 0"),
        _counter("a^nb^nc^nd^n", "abcd", lambda X: blocks_equal_prefixes(X, 4), "a^n b^n c^n d^n, n >= 0"),
    ]


def _build_library() -> dict[str, GroundTruth]:
    """Name -> ground truth for every language of the module (counter languages, Tomita, Table 2, ...)."""
    entries: list[GroundTruth] = [*_counter_truths(), *_tomita_dfas(), *_regular_dfas()]
    return {e.name: e for e in entries}


LIBRARY: dict[str, GroundTruth] = _build_library()


# Ground truths used only by the reductions of crasp/theory/morphisms.py (Table-2 "no" rows). They are
# kept out of LIBRARY, whose name set is pinned by tests/crasp/test_crasp_truth.py.
AUXILIARY: dict[str, GroundTruth] = {
    "MOD3": mod_dfa("01", {"0": 0, "1": 1}, 3, "MOD3", None, "number of 1s divisible by 3 over {0, 1}"),
}


def by_table2_row(row: int) -> GroundTruth:
    """The LIBRARY entry for a Table-2 row number (1..17)."""
    for truth in LIBRARY.values():
        if truth.table2_row == row:
            return truth
    raise InputError("table2_row", "an integer in 1..17", row)
