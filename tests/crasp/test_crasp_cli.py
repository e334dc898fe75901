"""proofkit crasp eval/check/compile/rows on files: results, exit codes, and bad input (exit 2, one line)."""

import json
from pathlib import Path

import pytest

from proofkit.interface.cli import main

PROGRAMS = Path(__file__).resolve().parents[2] / "theorems" / "hyb24" / "programs"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_eval_reports_every_op_at_every_prefix(capsys):
    code, out, _ = run(capsys, "crasp", "eval", str(PROGRAMS / "majority.crasp"), "--string", "aab", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["accepts"] is True and obj["values"]["M"] == [True, True, True, True]
    assert all(v is True for v in obj["values"]["M"]) and obj["values"]["_t3"] == [0, 0, 0, 1]


def test_check_finds_and_shrinks_the_mutant_disagreement(capsys):
    code, out, _ = run(capsys, "crasp", "check", str(PROGRAMS / "dyck1_mutant.crasp"), "--against",
                       "library:DYCK-1", "--max-len", "10", "--json")
    assert code == 1 and json.loads(out)["disagreement"] == ")("


def test_check_against_regex_and_dfa_file(capsys, tmp_path):
    code, _, _ = run(capsys, "crasp", "check", str(PROGRAMS / "astar_bstar.crasp"), "--against", "regex:a*b*",
                     "--max-len", "10")
    assert code == 0
    dfa = {"alphabet": ["0", "1"], "states": ["q"], "start": "q", "accept": ["q"], "delta": {"q": {"1": "q"}}}
    (tmp_path / "t1.json").write_text(json.dumps(dfa))
    code, _, _ = run(capsys, "crasp", "check", str(PROGRAMS / "tomita1.crasp"), "--against",
                     str(tmp_path / "t1.json"), "--max-len", "10")
    assert code == 0


def test_compile_and_rows(capsys, tmp_path):
    code, out, _ = run(capsys, "crasp", "compile", str(PROGRAMS / "majority.crasp"), "--check-len", "8",
                       "--out", str(tmp_path / "w.json"), "--json")
    assert code == 0 and json.loads(out)["agrees"] and (tmp_path / "w.json").is_file()
    code, out, _ = run(capsys, "crasp", "rows", str(PROGRAMS / "majority.crasp"), "--N", "5", "--json")
    obj = json.loads(out)
    assert code == 0 and [r["rows"] for r in obj["rows"]] == [2, 3, 4, 5, 6] and obj["within_bound"]


@pytest.mark.parametrize("text,column", [
    ("alphabet: a b\nX := #Q(a) <= Q(b)\n", 15),
    ("alphabet: a b\nX := mod(0, 0)\n", 10),
    ("alphabet: a b\nX := #[-1] Q(a) >= 1\n", 8),
    ("alphabet: a b\nX := Q(c)\n", 8),
    ("alphabet: a b\n__import__('os')\n", 1),
])
def test_malformed_programs_are_bad_input(capsys, tmp_path, text, column):
    """FILE:LINE:COL: message on the first line (self-contained), then the line, a caret under the column."""
    p = tmp_path / "bad.crasp"
    p.write_text(text)
    code, out, err = run(capsys, "crasp", "eval", str(p), "--string", "ab")
    first, quoted, caret, *rest = err.rstrip("\n").split("\n")
    assert code == 2 and out == "" and "Traceback" not in err and len(rest) <= 1
    assert first.startswith(f"proofkit: bad input: {p}:2:{column}: expected ")
    assert quoted == "  " + text.split("\n")[1] and caret == "  " + " " * (column - 1) + "^"


@pytest.mark.parametrize("argv,field", [
    (["eval", "majority.crasp", "--string", "abc"], "string"),
    (["check", "majority.crasp", "--against", "library:DYCK-1", "--max-len", "5"], "--against"),
    (["check", "majority.crasp", "--against", "library:NOPE", "--max-len", "5"], "--against"),
    (["check", "majority.crasp", "--against", "regex:a*", "--max-len", "100"], "--max-len"),
    (["rows", "majority.crasp", "--N", "40"], "--N"),
])
def test_bad_arguments_name_the_field(capsys, argv, field):
    argv = [argv[0], str(PROGRAMS / argv[1]), *argv[2:]]
    code, _, err = run(capsys, "crasp", *argv)
    assert code == 2 and field in err, err


def test_a_file_that_is_no_program_is_never_quoted(capsys, tmp_path):
    """An error must not quote the first word of an arbitrary file (a password file, a key)."""
    secret = tmp_path / "shadow"
    secret.write_text("root:$6$secret-hash:19000:0:99999:7:::\n")
    code, out, err = run(capsys, "crasp", "eval", str(secret), "--string", "a")
    assert code == 2 and out == "" and "root:" not in err and "secret" not in err and err.count("\n") == 1
    assert "expected 'alphabet:' as the first line" in err
