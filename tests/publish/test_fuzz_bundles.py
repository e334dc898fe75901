"""Fuzzing evidence bundles with Hypothesis (issue 27): one real bundle of the toy theorem SWEEP.TOY
(tests/sweep/sweep_theorems; built once per module), mutated field by field. Every path of the bundle,
leaves and containers, can be drawn; a mutation changes the value (another of the same type, or of
another type: 3 -> "3", 3.0, true, null, [3], {"v": 3}), drops the key or entry, adds a key, duplicates a
list entry (a claim twice, a record twice) or reverses a list; then the bundle is rehashed (most cases,
so that verification runs) or not, and the text is sometimes cut as bytes.

Properties: ``bundle.load`` raises InputError (one line, naming a ``bundle ...`` field) or returns the
data, and then ``verify`` either raises InputError (an override the theorem refuses) or reports
``altered``, ``forged`` or a comparison that does not reproduce. A mutated bundle verifies as
reproducing only when the mutation is a no-op (the same canonical content), or it changes only the
``environment`` (differences there are reported, never failures: docs/citing.md), or an override set to
the value it resolves to anyway (the resolved parameters, which are compared, are then the same). Never
another exception, never slower than the per-case deadline, never code run from the bundle.

Case counts: the fast run is a derandomized sample of 120 cases plus one re-serialized control (about
3 s); ``-m slow`` runs 3 000 random cases.
"""

from __future__ import annotations

import atexit
import copy
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from proofkit.errors import InputError
from proofkit.language import registry
from proofkit.publish import bundle as bundles
from proofkit.publish import verify as verifying
from tests.fuzzguard import DEADLINE, no_code_from_input

TOY = str(Path(__file__).resolve().parents[1] / "sweep" / "sweep_theorems")
FOLDER = Path(tempfile.mkdtemp(prefix="fuzz_bundles_"))
atexit.register(shutil.rmtree, FOLDER, ignore_errors=True)


def _settings(examples: int, fast: bool) -> settings:
    return settings(max_examples=examples, deadline=DEADLINE, database=None, derandomize=fast,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


def _build() -> dict[str, Any]:
    with registry.using([TOY]):
        return bundles.build(registry.get("SWEEP.TOY"))


BASE = _build()


def paths(node: Any, at: tuple = ()) -> list[tuple]:
    """Every path into ``node``: the containers and the leaves (the root itself left out)."""
    out = [at] if at else []
    if isinstance(node, dict):
        for k in node:
            out += paths(node[k], (*at, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += paths(v, (*at, i))
    return out


PATHS = paths(BASE)


@pytest.fixture(scope="module", autouse=True)
def toy_registered():
    with registry.using([TOY]):
        registry.load_all()
        verifying.verify(copy.deepcopy(BASE), "warm.json")  # lazy imports outside the guard
        yield


# ----------------------------------------------------------------------------- strategies
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=False,
                    allow_infinity=False), st.text(max_size=12),
                    st.sampled_from(["", "certified", "refuted", "error", "SWEEP.TOY", "0" * 64,
                                     "n is large enough", "\u202e", "line\nbreak", "3", "1.0"]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)), max_leaves=8)


def retyped(v: Any) -> list[Any]:
    """The same value as other JSON types."""
    return [str(v), [v], {"v": v}, None, True, 3.0 if v == 3 else 3, json.dumps(v)]


@st.composite
def mutations(draw: Any) -> tuple[dict[str, Any], list[str], bool]:
    """(the mutated bundle, what was done, whether it was rehashed)."""
    doc = copy.deepcopy(BASE)
    done = []
    for _ in range(draw(st.integers(1, 2))):
        path = draw(st.sampled_from(PATHS))
        try:
            parent = doc
            for k in path[:-1]:
                parent = parent[k]
            key = path[-1]
            old = parent[key]
        except (KeyError, IndexError, TypeError):  # an earlier mutation removed it
            continue
        action = draw(st.sampled_from(["value", "type", "drop", "add", "duplicate", "reverse"]))
        if action == "value":
            parent[key] = draw(values)
        elif action == "type":
            parent[key] = draw(st.sampled_from(retyped(old)))
        elif action == "drop":
            del parent[key]
        elif action == "add" and isinstance(old, dict):
            new = draw(st.sampled_from(["n", "mode", "scale", "strict", "extra", "name", "verdict",
                                        "__proto__"]))
            old[new] = draw(scalars)
        elif action == "duplicate" and isinstance(old, list) and old:
            old.append(copy.deepcopy(old[draw(st.integers(0, len(old) - 1))]))
        elif action == "reverse" and isinstance(old, list):
            old.reverse()
        elif isinstance(parent, list):
            parent.insert(key, copy.deepcopy(old))  # an entry twice
            action = "duplicate entry"
        else:
            parent[key] = draw(values)
            action = "value"
        done.append(f"{action} at {'.'.join(map(str, path))}")
    rehash = draw(st.integers(0, 4)) > 0
    if rehash and isinstance(doc.get("sha256"), str):
        doc["sha256"] = bundles.digest(doc)
    return doc, done, rehash


