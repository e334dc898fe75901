"""C-RASP for a new user (issue 15, section 3): constant multiplication, one regex spelling, ``crasp info``,
a readable ``crasp eval``, compiler-style syntax errors with hints, work refused before it starts, a seeded
long-string screen of compiled networks, and checking a program against the user's own Python ground truth.
"""

import json
from itertools import product
from pathlib import Path

import numpy as np
import pytest

from proofkit.crasp import TruthCheck, check_against, evaluate, load, parse
from proofkit.crasp.compilation.compiler import compile_program
from proofkit.crasp.compilation.longscreen import screen
from proofkit.crasp.language.analysis import count_bounds, depth
from proofkit.crasp.language.parser import CraspSyntaxError, to_text
from proofkit.crasp.semantics.truth import DFA, LIBRARY
from proofkit.crasp.tools import cli as crasp_cli
from proofkit.errors import InputError
from proofkit.interface.cli import main
from proofkit.runtime import workguard
from proofkit.storage import formats

PROGRAMS = Path(__file__).resolve().parents[2] / "theorems" / "hyb24" / "programs"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def words(alphabet, n):
    return ["".join(w) for m in range(n + 1) for w in product(alphabet, repeat=m)]


# ----------------------------------------------------------------------------- constant multiplication
@pytest.mark.parametrize("scaled,summed", [
    ("2 * #Q(b) <= #Q(a)", "#Q(b) + #Q(b) <= #Q(a)"),
    ("#Q(b) * 3 <= #Q(a) + 1", "#Q(b) + #Q(b) + #Q(b) <= #Q(a) + 1"),
    ("5 * #Q(a) == 3 * #Q(b) + 0 * #Q(a)", "#Q(a) + #Q(a) + #Q(a) + #Q(a) + #Q(a) == #Q(b) + #Q(b) + #Q(b)"),
    ("-2 * #Q(a) + #Q(b) >= -1", "0 - (#Q(a) + #Q(a)) + #Q(b) >= -1"),
    ("(2) * #[1] Q(a) >= 2 * 1", "#[1] Q(a) + #[1] Q(a) >= 2"),
    ("2 * 3 * #Q(a) > #true", "#Q(a) + #Q(a) + #Q(a) + #Q(a) + #Q(a) + #Q(a) > #true"),
])
def test_constant_multiple_is_the_sum(scaled, summed):
    """c * C is C + ... + C: the same value at every prefix of every short string, same depth, and the
    count bound multiplied by c."""
    p, q = (parse(f"alphabet: a b\nM := {text}\n") for text in (scaled, summed))
    for w in words("ab", 6):
        assert evaluate(p, w)["M"] == evaluate(q, w)["M"], w
    assert depth(p) == depth(q)
    assert max(count_bounds(p).values()) == max(count_bounds(q).values())
    assert to_text(parse(to_text(p))) == to_text(p)  # printed as sums, parsed back unchanged


def test_a_large_multiple_costs_logarithmically_many_ops():
    p = parse("alphabet: a b\nM := 1000000 * #Q(a) <= #Q(b)\n")
    assert len(p.ops) < 50 and max(count_bounds(p).values()) == 10**6
    assert evaluate(p, "ab")["M"] == [True, False, False]


@pytest.mark.parametrize("text,column,fragment", [
    ("M := #Q(a) * #Q(b) <= 1", 12, "an integer literal on one side of '*'"),
    ("M := 2 * Q(a)", 10, "count expression as right operand of '*'"),
    ("M := Q(a) * 2", 6, "count expression as left operand of '*'"),
    ("M := 999999999 * 9999999999 * #Q(a) >= 1", 16, "a product of constants of at most 18 digits"),
])
def test_multiplication_errors(text, column, fragment):
    with pytest.raises(CraspSyntaxError) as info:
        parse(f"alphabet: a b\n{text}\n")
    assert (info.value.line, info.value.column) == (2, column) and fragment in str(info.value)


# ----------------------------------------------------------------------------- one regex spelling
def test_regex_with_its_alphabet_is_the_documented_spelling(capsys):
    """regex:a*b*@ab (as the docs say) used to be read as the pattern 'a*b*@ab' and reported a
    disagreement on the empty string."""
    path = str(PROGRAMS / "astar_bstar.crasp")
    for spec in ("regex:a*b*@ab", "regex:a*b*@ba", "regex:a*b*"):
        code, out, _ = run(capsys, "crasp", "check", path, "--against", spec, "--max-len", "8", "--json")
        assert code == 0 and json.loads(out)["agrees"] and json.loads(out)["strings"] == 511, spec
    for spec in ("regex:a*b*@abc", "regex:a*b*@a", "regex:a*b*@", "regex:a*b*@a b"):
        code, _, err = run(capsys, "crasp", "check", path, "--against", spec, "--max-len", "3")
        assert code == 2 and err.startswith("proofkit: bad input: --against: expected regex:PATTERN@ALPHABET")
        assert err.count("\n") == 1, spec


