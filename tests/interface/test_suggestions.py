"""Close-match suggestions wherever a name is read (issue 28, item 5): a near miss of a subcommand, a
theorem id, a parameter, a value, an assumption, a format, a backend, a record kind or a library name is
one line of bad input (exit 2) that names the closest valid one."""

from __future__ import annotations

import pytest

from proofkit.errors import did_you_mean, one_of
from proofkit.interface.cli import main

PROGRAM = "theorems/hyb24/programs/dyck1.crasp"
CASES = [  # argv, the suggestion wanted
    (["chek"], "check"),
    (["check", "AM24.T44"], "AM24.T4"),
    (["check", "AM24.T4", "--set", "TT=3"], "T"),
    (["check", "AM24.T4", "--set", "activation=sigmod"], "sigmoid"),
    (["check", "AM24.T4", "--set", "support=subspac"], "subspace"),
    (["scan", "AM24.T4", "--param", "learned_dm", "--values", "2"], "learned_dim"),
    (["show", "AM24.T4", "--drop", "A88"], "A8"),
    (["falsify", "AM24.T4", "--drop", "A5.Lam-invertibel"], "A5.Lam-invertible"),
    (["falsify", "AM24.T4", "--drop", "A9"], "A8"),  # one character off a short name
    (["--backend", "nmpy", "list"], "numpy"),
    (["validate", "recrd", "README.md"], "record"),
    (["bench", "--only", "fitt"], "fit"),
    (["crasp", "check", PROGRAM, "--against", "library:DYCK1", "--max-len", "3"], "DYCK-1"),
    (["plot", "README.md", "--out", "x", "--format", "pnf"], "png"),
    (["check", "AM24.T4", "--dpss", "60"], "--dps"),
]


def _code(argv: list[str]) -> int:
    """The exit code, whether the argument parser (SystemExit) or proofkit (a return) refused."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


@pytest.mark.parametrize("argv, wanted", CASES, ids=[" ".join(a) for a, _ in CASES])
def test_a_near_miss_names_the_closest_valid_name(capsys, argv, wanted):
    assert _code(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1, err
    assert f"did you mean {wanted}?" in err, err


def test_one_of_suggests_only_a_close_name():
    assert "did you mean" not in str(one_of("kind", ["alpha", "beta"], "zzz"))
    assert str(one_of("kind", ["alpha", "beta"], "bta")).endswith("expected one of alpha, beta (did you mean "
                                                                  "beta?), got 'bta'")
    assert did_you_mean(3, ["3"]) == ""  # only names are matched


def test_an_option_of_another_subcommand_says_which_has_it(capsys):
    """``check --drop`` is no typo of --dps: --drop belongs to show and falsify, and the line says so."""
    assert _code(["check", "AM24.T4", "--drop", "A8"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--drop is an option of: show, falsify" in err and "--dps" not in err