# ----------------------------------------------------------------------------- the property
def _may_reproduce(doc: dict[str, Any]) -> bool:
    """No-op, environment only, or overrides that resolve to the same parameters."""
    base = copy.deepcopy(BASE)
    same = copy.deepcopy(doc)
    for d in (base, same):
        d.pop("environment", None)
        d.pop("sha256", None)
        if isinstance(d.get("check"), dict):
            d["check"].pop("overrides", None)
    return bundles.canonical(base) == bundles.canonical(same)


def _case(text: bytes, doc: Any, done: list[str]) -> None:
    path = FOLDER / "b.json"
    path.write_bytes(text)
    with no_code_from_input():
        try:
            data = bundles.load(path)
            v = verifying.verify(data, "b.json")
        except InputError as exc:
            msg = str(exc)
            assert "\n" not in msg and len(msg) < 1200, msg
            event(f"refused: {exc.field.split('[')[0][:40]}")
            return
    event(f"status {v.status}, reproduces={v.reproduces}")
    assert isinstance(v.text(), str) and "\n" not in "".join(v.failures())
    if v.reproduces:
        assert _may_reproduce(doc), ("a mutated bundle verifies", v.text())
        where = {d.split(" at ")[-1].split(".")[0] for d in done}
        event(f"reproduces after a mutation of {', '.join(sorted(where)) or 'nothing'}")


@given(mutations(), st.integers(0, 9))
@_settings(120, fast=True)
def test_fuzz_mutated_bundles(mutated, cut):
    doc, done, _rehash = mutated
    text = bundles.dumps(doc).encode()
    if cut == 0:  # sometimes cut the text as bytes too
        text = text[: len(text) // 2] + text[len(text) // 2 + 7:]
    _case(text, doc, done)


def test_reserialized_bundle_reproduces():
    """The control: the same bundle written another way (compact, ASCII) still verifies."""
    text = json.dumps(BASE, separators=(",", ":"), ensure_ascii=True).encode()
    path = FOLDER / "compact.json"
    path.write_bytes(text)
    assert verifying.verify(bundles.load(path), "compact.json").reproduces


@pytest.mark.parametrize("where", ["verdict.claims", "theorem.claims"])
def test_a_claim_twice_is_forged(where):
    doc = copy.deepcopy(BASE)
    part, key = where.split(".")
    doc[part][key].append(copy.deepcopy(doc[part][key][0]))
    doc["sha256"] = bundles.digest(doc)
    assert verifying.verify(doc, "b.json").status == "forged"


@pytest.mark.parametrize("where", ["verdict", "claim"])
@pytest.mark.parametrize("label", [["certified"], {"v": "certified"}])
def test_a_verdict_label_of_another_type_is_one_line(capsys, where, label):
    """Regression (found by the slow run): a verdict label that is a list or an object was hashed by the
    loader (``in`` a frozenset) and raised TypeError out of ``verify-bundle``, a traceback."""
    from proofkit.interface.testing import run_cli

    doc = copy.deepcopy(BASE)
    (doc["verdict"] if where == "verdict" else doc["verdict"]["claims"][0])["verdict"] = label
    doc["sha256"] = bundles.digest(doc)
    path = FOLDER / f"label_{where}.json"
    path.write_text(bundles.dumps(doc))
    with pytest.raises(InputError):
        bundles.load(path)
    code, _out, err = run_cli(capsys, "--theorems", TOY, "verify-bundle", str(path))
    lines = [line for line in err.splitlines() if not line.endswith("loading theorems")]
    assert code == 2 and len(lines) == 1 and "bundle verdict" in lines[0], err


def test_a_changed_seed_does_not_reproduce():
    doc = copy.deepcopy(BASE)
    doc["check"]["seed"] = 5
    doc["sha256"] = bundles.digest(doc)
    v = verifying.verify(doc, "b.json")
    assert v.status == "ok" and not v.reproduces


@pytest.mark.slow
@given(mutations(), st.integers(0, 9))
@_settings(3000, fast=False)
def test_fuzz_mutated_bundles_large(mutated, cut):
    doc, done, _rehash = mutated
    text = bundles.dumps(doc).encode()
    if cut == 0:
        text = text[: len(text) // 2] + text[len(text) // 2 + 7:]
    _case(text, doc, done)