# ----------------------------------------------------------------------------- crasp info
def test_info_reports_fragment_features_depth_and_bounds(capsys):
    code, out, _ = run(capsys, "crasp", "info", str(PROGRAMS / "tomita4.crasp"), "--json")
    obj = json.loads(out)
    assert code == 0 and obj["fragment"] == "[local]" and obj["offsets"] == [1, 2] and obj["moduli"] == []
    assert obj["depth"] == 2 and obj["features"]["local"] == 2 and obj["features"]["periodic"] == 0
    assert [s["name"] for s in obj["statements"]] == ["tri", "T"] and obj["statements"][1]["depth"] == 2
    assert obj["max_vector_length"] > 10**12 and obj["fixed_point_bits"]["1000"] >= 3
    code, out, _ = run(capsys, "crasp", "info", str(PROGRAMS / "aa_star.crasp"))
    assert code == 0 and "C-RASP[periodic] (periodic predicates mod(m, r), modulus 2)" in out
    assert "period      2" in out and "depth       1" in out


def test_info_of_a_program_with_huge_constants_states_its_length_limit(tmp_path, capsys):
    p = tmp_path / "huge.crasp"
    p.write_text("alphabet: a b\nM := 2 * #Q(a) <= 999999999999999999\n")
    code, out, _ = run(capsys, "crasp", "info", str(p), "--json")
    obj = json.loads(out)
    assert code == 0 and obj["max_count_bound"] == 999999999999999999 and obj["max_vector_length"] == 3
    assert obj["statements"][0]["source"] == "M := 2 * #Q(a) <= 999999999999999999"


# ----------------------------------------------------------------------------- crasp eval
def test_eval_labels_every_op_with_a_header_and_true_false(capsys):
    code, out, _ = run(capsys, "crasp", "eval", str(PROGRAMS / "majority.crasp"), "--string", "aab")
    lines = out.rstrip("\n").split("\n")
    assert code == 0 and lines[0].split() == ["position", "0", "1", "2", "3"]
    assert lines[1].split() == ["symbol", "-", "a", "a", "b"]
    assert lines[2].split() == ["_t1", "=", "Q(b)", "false", "false", "false", "true"]
    assert lines[4].split() == ["_t3", "=", "#_t1", "0", "0", "0", "1"]
    assert lines[6].split() == ["M", "=", "_t3", "<=", "_t4", "true", "true", "true", "true"]
    assert lines[-1] == "accepts: true" and "1" not in lines[2].split()[3:]
    code, out, _ = run(capsys, "crasp", "eval", str(PROGRAMS / "majority.crasp"), "--string", "ab b",
                       "--json")
    assert code == 2  # a blank is no symbol of {a, b}
    code, out, _ = run(capsys, "crasp", "eval", str(PROGRAMS / "majority.crasp"), "--string", "abb", "--json")
    obj = json.loads(out)
    assert obj["accepts"] is False and obj["symbols"] == ["a", "b", "b"] and obj["values"]["M"][-1] is False
    assert {o["name"]: o["definition"] for o in obj["ops"]}["_t3"] == "#_t1"
    assert [o["statement"] for o in obj["ops"]] == [False] * 4 + [True]
    formats.validate("crasp-eval", obj)


# ----------------------------------------------------------------------------- syntax errors
HINTS = [
    ("M := #Q(a) && #Q(b) >= 1", 12, "write 'and'"),
    ("M := Q(a) || Q(b)", 11, "write 'or'"),
    ("M := !Q(a)", 6, "write 'not P'"),
    ("M := #a <= #b", 7, "#Q(a)"),
    ("M := #[1] b >= 1", 11, "#Q(b)"),
    ("# majority", 1, "'//' starts a comment"),
    ("M := #Q(b) <= #Q(a)   # majority", 23, "'//' starts a comment"),
    ("M := True", 6, "lower case"),
    ("M := Q(a) ∧ Q(b)", 11, "write 'and' for '∧'"),
    ("M := #Q(a) ≤ #Q(b)", 12, "write '<=' for '≤'"),
    ("M := #Q(a) * #Q(b) <= 1", 12, "3 * #Q(a) <= 2 * #Q(b)"),
    ("M := a and Q(b)", 6, "Q(a)"),
    ("M := Q(a);", 10, "without ';'"),
]


