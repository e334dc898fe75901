"""The drop search's space (proofkit.engine.dropspace): every setting violates a dropped assumption and
nothing
else, the declared variant comes first, explicit settings are kept, and an assumption without a declared
variant is searched wherever the parameters express its failure."""

from dataclasses import replace

import pytest

from proofkit.engine.dropspace import space
from proofkit.engine.falsify import _buildable, falsify
from proofkit.language import registry
from proofkit.language.verdict import Verdict


def _numeric():
    return [t for t in registry.load_all().values()
            if t.setup is not None and registry.where(t.id)[1].kind == "builtin"]


@pytest.mark.parametrize("thm", _numeric(), ids=lambda t: t.id)
def test_every_setting_violates_only_what_is_dropped(thm):
    for a in thm.assumptions:
        sp_ = space(thm, [a.id], {}, _buildable(thm))
        declared = thm.params.resolve(dict(a.drop)) if a.drop else None
        allowed = {a.id} | (set(thm.violated(declared)) if declared else set())
        for s in sp_.settings:
            assert a.id in s.violated and set(s.violated) <= allowed, (a.id, s.label())
        if declared is not None and sp_.settings and set(thm.violated(declared)) >= {a.id}:
            assert sp_.settings[0].params == declared, a.id  # the declared variant first
        assert len({tuple(sorted(s.params.items())) for s in sp_.settings}) == len(sp_.settings)


def test_explicit_settings_are_never_changed():
    thm = registry.get("AM24.T2")
    sp_ = space(thm, ["H1.pair-support"], {"activation": "tanh", "n": 2}, _buildable(thm))
    assert sp_.settings and all(s.params["activation"] == "tanh" and s.params["n"] == 2 for s in sp_.settings)


def test_an_assumption_without_a_declared_variant_is_searched():
    """T>=2 of AM24.T4 with its declared change removed: the enumeration reaches T = 1 by itself and the
    exact chain/observer learner refutes it there."""
    thm = registry.get("AM24.T4")
    bare = replace(thm, assumptions=tuple(replace(a, drop={}) if a.id == "T>=2" else a
                                          for a in thm.assumptions))
    res = falsify(bare, ["T>=2"])
    assert res.found and res.certified and res.params["T"] == 1, res.how


def test_no_setting_says_what_a_search_needs():
    res = falsify(registry.get("AM24.EX1"), ["T>=2"])
    assert res.verdict == Verdict.INCONCLUSIVE and not res.found
    assert "no setting of AM24.EX1's parameters violates T>=2" in res.how
    assert res.effort.startswith("no search")


def test_empty_drop_search_names_its_space_and_never_says_unneeded():
    res = falsify(registry.get("AM24.T4"), ["A5.bias-free"], budget=1)
    assert res.verdict == Verdict.INCONCLUSIVE and "no counterexample found in" in res.how
    assert "does not show that the dropped assumption is unnecessary" in res.how
    assert "superfluous" not in res.how and res.details["searched"] == 1 and res.details["settings"] > 1
