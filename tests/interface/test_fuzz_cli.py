"""Fuzzing the ``proofkit crasp eval|check|compile|rows`` command line with Hypothesis (issue 10), through
``proofkit.interface.testing.run_cli`` (in-process).

Arguments are drawn at random and combined at random: program paths (every shipped program; missing, a
folder, an empty file, a binary file, a FIFO, /dev/null, a 5000-character name, BOM + CRLF, huge constants,
a multi-character alphabet, deep nesting), ``--string``, ``--max-len``, ``--N``, ``--check-len`` (valid,
negative, huge, unicode digits, floats, 5000 digits), ``--against`` (regex:PATTERN with ordinary,
pathological, unsupported and invalid patterns; library:NAME valid and misspelled; DFA files valid, of
another alphabet, with bad fields, not JSON, deeply nested, missing, a folder), ``--precision``,
``--out``, ``--max-work`` (valid caps up to 1e8 and invalid values) before or after the subcommand, and
options left out. Properties: the exit code is 0, 1, 2 or 3; 0 and 1 write nothing to stderr (and valid
JSON with ``--json``); 2 is exactly one stderr line starting with ``proofkit: `` that names the command-line
field at fault, at most MAX_LINE characters; never a traceback, never slower than the deadline, never code
run from the input. Valid work is kept small by a work cap of 1e8 units (about 0.15 s) in force for every
case, so a case slower than the deadline is a cost the work guard does not see.

``regex:PATTERN`` is matched by a finite automaton (``proofkit.crasp.semantics.regex.RegexAutomaton``); a
differential test checks it against ``re.fullmatch`` on every string up to length 4 over small alphabets.

Case counts: the fast run is a derandomized sample of 140 cases (CLI 100, regex 40; about 3 s); ``-m slow``
runs 3 500 random cases (CLI 2 000, regex 1 500; about 20 s), each under the per-case deadline of 2 s.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import tempfile
from itertools import product
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from proofkit.crasp.language.parser import load
from proofkit.crasp.semantics.regex import RegexAutomaton
from proofkit.crasp.semantics.truth import LIBRARY
from proofkit.crasp.tools.cli import PRECISIONS
from proofkit.interface.testing import run_cli
from proofkit.runtime import workguard
from tests.fuzzguard import DEADLINE, no_code_from_input

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = sorted((ROOT / "theorems/hyb24/programs").glob("*.crasp"))
MAJORITY = str(ROOT / "theorems/hyb24/programs/majority.crasp")
#: the work cap in force for every fuzzed command line: valid work finishes well within the deadline
CAP = 10**8
#: the longest stderr line accepted for bad input (errors.py caps each part it quotes)
MAX_LINE = 800
FIELDS = {"program file", "program", "--string", "--max-len", "--against", "--N", "--check-len",
          "--precision", "--max-work", "--out", "--json"}


def _settings(examples: int, fast: bool) -> settings:
    return settings(max_examples=examples, deadline=DEADLINE, database=None, derandomize=fast,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture])


# ----------------------------------------------------------------------------- files
DFA_AB = {"alphabet": ["a", "b"], "states": ["q0", "q1"], "start": "q0", "accept": ["q0"],
          "delta": {"q0": {"a": "q1", "b": "q0"}, "q1": {"a": "q1", "b": "q0"}}}


_FILES: dict[str, str] = {}


def files() -> dict[str, str]:
    """Every path a drawn key names: programs and DFA files, good and bad (made once, in a temporary
    folder removed at exit; not a fixture, so a failing case does not print them all)."""
    if _FILES:
        return _FILES
    d = Path(tempfile.mkdtemp(prefix="fuzz_cli_"))
    atexit.register(shutil.rmtree, d, ignore_errors=True)
    majority = Path(MAJORITY).read_text()
    texts = {
        "empty.crasp": "", "blank.crasp": "\n\n  \n",
        "bom_crlf.crasp": "\ufeff" + majority.replace("\n", "\r\n"),
        "huge.crasp": "alphabet: a b\nC := #Q(a) - 999999999999999999 - 999999999999999999\nL := C <= 0\n",
        "huge_mod.crasp": "alphabet: a b\nL := mod(999999999999999989, 3) and #Q(a) >= 1\n",
        "local_far.crasp": "alphabet: a b\nL := #[{7, 999999999999999999}] Q(a) <= #<Q(b)\n",
        "multi.crasp": "alphabet: SEP a b\nL := #Q(SEP) <= 1 and #Q(a) >= #Q(b)\n",
        "quoted.crasp": "alphabet: '(' ')' '\u00e9'\nL := #Q('(') >= #Q(')') and not Q('\u00e9')\n",
        "syntax.crasp": "alphabet: a b\nL := #Q(a) <=\n",
        "deep.crasp": "alphabet: a b\nL := " + "(" * 60 + "Q(a)" + ")" * 60 + "\n",
        "long_line.crasp": "alphabet: a b\nL := " + " and ".join(["Q(a)"] * 3000) + "\n",
        "dfa_ab.json": json.dumps(DFA_AB),
        "dfa_01.json": json.dumps({**DFA_AB, "alphabet": ["0", "1"], "delta": {"q0": {"0": "q1"}}}),
        "dfa_bad_field.json": json.dumps({**DFA_AB, "delta": {"q0": {"a": "zz"}}}),
        "dfa_extra_key.json": json.dumps({**DFA_AB, "eval": "__import__('os')"}),
        "dfa_not_json.json": "{alphabet: [a, b]}",
        "dfa_nested.json": "[" * 5000 + "]" * 5000,
    }
    out = {name: str(d / name) for name in texts}
    for name, text in texts.items():
        (d / name).write_text(text, encoding="utf-8")
    (d / "binary.crasp").write_bytes(bytes(range(256)) * 4)
    (d / "latin1.crasp").write_bytes(b"alphabet: a\n// \xe9\n")
    (d / "folder").mkdir()
    os.mkfifo(d / "fifo")
    out.update({"binary.crasp": str(d / "binary.crasp"), "latin1.crasp": str(d / "latin1.crasp"),
                "folder": str(d / "folder"), "fifo": str(d / "fifo"), "missing": str(d / "missing.crasp"),
                "devnull": "/dev/null", "long": str(d / ("x" * 5000)), "nul": "a\x00b", "empty-name": "",
                "out.json": str(d / "out.json"), "out-missing-folder": str(d / "none" / "w.json")})
    out.update({p.name: str(p) for p in PROGRAMS})
    _FILES.update(out)
    return _FILES


def _warm(capsys: Any) -> None:
    """Run every subcommand once outside the guard: lazy imports happen here, not under it."""
    if getattr(_warm, "done", False):
        return
    paths = files()
    for argv in (["eval", MAJORITY, "--string", "ab"],
                 ["check", MAJORITY, "--against", "regex:a*", "--max-len", "2"],
                 ["check", MAJORITY, "--against", paths["dfa_ab.json"], "--max-len", "2"],
                 ["compile", MAJORITY, "--check-len", "2", "--out", paths["out.json"]],
                 ["rows", MAJORITY, "--N", "1"]):
        run_cli(capsys, "crasp", *argv)
    _warm.done = True  # type: ignore[attr-defined]


# ----------------------------------------------------------------------------- strategies
FILE = "\ue000"  # an argument FILE + KEY stands for the path files[KEY]
PROGRAM_KEYS = [
    "empty.crasp", "blank.crasp", "bom_crlf.crasp", "huge.crasp", "huge_mod.crasp", "local_far.crasp",
    "multi.crasp", "quoted.crasp", "syntax.crasp", "deep.crasp", "long_line.crasp", "binary.crasp",
    "latin1.crasp", "folder", "fifo", "missing", "devnull", "long", "nul", "empty-name", "dfa_ab.json"]
# ordinary; pathological for a backtracking matcher or beyond the automaton's caps; unsupported; invalid
REGEXES = [
    "a*", "a*b*", "(ab)*", "(a|b)*a(a|b)", "[ab]+", "[^b]*", ".*", "", "^a*$", r"\Aa+\Z", "(?i)A*B*",
    "\u0661*", r"\d*", r"[\w]*", "(?a)\\w*", "\x00",
    "(a|a)*b", "(a*)*b", "(a|aa)*c", "(?:a+)+$", "(a|a|a|a)*x", "((a*)*)*b", "(.*a){12}", "(a?){24}a{24}",
    "(?:a{1,100}){1,100}", "a{0,99999}", "(a|b)*a(a|b){13}", "x" * 1001,
    r"(a)\1", "(?=a)a", "(?<!b)a", "a*+b", "(?>a*)", r"\ba", "(?(1)a|b)", "(?P<x>a)(?P=x)",
    "[", "a{4294967295}", "a{1000}{1000}", "(", "*", "(" * 450 + "a" + ")" * 450]
INTS = st.one_of(st.integers(-2, 9).map(str), st.sampled_from(
    ["12", "13", "16", "17", "24", "25", "0", "-1", "\u0661", "\uff13", "1_0", " 3 ", "3.0", "", "x", "1e3",
     "9" * 30, "9" * 5000, "+2", "0x3", "-0"]))
STRINGS = st.one_of(st.text(alphabet="ab()01c\u00e9 ", max_size=12), st.text(max_size=8), st.sampled_from(
    ["", " ", "a b", "SEP a b", "\x00", "\ufeff", "a\nb", "ab" * 300, "\u200fab", "( ) \u00e9"]))
AGAINST = st.one_of(
    st.sampled_from(REGEXES).map(lambda p: "regex:" + p),
    st.sampled_from(sorted(LIBRARY) + ["", "majority", "MAJORITY ", "DYCK-2", "Tomita8", "../x"]).map(
        lambda n: "library:" + n),
    st.sampled_from(["dfa_ab.json", "dfa_01.json", "dfa_bad_field.json", "dfa_extra_key.json",
                     "dfa_not_json.json", "dfa_nested.json", "missing", "folder", "fifo", "long", "nul",
                     "empty-name", "devnull"]).map(lambda k: FILE + k),
    st.text(max_size=12).filter(lambda s: not s.startswith(FILE)))
CAPS = st.sampled_from(["1e6", "1e7", "4e7", "1e8", "100000000", "1", "10", "0", "-1", "1e16", "abc", "1.5",
                        "", "\u0661", "1e+99", "1e8.5", " 1e7 ", "1E7", "9" * 400])
OPTIONS = {
    "eval": [("--string", STRINGS, 0.9)],
    "check": [("--against", AGAINST, 0.9), ("--max-len", INTS, 0.9)],
    "compile": [("--check-len", INTS, 0.7), ("--precision", st.sampled_from(
        ["exact", "float64", "EXACT", "", "float32", "x" * 500]), 0.4),
                ("--out", st.sampled_from(["out.json", "folder", "out-missing-folder", "long", "devnull",
                                           "nul", "empty-name", "fifo"]).map(lambda k: FILE + k), 0.2)],
    "rows": [("--N", INTS, 0.9)],
}


ALPHABETS = {p.name: load(p).alphabet for p in PROGRAMS}
ORDINARY = REGEXES[:16]  # the ordinary patterns


def _valid(draw: Any, flag: str, program: str) -> str:
    """A value of ``flag`` that is valid for ``program`` (small, so that the command finishes quickly)."""
    alphabet = ALPHABETS[program]
    if flag == "--string":
        word = draw(st.lists(st.sampled_from(alphabet), max_size=12))
        return "".join(word) if all(len(s) == 1 for s in alphabet) else " ".join(word)
    if flag in ("--max-len", "--check-len"):
        return str(draw(st.integers(0, 6)))
    if flag == "--N":
        return str(draw(st.integers(1, 4)))
    if flag == "--against":
        same = [name for name, t in LIBRARY.items() if t.alphabet == alphabet]
        choices = ["regex:" + p for p in ORDINARY] + ["library:" + n for n in same]
        return draw(st.sampled_from(choices + ([FILE + "dfa_ab.json"] if alphabet == ("a", "b") else [])))
    if flag == "--precision":
        return draw(st.sampled_from(PRECISIONS))
    return FILE + "out.json"


@st.composite
def command_lines(draw: Any) -> tuple[list[str], list[str]]:
    """(argv after 'crasp', with FILE + KEY standing for files[KEY]; the options before 'crasp'). Half of
    the cases are well-formed command lines on a shipped program, with one value at most drawn from the
    wide strategies; the others draw everything from them."""
    cmd = draw(st.sampled_from(sorted(OPTIONS)))
    shipped = st.sampled_from([p.name for p in PROGRAMS])
    wellformed = draw(st.booleans())
    program = draw(shipped if wellformed else st.one_of(shipped, st.sampled_from(PROGRAM_KEYS)))
    wild = draw(st.integers(-1, len(OPTIONS[cmd]) - 1)) if wellformed else None
    pairs: list[list[str]] = []
    for k, (flag, values, p) in enumerate(OPTIONS[cmd]):
        if wellformed and k != wild:
            if p > 0.5 or draw(st.booleans()):
                pairs.append([flag, _valid(draw, flag, program)])
        elif draw(st.floats(0, 1)) < p:
            pairs.append([flag, draw(values)])
    if draw(st.integers(0, 3)) == 0:
        pairs.append(["--json"])
    top: list[str] = []
    if draw(st.integers(0, 3)) == 0:
        cap = ["--max-work", draw(CAPS)]
        if draw(st.booleans()):
            top.extend(cap)  # before the subcommand
        else:
            pairs.append(cap)
    if draw(st.integers(0, 19)) == 0:
        pairs.append([draw(st.sampled_from(["--bogus", "-x", "extra", "--max-len=3", "--json=1"]))])
    order = draw(st.permutations(range(len(pairs))))
    argv = [cmd, FILE + program] + [x for k in order for x in pairs[k]]
    return argv, top


def _resolve(argv: list[str]) -> list[str]:
    return [files()[a[1:]] if a.startswith(FILE) else a for a in argv]


#: the first line of a program's syntax error: FILE:LINE:COL: expected ..., then its echo and a caret
SYNTAX = re.compile(r"proofkit: bad input: .+:\d+:\d+: expected ")


def _field(line: str) -> str | list[str]:
    """The field a one-line error names."""
    m = re.match(r"proofkit: bad input: (.+?): expected ", line)
    if m:
        return m.group(1)
    m = re.match(r"proofkit: error: argument (--[\w-]+|[\w]+): ", line)
    if m:
        return m.group(1)
    m = re.match(r"proofkit: error: the following arguments are required: (.+)$", line)
    if m:
        return m.group(1).split(", ")
    m = re.match(r"proofkit: error: unrecognized arguments: (.+)$", line)
    assert m, line
    return "unrecognized"


def check_command_line(capsys: Any, argv: list[str], top: list[str]) -> tuple[int, str]:
    argv = _resolve(argv)
    with workguard.work_cap(CAP), no_code_from_input():
        code, out, err = run_cli(capsys, *top, "crasp", *argv)
    assert code in (0, 1, 2, 3), (code, err)
    event(f"{argv[0]}: exit {code}")
    assert "Traceback" not in err and "Traceback" not in out
    if code in (0, 1):
        assert err == "", err
        if "--json" in argv:
            json.loads(out)
        return code, ""
    lines = err.split("\n")
    if code == 2 and SYNTAX.match(lines[0]):  # a program's syntax error: the line, its echo, a caret, a hint
        assert lines[-1] == "" and all(len(x) <= MAX_LINE for x in lines), err[:2000]
        if len(lines) > 2:  # a file that does not look like a program is never echoed
            assert len(lines) in (4, 5) and lines[2].strip() == "^", err[:2000]
            assert len(lines) == 4 or lines[3].startswith("hint: "), err[:2000]
        event("exit 2 naming the program's line and column")
        return code, lines[0]
    assert len(lines) == 2 and lines[1] == "" and lines[0].startswith("proofkit: "), err[:2000]
    line = lines[0]
    assert len(line) <= MAX_LINE, f"{len(line)} characters: {line[:300]}..."
    if code == 3:
        return code, line
    field = _field(line)
    event(f"exit 2 naming {field if isinstance(field, str) and not field.startswith('line ') else 'a line'}")
    if isinstance(field, list):
        assert set(field) <= FIELDS | {"crasp_cmd", "program"}, line
    elif field != "unrecognized":
        assert field in FIELDS or re.fullmatch(r"line \d+, column \d+", field), line
    return code, line


@given(command_lines())
@_settings(100, fast=True)
def test_fuzz_crasp_command_lines(capsys, case):
    _warm(capsys)
    check_command_line(capsys, *case)


@pytest.mark.slow
@given(command_lines())
@_settings(2000, fast=False)
def test_fuzz_crasp_command_lines_large(capsys, case):
    _warm(capsys)
    check_command_line(capsys, *case)


# ----------------------------------------------------------------------------- regex:PATTERN = re.fullmatch
REGEX_SYMBOLS = ["a", "b", "c", "\u00e9", "\u0661", "(", "-", "]", "A"]


@st.composite
def regexes(draw: Any) -> tuple[str, tuple[str, ...]]:
    """(pattern, alphabet): patterns of supported constructs only (every one compiles in re)."""
    alphabet = tuple(draw(st.lists(st.sampled_from(REGEX_SYMBOLS), min_size=1, max_size=3, unique=True)))
    chars = list(alphabet) + ["x", "B"]

    def atom() -> str:
        kind = draw(st.integers(0, 5))
        if kind <= 1:
            return re.escape(draw(st.sampled_from(chars)))
        if kind == 2:
            return draw(st.sampled_from([".", r"\w", r"\W", r"\d", r"\D", r"\s", r"\S", "[a-c]", "[^a-b]",
                                         "[A-Z]", r"[\d\w]", "[^\u0661]"]))
        picked = draw(st.lists(st.sampled_from(chars), min_size=1, max_size=3))
        members = "".join(re.escape(c) for c in picked)
        return f"[{'^' if kind == 3 else ''}{members}]"

    def node(depth: int, repeats: int = 0) -> str:
        """At most two nested repeats: the oracle, Python's backtracking matcher, is exponential on deeper
        nests of repeats that can match the empty string (the automaton is not)."""
        kind = draw(st.integers(0, (9 if repeats < 2 else 6) if depth > 0 else 1))
        if kind <= 1:
            return atom()
        if kind == 2:
            return draw(st.sampled_from(["^", "$", r"\A", r"\Z", ""]))
        if kind in (3, 4):
            return node(depth - 1, repeats) + node(depth - 1, repeats)
        if kind == 5:
            return "|".join(node(depth - 1, repeats) for _ in range(draw(st.integers(2, 3))))
        if kind == 6:
            group = draw(st.sampled_from(["(", "(?:", "(?i:", "(?a:", "(?-i:"]))
            return group + node(depth - 1, repeats) + ")"
        quant = draw(st.sampled_from(["*", "+", "?", "{2}", "{0,2}", "{1,}", "{,2}", "{3,4}"]))
        return "(?:" + node(depth - 1, repeats + 1) + ")" + quant + draw(st.sampled_from(["", "", "?"]))

    flags = draw(st.sampled_from(["", "", "", "(?i)", "(?a)", "(?s)", "(?x)", "(?ia)"]))
    return flags + node(draw(st.integers(0, 4))), alphabet


def check_regex(pattern: str, alphabet: tuple[str, ...]) -> None:
    compiled = re.compile(pattern)
    with no_code_from_input():
        truth = RegexAutomaton(pattern, alphabet)
    n = {1: 6, 2: 5}.get(len(alphabet), 4)
    X = np.array(list(product(range(len(alphabet)), repeat=n)), dtype=np.int64).reshape(-1, n)
    got = truth.accepts_prefixes(X)
    for row, accepted in zip(X.tolist(), got.tolist()):
        word = "".join(alphabet[i] for i in row)
        expected = [compiled.fullmatch(word[:k]) is not None for k in range(n + 1)]
        assert accepted == expected, (pattern, alphabet, word)


@given(regexes())
@_settings(40, fast=True)
def test_fuzz_regex_automaton_matches_re(case):
    check_regex(*case)


@pytest.mark.slow
@given(regexes())
@_settings(1500, fast=False)
def test_fuzz_regex_automaton_matches_re_large(case):
    check_regex(*case)


# ----------------------------------------------------------------------------- regressions (findings)
def _program(name: str) -> str:
    return str(ROOT / "theorems/hyb24/programs" / name)


@pytest.mark.parametrize("argv,field,why", [
    (["check", MAJORITY, "--against", "x" * 5000, "--max-len", "3"], "--against",
     "Path.is_file raised OSError (file name too long): a traceback"),
    (["check", MAJORITY, "--against", "regex:a{4294967295}", "--max-len", "3"], "--against",
     "re.compile raised OverflowError: a traceback"),
    (["check", MAJORITY, "--against", "regex:(?P<x>a)(?P=x)", "--max-len", "3"],
     "--against", "a backreference: not regular, and exponential for a backtracking matcher"),
    (["check", MAJORITY, "--against", "regex:(?=a)a", "--max-len", "3"], "--against", "lookahead"),
    (["check", MAJORITY, "--against", "regex:a*+", "--max-len", "3"], "--against", "possessive repeat"),
    (["check", MAJORITY, "--against", "regex:(?:a{1,100}){1,100}", "--max-len", "3"], "--against",
     "10 000 automaton states"),
    (["check", MAJORITY, "--against", "regex:(a|b)*a(a|b){14}", "--max-len", "16"], "--against",
     "2^15 deterministic states"),
    (["check", MAJORITY, "--against", "regex:" + "(" * 450 + "a" + ")" * 450, "--max-len", "3"], "--against",
     "a control of the new construction: it recurses once per level, 450 levels ran out of stack"),
    (["check", MAJORITY, "--against", "library:MAJORITY", "--max-len", "30"], "--max-len",
     "a control: the range [0, 24] was already checked"),
    (["eval", MAJORITY, "--string", "abc"], "--string", "was 'string', not the option"),
    (["--max-work", "100", "crasp", "eval", MAJORITY, "--string", "abab"], "--string",
     "crasp eval had no work estimate"),
    (["crasp", "rows", MAJORITY, "--N", "12", "--max-work", "1e6"], "--N",
     "crasp rows had no work estimate: --max-work was ignored (2^24 strings ran)"),
    (["check", MAJORITY, "--against", "library:MAJORITY", "--max-len", "9" * 5000], "--max-len",
     "argparse echoed all 5000 digits"),
    (["compile", MAJORITY, "--precision", "x" * 5000], "--precision", "argparse echoed all 5000 characters"),
    (["compile", MAJORITY, "--out", "w\x00.json"], "--out",
     "os.path.realpath raised ValueError: a traceback (in-process only: argv cannot carry a NUL)"),
])
def test_command_line_findings(capsys, argv, field, why):
    argv = argv if argv[0] in ("crasp", "--max-work") else ["crasp", *argv]
    with workguard.work_cap(CAP):
        code, out, err = run_cli(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and len(err) < 400, (why, err)
    assert _field(err.strip()) == field, (why, err)


def test_files_named_by_against_and_huge_constants_name_the_option(capsys):
    """A DFA file's own field (delta.q0.a) and the vectorized interpreter's length limit ('string
    length') were named as fields; the option at fault is --against or --max-len."""
    paths = files()
    cases = [(["check", MAJORITY, "--against", paths["dfa_bad_field.json"], "--max-len", "3"], "--against",
              "delta.q0.a"),
             (["check", MAJORITY, "--against", paths["dfa_nested.json"], "--max-len", "3"], "--against",
              "nested"),
             (["check", paths["multi.crasp"], "--against", "regex:a*", "--max-len", "3"], "--against",
              "single non-blank characters"),
             (["check", paths["huge.crasp"], "--against", "regex:a*", "--max-len", "3"], "--max-len",
              "an integer in [0, 1] for this program")]
    for argv, field, fragment in cases:
        code, _, err = run_cli(capsys, "crasp", *argv)
        assert code == 2 and _field(err.strip()) == field and fragment in err, err


def test_pathological_regexes_run_in_linear_time(capsys):
    """Python's backtracking matcher takes 3^n steps on ((a|a|a)(a|a|a))* against a^n with n odd (and
    4^n for (a|a|a|a)*c): --max-len 24 never finished. The automaton answers at once, and right."""
    import time

    unary = _program("aa_star_unary.crasp")  # alphabet a, L := mod(2, 0): (aa)*
    start = time.perf_counter()
    code, out, err = run_cli(capsys, "crasp", "check", unary, "--against", "regex:((a|a|a)(a|a|a))*",
                             "--max-len", "24", "--json")
    assert code == 0 and json.loads(out)["agrees"] and err == ""
    code, out, _ = run_cli(capsys, "crasp", "check", MAJORITY, "--against", "regex:(a|a|a|a)*c?(?:(a*)*)*",
                           "--max-len", "16", "--json")
    assert code == 1 and json.loads(out)["disagreement"] == "ab"  # majority accepts it, a* does not
    assert time.perf_counter() - start < 5


def test_rows_and_eval_estimates_follow_the_cap(capsys):
    """crasp rows and crasp eval are estimated like the other commands: refused above --max-work,
    naming the option to lower, and run below it."""
    code, _, err = run_cli(capsys, "crasp", "rows", MAJORITY, "--N", "6", "--max-work", "1e5")
    assert code == 2 and "--N" in err and "2^(2N) strings" in err
    code, out, _ = run_cli(capsys, "crasp", "rows", MAJORITY, "--N", "6", "--max-work", "1e6")
    assert code == 0 and "N=6: rows 7" in out
    code, _, err = run_cli(capsys, "crasp", "eval", MAJORITY, "--string", "ab" * 500, "--max-work", "1e5")
    assert code == 2 and "--string" in err and "1001 positions x 5 ops" in err
    code, out, _ = run_cli(capsys, "crasp", "eval", MAJORITY, "--string", "ab" * 500, "--max-work", "1e6")
    assert code == 0 and out.rstrip().endswith("accepts: true")


def test_the_regex_automaton_is_python_re_on_every_construct():
    """Flags, classes, categories and anchors, each against re.fullmatch on every string up to length 4."""
    for pattern in ["(?i)A[^B]*", r"(?a)\w+", r"\w*\d", r"[\d\w]?\D", "^(a|$)*$", r"\A(?:a|b)*?\Z",
                    "a{2,3}|b{,2}", "(?s).?", "(?x)a b", "(?i:A)a", "(?-i:a)", "", "a|", "[^\u0661-\u0669]*",
                    r"(?a:\d)\d"]:
        check_regex(pattern, ("a", "b", "\u0661", "A"))
