"""The one cost guard (issue 10, finding 3): every enumeration or compilation whose work grows with its
input is estimated first and refused above the cap with exit 2, one line naming the input, the estimate,
the cap and how to raise it; under a raised cap the same command runs."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from proofkit.crasp.compilation.checking import check_against
from proofkit.crasp.compilation.compiler import compile_program
from proofkit.crasp.compilation.variants import reference
from proofkit.crasp.language.parser import parse
from proofkit.errors import InputError
from proofkit.interface.testing import run_cli
from proofkit.runtime import workguard

PROGRAMS = Path(__file__).resolve().parents[2] / "theorems" / "hyb24" / "programs"


def _program(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def _refused(capsys, field: str, *argv: str) -> str:
    """Run argv; it must be refused within a second with one line naming ``field``, estimate and cap."""
    start = time.perf_counter()
    code, out, err = run_cli(capsys, *argv)
    assert time.perf_counter() - start < 5, "the guard must refuse before the work starts"
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"proofkit: bad input: {field}: expected work within the cap of ")
    assert "estimated" in err and (("--max-work 1e" in err and workguard.ENV in err)
                                   or "beyond the largest cap 1e+15" in err)
    assert "... (" not in err, "the message must not be cut"
    return err


@pytest.mark.parametrize("text", ["P := mod(30000, 0)", "P := mod(997, 0) and mod(991, 0)"])
def test_compile_refuses_a_huge_period(capsys, tmp_path, text):
    path = _program(tmp_path, "p.crasp", f"alphabet: a b\n{text}\n")
    err = _refused(capsys, "program", "crasp", "compile", path)
    assert "Delta = 30000" in err or "Delta = 988027" in err


def test_compile_check_refuses_a_huge_alphabet(capsys, tmp_path):
    syms = " ".join(f"s{i}" for i in range(2501))
    path = _program(tmp_path, "big.crasp", f"alphabet: {syms}\nP := #Q(s0) >= 1\n")
    err = _refused(capsys, "--check-len", "crasp", "compile", path)
    assert "alphabet 2501, length <= 8" in err


def test_check_refuses_three_letters_at_length_24(capsys, tmp_path):
    path = _program(tmp_path, "tri.crasp", "alphabet: a b c\nP := #Q(a) >= 1\n")
    err = _refused(capsys, "--max-len", "crasp", "check", path, "--against", "regex:.*a.*", "--max-len", "24")
    assert "3^24 strings x 25 positions" in err


def test_compile_check_len_16_on_tomita4_is_refused_and_runs_under_a_raised_cap(capsys):
    path = str(PROGRAMS / "tomita4.crasp")
    _refused(capsys, "--check-len", "crasp", "compile", path, "--check-len", "16")
    # a small job under a tiny cap is refused, then runs once the cap is raised (before or after the
    # subcommand, or through the environment)
    _refused(capsys, "--check-len", "crasp", "compile", path, "--check-len", "6", "--max-work", "1e6")
    assert run_cli(capsys, "crasp", "compile", path, "--check-len", "6", "--max-work", "1e10")[0] == 0
    assert run_cli(capsys, "--max-work", "1e10", "crasp", "compile", path, "--check-len", "6")[0] == 0


def test_environment_cap(capsys, monkeypatch):
    path = str(PROGRAMS / "tomita4.crasp")
    monkeypatch.setenv(workguard.ENV, "1e6")
    _refused(capsys, "--check-len", "crasp", "compile", path, "--check-len", "6")
    monkeypatch.setenv(workguard.ENV, "lots")
    code, _, err = run_cli(capsys, "crasp", "compile", path, "--check-len", "4")
    assert code == 2 and f"${workguard.ENV}: expected a positive whole number" in err


@pytest.mark.parametrize("text,value", [("4e10", 4 * 10**10), ("1.5e9", 1_500_000_000), ("1.0e+13", 10**13),
                                        ("123", 123), (" 7 ", 7)])
def test_parse_cap_accepts(text, value):
    assert workguard.parse_cap(text, "--max-work") == value


@pytest.mark.parametrize("text", ["0", "-5", "1.5", "1e16", "inf", "nan", "1e", "", "٣", "1_000", "2**40",
                                  "1" * 17])
def test_parse_cap_rejects_with_the_field(text):
    with pytest.raises(InputError, match="^--max-work: expected a positive whole number"):
        workguard.parse_cap(text, "--max-work")


def test_guard_is_a_parameter_of_the_api():
    """The cap is a parameter in code too: work_cap scopes it; the same call passes under a larger one."""
    program = parse("alphabet: a b\nP := mod(300, 0)\n")
    with workguard.work_cap(10**6), pytest.raises(InputError, match="^program: .*Delta = 300"):
        compile_program(program)
    with workguard.work_cap(10**9):
        net = compile_program(parse("alphabet: a b\nP := mod(3, 0)\n"))
        with pytest.raises(InputError, match="^max_len: "):
            check_against(net, reference(parse("alphabet: a b\nP := mod(3, 0)\n")), 40)
    with pytest.raises(InputError):
        with workguard.work_cap(0):
            pass


def test_estimates_grow_with_every_size():
    """Each estimate is monotone in every size it names, and its formula names them."""
    e = [workguard.enumeration(k, n, 3).units for k, n in [(2, 10), (3, 10), (3, 11)]]
    assert e == sorted(e) and len(set(e)) == 3
    sizes = [(10, 1, 30), (20, 1, 30), (20, 2, 30), (20, 2, 60)]
    c = [workguard.compilation(d, p, w).units for d, p, w in sizes]
    assert c == sorted(c) and len(set(c)) == 4
    tree = workguard.network_run(2, 10, 50, 4, prefix_tree=True)
    full = workguard.network_run(2, 10, 50, 4, prefix_tree=False)
    assert tree.units < full.units and "prefix-tree" in tree.formula and "positions" in full.formula
    assert workguard.strings(2, 3) == 15 and workguard.strings(3, 2, 1) == 12