@pytest.mark.parametrize("line,column,hint", HINTS)
def test_syntax_errors_name_the_file_quote_the_line_and_hint(tmp_path, capsys, line, column, hint):
    p = tmp_path / "slip.crasp"
    p.write_text(f"alphabet: a b\n{line}\nZ := true\n", encoding="utf-8")
    code, out, err = run(capsys, "crasp", "check", str(p), "--against", "library:MAJORITY", "--max-len", "3")
    first, quoted, caret, hint_line = err.rstrip("\n").split("\n")
    assert code == 2 and out == ""
    assert first.startswith(f"proofkit: bad input: {p}:2:{column}: expected ")
    assert quoted == f"  {line}" and caret == "  " + " " * (column - 1) + "^"
    assert hint_line.startswith("hint: ") and hint in hint_line


def test_a_long_line_is_quoted_as_a_window_with_the_caret_aligned(tmp_path, capsys):
    line = "\tM := " + " or ".join(["Q(a)"] * 60) + " or X"
    p = tmp_path / "long.crasp"
    p.write_text(f"alphabet: a b\n{line}\n")
    code, _, err = run(capsys, "crasp", "eval", str(p), "--string", "a")
    first, quoted, caret = err.rstrip("\n").split("\n")
    assert code == 2 and first.startswith(f"proofkit: bad input: {p}:2:{len(line)}: ")
    assert len(quoted) < 110 and quoted.startswith("  ...") and quoted[len(caret) - 1] == "X"


def test_the_api_error_stays_one_line_and_carries_the_excerpt():
    with pytest.raises(CraspSyntaxError) as info:
        parse("alphabet: a b\nM := #a <= 1\n")
    exc = info.value
    assert str(exc) == ("line 2, column 7: expected the name of an earlier statement ('a' is an unknown "
                        "name), got 'a'")
    assert exc.source_line == "M := #a <= 1" and exc.source_column == 7 and "#Q(a)" in exc.hint
    with pytest.raises(CraspSyntaxError) as info:
        parse("root:secret\n")
    assert info.value.source_line is None and info.value.hint is None


# ----------------------------------------------------------------------------- work refused first
def test_check_and_compile_refuse_before_any_work(capsys, monkeypatch):
    """Above the cap nothing is enumerated (check) and nothing is compiled (compile)."""
    def forbidden(*args, **kwargs):
        raise AssertionError("work started before the estimate was checked")

    monkeypatch.setattr(crasp_cli, "accepts_prefixes", forbidden)
    monkeypatch.setattr("proofkit.crasp.compilation.compiler.compile_program", forbidden)
    path = str(PROGRAMS / "dyck1.crasp")
    code, _, err = run(capsys, "--max-work", "1e6", "crasp", "check", path, "--against", "library:DYCK-1",
                       "--max-len", "16")
    assert code == 2 and "--max-len" in err and "2^16 strings x 17 positions x 17 ops" in err
    code, _, err = run(capsys, "--max-work", "1e6", "crasp", "compile", path, "--check-len", "12")
    assert code == 2 and "--check-len" in err and "8191 strings (alphabet 2, length <= 12)" in err


def test_compile_counts_the_interpreter_in_its_estimate(capsys):
    """2047 prefix-tree nodes x 15 weights x 1000 = 3.1e7 units of network steps fit under 3.5e7; with
    the interpreter's 2047 x 11 x 5 x 100 = 1.1e7 they do not."""
    path = str(PROGRAMS / "majority.crasp")
    code, _, err = run(capsys, "--max-work", "3.5e7", "crasp", "compile", path, "--check-len", "10")
    assert code == 2 and "15 weights x 1000 + 2047 strings" in err and "for the interpreter = 4.2e+07" in err
    assert run(capsys, "--max-work", "4.3e7", "crasp", "compile", path, "--check-len", "10")[0] == 0


