"""Regions, the Lemma-1 falsifier (proofkit.geometry.transfer) and the AM24.L1 theorem file."""

import importlib.util
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

from proofkit.engine.symbolic import is_zero
from proofkit.errors import InputError
from proofkit.geometry.regions import NAMED, Box, Disc, Region, Segment, named
from proofkit.geometry.transfer import FALSIFIER, falsify, replay, search_region
from proofkit.language.spec import WitnessOutcome
from proofkit.language.verdict import Verdict

THEOREM_FILE = Path(__file__).resolve().parents[2] / "theorems" / "am24" / "l1_lemma.py"
CATALOG_WITNESS = {"region": "disc_with_segment", "d": "(y)*max(x - 1, 0)^2", "anchor": "1,0",
                   "direction": "1,0", "normal": "0,1", "p": "2", "c": "1", "point": "3/2,0",
                   "grad": "0,1/4"}
REGULAR = {"unit_disc": True, "square": True, "two_boxes_touching_at_corner": True,
           "disc_with_segment": False}


def load_theorem():
    spec = importlib.util.spec_from_file_location("l1_lemma_under_test", THEOREM_FILE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.THEOREM


@pytest.mark.parametrize("name", sorted(REGULAR))
def test_regular_closedness_of_named_regions(name):
    ok, why = named(name).is_regular_closed()
    assert ok is REGULAR[name], why
    assert (named(name).lower_dim_excess() == []) is REGULAR[name]


def test_disc_with_segment_excess_is_the_whole_segment():
    assert named("disc_with_segment").lower_dim_excess() == [Segment((1, 0), (2, 0))]
    assert "segment (1, 0)-(2, 0)" in named("disc_with_segment").is_regular_closed()[1]


def test_containment_is_exact_with_surd_end_points():
    # the segment leaves the union of two discs at t = 3/10 + sqrt(6)/20, exactly
    region = Region([Disc(0, 0, 1), Disc(1, 0, "1/2"), Segment((0, 0), (3, 1))], "two_discs")
    assert region.excess_intervals() == [(2, sp.Rational(3, 10) + sp.sqrt(6) / 20, 1)]
    inside = Region([Box(0, 1, 0, 1), Segment((0, 0), (1, 1))], "box_with_diagonal")
    assert inside.is_regular_closed()[0]
    assert not Region([Segment((0, 0), (1, 0))], "bare").is_regular_closed()[0]


@pytest.mark.parametrize("build, field", [
    (lambda: Disc(0, 0, 0), "Disc.r"),
    (lambda: Disc(0, 0, "-1/2"), "Disc.r"),
    (lambda: Segment((1, 0), ("1.0", 0)), "Segment"),
    (lambda: Box(0.5, 1, 0, 1), "Box.x0"),
    (lambda: Box(0, "abc", 0, 1), "Box.x1"),
    (lambda: Box(1, 0, 0, 1), "Box"),
    (lambda: Segment((0, 0, 0), (1, 0)), "Segment.p"),
    (lambda: Region([], "empty"), "Region.pieces"),
    (lambda: named("moon"), "region"),
])
def test_bad_input_names_the_field(build, field):
    with pytest.raises(InputError) as err:
        build()
    assert err.value.field == field


def test_exact_inputs_accepted():
    assert Disc("0.5", Fraction(1, 3), sp.Rational(2)).cx == sp.Rational(1, 2)


def test_sampler_is_seeded_and_lands_in_x():
    region = named("disc_with_segment")
    a = region.sample(np.random.default_rng(3), 400)
    assert np.array_equal(a, region.sample(np.random.default_rng(3), 400)) and a.shape == (400, 2)
    on_disc = np.hypot(a[:, 0], a[:, 1]) <= 1 + 1e-12
    on_seg = (a[:, 1] == 0) & (a[:, 0] >= 1) & (a[:, 0] <= 2)
    assert np.all(on_disc | on_seg) and on_seg.any() and on_disc.any()
    with pytest.raises(InputError):
        region.sample(np.random.default_rng(0), -1)


def test_falsifier_finds_the_catalog_counterexample():
    out = falsify({"region": "disc_with_segment"})
    assert isinstance(out, WitnessOutcome) and out.found and out.certified
    assert out.witness == CATALOG_WITNESS
    assert out.effort.startswith("1 of 36 ")
    gx, gy = (Fraction(v) for v in out.witness["grad"].split(","))
    assert (gx, gy) == (0, Fraction(1, 4))


@pytest.mark.parametrize("name, total", [("unit_disc", 24), ("square", 48),
                                         ("two_boxes_touching_at_corner", 96)])
def test_falsifier_is_empty_on_regular_closed_regions(name, total):
    out = falsify({"region": name})
    assert not out.found and out.witness is None
    assert out.effort.startswith(f"{total} of {total} hinge candidates")


def test_falsifier_moves_a_surd_anchor_to_a_rational_point():
    region = Region([Disc(0, 0, 1), Disc(1, 0, "1/2"), Segment((0, 0), (3, 1))], "two_discs")
    out = search_region(region)
    assert out.found and out.witness["anchor"] == "3/2,1/2"


def test_replay_reproduces_and_is_deterministic():
    first = falsify({"region": "disc_with_segment"})
    second = search_region(named("disc_with_segment"))
    assert first.witness == second.witness and first.effort == second.effort
    again = replay(dict(first.witness))
    assert again.found and again.witness == first.witness
    assert FALSIFIER.replay(first.witness).witness == first.witness


@pytest.mark.parametrize("key, value, field", [
    ("point", "abc", "witness.point"),
    ("anchor", "1", "witness.anchor"),
    ("c", "1/0", "witness.c"),
    ("p", "1", "witness.p"),
    ("normal", "0,-1", "witness.normal"),
    ("region", "moon", "witness.region"),
])
def test_tampered_witness_raises_with_the_field(key, value, field):
    with pytest.raises(InputError) as err:
        replay({**CATALOG_WITNESS, key: value})
    assert err.value.field == field


def test_missing_witness_key_raises():
    witness = {k: v for k, v in CATALOG_WITNESS.items() if k != "p"}
    with pytest.raises(InputError) as err:
        replay(witness)
    assert err.value.field == "witness.p"


@pytest.mark.parametrize("changes, why", [
    ({"point": "3/2,1/2", "grad": "1/2,1/4"}, "not a point of X"),
    ({"anchor": "0,0", "d": "(y)*max(x, 0)^2", "grad": "0,9/4"}, "non-zero on some piece"),
    ({"point": "1,0", "grad": "0,0"}, "grad d = 0"),
])
def test_tampered_numbers_are_re_decided(changes, why):
    # inputs changed with every derived field recomputed: a consistent witness, re-decided exactly
    out = replay({**CATALOG_WITNESS, **changes})
    assert not out.found and why in out.how


@pytest.mark.parametrize("changes, field, recomputed", [
    ({"grad": "0,1/2"}, "witness.grad", "0,1/4"),
    ({"grad": "0,0.25"}, "witness.grad", "0,1/4"),
    ({"d": "(y)*max(x - 2, 0)^2"}, "witness.d", "(y)*max(x - 1, 0)^2"),
    ({"point": "3/2,1/2"}, "witness.grad", "1/2,1/4"),  # point moved, grad left as it was
    ({"anchor": "0,0"}, "witness.d", "(y)*max(x, 0)^2"),
    ({"c": "2"}, "witness.d", "2*(y)*max(x - 1, 0)^2"),
    ({"anchor": "1.0,0"}, "witness.anchor", "1,0"),  # not the form replay writes
])
def test_stale_derived_field_raises_with_the_recomputed_value(changes, field, recomputed):
    with pytest.raises(InputError) as err:
        replay({**CATALOG_WITNESS, **changes})
    assert err.value.field == field and repr(recomputed) in err.value.expected


def test_unknown_witness_key_raises():
    with pytest.raises(InputError) as err:
        replay({**CATALOG_WITNESS, "note": "x"})
    assert err.value.field == "witness.note"


def test_missing_derived_witness_key_raises():
    witness = {k: v for k, v in CATALOG_WITNESS.items() if k != "grad"}
    with pytest.raises(InputError) as err:
        replay(witness)
    assert err.value.field == "witness.grad"


def test_theorem_claims_match_expectations():
    thm = load_theorem()
    assert thm.id == "AM24.L1" and thm.falsifier is FALSIFIER
    for claim in thm.claims:
        verdict = Verdict.CERTIFIED if is_zero(claim.check()) else Verdict.REFUTED
        assert verdict == thm.expect[claim.name], claim.name
    assert thm.violated({"region": "unit_disc"}) == []
    assert thm.violated({"region": "disc_with_segment"}) == ["regular-closed"]
    assert set(thm.params.get("region").choices) == set(NAMED)
    assert thm.falsifier(thm.params.resolve(thm.assumption("regular-closed").drop)).found
