"""The stored records the kernel tests re-check, and helpers to load, re-stamp and read one result."""

from __future__ import annotations

import json
from pathlib import Path

from proofkit.storage import record

ROOT = Path(__file__).resolve().parents[2]
KERNEL, STORED = ROOT / "proofkit" / "kernel", ROOT / "counterexamples"
#: one stored record per certificate kind (and the two records without a re-checkable certificate)
RECORDS = {
    "rational-learner": "AM24.T4_drop-A5.A-invertible_true_A=singular_dps60_seed0.json",
    "krawczyk": "AM24.T4_drop-A5.square_n=1_dps60_seed0.json",
    "ball-bound": "AM24.T4_drop-A5.injective_activation=relu_true_instance=nonpositive_dps60_seed0.json",
    "identity": "AM24.T5_drop-A6.square_n=1_dps60_seed0.json",
    "pooled-exact": "AM24.T1_drop-A1.injective_activation=relu_family=hinge_learned_dim=1_m=1_n=1_"
                    "support=iid_dps60_seed0.json",
    "pairwise": "AM24.T2_drop-ALL_learned_dim=1_m=1_n=1_supervision=ONLY_dps60_seed0.json",
    "enumeration": "R24.T41_drop-v-generalization_N_drop=6_variant=v-small_seed0.json",
    "limit-transformer": "INL25.T41_drop-finite-precision_variant=infinite-precision_seed0.json",
    "limit-tokens": "INL25.T41_drop-local_variant=non-local_seed0.json",
    "limit-hat": "INL25.T41_drop-nondegenerate_variant=degenerate_seed0.json",
    "closed-form": "AM24.T3_drop-A7.pair-sums_T=4_pair_map=bounded_support=cut_seed0.json",
    "closed-form-offset": "AM24.T3_drop-ALL_supervision=ONLY_seed0.json",
    "closed-form-ball": "AM24.EX1_drop-none_seed0.json",
    "hinge": "AM24.L1_drop-regular-closed_region=disc_with_segment_seed0.json",
    "uncertified": "AM24.T1_drop-A1.bias-free_T=1_learned_dim=1_m=1_readout_bias=True_dps60_seed0.json",
}


def stored(key: str) -> dict:
    """A stored record; ``no-data``: the hinge record without its certificate data (a certified record
    the kernel cannot re-check; every stored certified record now carries data)."""
    if key == "no-data":
        rec = stored("hinge")
        del rec["certificate"]["data"]
        return restamp(rec)
    return json.loads((STORED / RECORDS[key]).read_text())


def restamp(rec: dict) -> dict:
    """The record with its SHA-256 recomputed (damage detection is not what these tests exercise)."""
    rec["sha256"] = record.digest(rec)
    return rec


def only(results: list) -> object:
    assert len(results) == 1, results
    return results[0]


def _data(rec: dict) -> dict:
    return rec["certificate"]["data"]


def _bump_digit(text: str) -> str:
    """The first non-zero digit of a number string changed (1 -> 2, ..., 9 -> 8)."""
    for i, ch in enumerate(text):
        if ch in "123456789":
            return text[:i] + ("8" if ch == "9" else str(int(ch) + 1)) + text[i + 1:]
    return text.replace("0", "1", 1)


def _flip(text: str) -> str:
    return text[1:] if text.startswith("-") else "-" + text