# ----------------------------------------------------------------------------- long strings, float64
def test_compile_screens_long_strings_in_float64(capsys):
    path = str(PROGRAMS / "majority.crasp")
    code, out, _ = run(capsys, "crasp", "compile", path, "--check-len", "4", "--precision", "float64",
                       "--sample-len", "1500", "--samples", "4", "--seed", "7", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["agrees"] and obj["screen"] == {
        "precision": "float64", "length": 1500, "samples": 4, "seed": 7, "agrees": True, "mismatch": None}
    code, _, err = run(capsys, "crasp", "compile", path, "--samples", "4")
    assert code == 2 and "--samples" in err
    code, _, err = run(capsys, "crasp", "compile", str(PROGRAMS / "tomita4.crasp"), "--check-len", "2",
                       "--sample-len", "100000")
    assert code == 2 and "--sample-len" in err and "attending heads x 100001 positions" in err


def test_the_screen_finds_the_earliest_disagreement_and_replays():
    """A network compiled from a program that differs from the checked one only beyond position 40: the
    screen reports the first position where they differ, with both verdicts, the same under the seed."""
    program = load(PROGRAMS / "majority.crasp")
    other = parse("alphabet: a b\nM := #Q(b) <= #Q(a) and #true <= 40\n")
    net = compile_program(other)
    first = screen(program, net, 120, 6, seed=3, precision="float64")
    m = first.mismatch
    assert m is not None and m.position > 40 and m.interpreter is True and m.network is False
    prefix = "".join(m.string[: m.position])
    assert evaluate(program, prefix)["M"][-1] is True and evaluate(other, prefix)["M"][-1] is False
    assert screen(program, net, 120, 6, seed=3, precision="float64") == first
    assert screen(program, compile_program(program), 120, 6, seed=3).mismatch is None


# ----------------------------------------------------------------------------- the user's own ground truth
def anbn(word: str) -> bool:
    n = len(word) // 2
    return word == "a" * n + "b" * n


def anbn_batch(X: np.ndarray) -> np.ndarray:
    B, n = X.shape
    if n % 2:
        return np.zeros(B, dtype=bool)
    return (X == np.array([0] * (n // 2) + [1] * (n // 2))).all(axis=1)


ANBN = load(PROGRAMS / "anbn.crasp")
COUNTS_ONLY = parse("alphabet: a b\nL := #Q(a) == #Q(b)\n", "counts-only")


def test_a_correct_program_agrees_with_the_users_ground_truth():
    result = check_against(ANBN, anbn, 10, extra=["a" * 400 + "b" * 400, "a" * 400 + "b" * 399])
    assert result == TruthCheck(True, None, None, None, 10, 2047 + 2, 2)
    assert check_against(ANBN, anbn_batch, 12, vectorized=True).agrees
    assert check_against(load(PROGRAMS / "dyck1.crasp"), LIBRARY["DYCK-1"], 8).agrees


def test_a_wrong_program_gets_the_shortest_counterexample():
    r = check_against(COUNTS_ONLY, anbn, 10)
    assert (r.agrees, r.counterexample, r.program_accepts, r.truth_accepts) == (False, "ba", True, False)
    assert check_against(COUNTS_ONLY, anbn_batch, 10, vectorized=True).counterexample == "ba"
    # a program right on every short string and wrong only on a long one: found among the extras
    late = parse("alphabet: a b\nbad := Q(a) and #Q(b) >= 1\nL := #bad == 0 and #Q(a) == #Q(b) and "
                 "#true <= 100\n")
    r = check_against(late, anbn, 8, extra=["a" * 60 + "b" * 60, "a" * 51 + "b" * 51])
    assert (r.agrees, r.counterexample) == (False, "a" * 51 + "b" * 51)


def test_multi_character_symbols_are_tuples_and_bad_truths_are_named():
    p = parse("alphabet: SEP x\nL := #Q(SEP) <= 1\n")
    seen = []
    assert check_against(p, lambda w: seen.append(w) or w.count("SEP") <= 1, 3).agrees
    assert ("SEP", "x", "SEP") in seen and () in seen
    with pytest.raises(InputError) as info:
        check_against(ANBN, lambda w: int(anbn(w)), 3)
    assert info.value.field == "truth"
    with pytest.raises(InputError) as info:
        check_against(ANBN, lambda X: np.zeros(X.shape[0]), 3, vectorized=True)
    assert info.value.field == "truth"
    with pytest.raises(InputError) as info:
        check_against(ANBN, anbn, 3, extra=["abc"])
    assert info.value.field == "extra"
    with pytest.raises(InputError) as info, workguard.work_cap(10**6):
        check_against(ANBN, anbn, 16)
    assert info.value.field == "max_len" and "ground-truth calls" in str(info.value)


# ----------------------------------------------------------------------------- DFA files and the schema
def test_dfa_files_are_validated_against_the_published_schema(monkeypatch):
    seen = []
    real = formats.validate
    monkeypatch.setattr(formats, "validate", lambda kind, obj, document=None: seen.append(kind) or
                        real(kind, obj, document))
    dfa = {"alphabet": ["a"], "states": ["q"], "start": "q", "accept": ["q"], "delta": {"q": {"a": "q"}}}
    assert DFA.from_json(json.dumps(dfa)).accepts("aa") and seen == ["dfa"]
