"""Parameters that follow another (``Param(follows=...)``): ``--set n=3`` moves the learned dimension with
n, an explicit value wins, and a followed value the follower does not allow is bad input naming both
parameters, raised before any work."""

from __future__ import annotations

import textwrap

import pytest

from proofkit.errors import InputError
from proofkit.interface.testing import run_cli as run
from proofkit.language import registry
from proofkit.language.params import Param, ParamSpace

N = Param("n", int, 2, "token dimension", min=1, max=4)
K = Param("k", int, 2, "learned dimension", min=1, max=3, follows="n")
SPACE = ParamSpace((N, K, Param("T", int, 2, "length", min=1, max=9)))


def test_a_follower_moves_with_its_leader_unless_set_itself():
    assert SPACE.resolve({}) == {"n": 2, "k": 2, "T": 2}
    assert SPACE.resolve({"n": 3}) == {"n": 3, "k": 3, "T": 2}
    assert SPACE.resolve({"n": 3, "k": 1}) == {"n": 3, "k": 1, "T": 2}  # a deliberate mismatch stays
    assert SPACE.resolve({"k": 1}) == {"n": 2, "k": 1, "T": 2}
    assert SPACE.parse_sets(["n=3"]) == {"n": 3}  # overrides stay what was typed; resolve moves k


def test_a_followed_value_the_follower_does_not_allow_names_both():
    with pytest.raises(InputError) as info:
        SPACE.parse_sets(["n=4"])
    exc = info.value
    assert exc.field == "--set n" and exc.got == 4
    assert "k moves with n" in exc.expected and "[1, 3]" in exc.expected and "set k too" in exc.expected
    assert SPACE.resolve({"n": 4, "k": 3}) == {"n": 4, "k": 3, "T": 2}  # set k too: accepted


@pytest.mark.parametrize("params,needle", [
    ((N, Param("k", int, 2, "", follows="m")), "follows must name another parameter"),
    ((N, Param("k", int, 2, "", follows="k")), "follows must name another parameter"),
    ((Param("n", int, 2, "", follows="k"), Param("k", int, 2, "", follows="n")), "follows none"),
    ((N, Param("k", int, 3, "", follows="n")), "same default"),
])
def test_a_follows_declaration_is_checked_when_the_space_is_built(params, needle):
    with pytest.raises(ValueError, match=needle):
        ParamSpace(params)


@pytest.mark.parametrize("theorem_id", ["AM24.T2", "AM24.T4", "AM24.T5"])
def test_the_learned_dimension_of_square_theorems_follows_n(theorem_id):
    """`check AM24.T4 --set n=3` once kept learned_dim = 2: the theorem's square assumption was violated
    and the check inconclusive. Now the learned dimension moves with n; setting it breaks it on purpose."""
    thm = registry.get(theorem_id)
    params = thm.params.resolve({"n": 3})
    assert params["learned_dim"] == 3 and thm.violated(params) == []
    assert thm.params.resolve({"n": 3, "learned_dim": 2})["learned_dim"] == 2


USER_THEOREM = '''
    import sympy as sp
    from proofkit.language.params import Param, ParamSpace
    from proofkit.language.spec import Computed, PaperRef, Theorem

    def never(p):
        raise RuntimeError("the check ran although its parameters were rejected")

    THEOREM = Theorem(
        id="FOLLOW.T", title="follower out of range", paper=PaperRef("proofkit tests", "follows"),
        statement=sp.true, assumptions=(),
        params=ParamSpace((Param("n", int, 2, "dimension", min=1, max=4),
                           Param("k", int, 2, "learned dimension", min=1, max=3, follows="n"))),
        claims=(Computed("runs", "conclusion", "test", text="never decided", run=never),),
    )
'''


@pytest.fixture()
def folder(tmp_path):
    (tmp_path / "follow_theorem.py").write_text(textwrap.dedent(USER_THEOREM))
    return str(tmp_path)


@pytest.mark.parametrize("argv,field", [
    (["check", "FOLLOW.T", "--set", "n=4"], "--set n"),
    (["scan", "FOLLOW.T", "--param", "n", "--values", "1,4", "--no-search"], "--values"),
])
def test_the_cli_rejects_the_combination_before_any_work(capsys, folder, argv, field):
    code, out, err = run(capsys, "--theorems", folder, *argv)
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.startswith(f"proofkit: bad input: {field}: expected ") and err.count("\n") == 1
    assert "k moves with n" in err and "got 4" in err
