"""Fuzzing the JSON boundaries with Hypothesis (issue #10): generated JSON-ish bytes, mutated real records,
DFA documents and network weights either load (and validate) or raise InputError naming a field, never
any other exception, never slower than the per-case deadline, and never with a code-running function on
the way (eval, exec, compile, pickle, yaml.load, sympify of a string, parse_expr).

The fast suite runs a fixed sample (about 300 cases, derandomized); ``-m slow`` runs more than 10 000
random cases and replays every stored record under the same guard.
"""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from proofkit.crasp.compilation import network  # noqa: F401  (imported here, not lazily under the guard)
from proofkit.crasp.compilation.network import Network
from proofkit.crasp.semantics.truth import DFA
from proofkit.engine.replay import replay
from proofkit.errors import InputError
from proofkit.storage import record
from tests.fuzzguard import DEADLINE, no_code_from_input

ROOT = Path(__file__).resolve().parents[2]
RECORD_FILES = sorted((ROOT / "counterexamples").glob("*.json"))
RECORDS = [json.loads(p.read_text()) for p in RECORD_FILES]
DFA_DOC = {"alphabet": ["a", "b"], "states": ["q0", "q1"], "start": "q0", "accept": ["q1"],
           "delta": {"q0": {"a": "q1", "b": "q0"}, "q1": {"a": "q1"}}}


def _settings(examples: int, fast: bool) -> settings:
    return settings(max_examples=examples, deadline=DEADLINE, database=None, derandomize=fast,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


def _only_input_errors(load: Any, doc: Any) -> Any:
    """load(doc) under the guard: a value or an InputError (one line, naming a field)."""
    with no_code_from_input():
        try:
            return load(doc)
        except InputError as exc:
            assert exc.field and "\n" not in str(exc) and len(str(exc)) < 1200, str(exc)
            return None


# ----------------------------------------------------------------------------- strategies
JSON_CHARS = '{}[]",:0123456789.eE+-/ \\\ntruefalsnNIaIy\u0661\uff11\ud800\ufeff'
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**50, 10**50),
                    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20))
json_values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=5)), max_leaves=25)
numberish = st.one_of(
    st.from_regex(r"[+-]?[0-9]{0,25}(\.[0-9]{0,25})?([eE][+-]?[0-9]{1,8})?", fullmatch=True),
    st.text(alphabet="0123456789.eE+-/ _x\u0661\u0662\uff11\u00b2\u06f3", max_size=30),
    st.sampled_from(["1e-999999", "1e-9999999", "0e-999999", "1e309", "NaN", "-Infinity", "1/0", "0x1f",
                     "1" * 5000, "0." + "3" * 5000, "1/" + "7" * 1500]),
    st.integers(-10**30, 10**30).map(str),
    st.tuples(st.integers(-10**20, 10**20), st.integers(1, 10**20)).map(lambda t: f"{t[0]}/{t[1]}"))
json_ish = st.one_of(
    st.binary(max_size=300),
    st.text(alphabet=JSON_CHARS, max_size=300),
    json_values.map(json.dumps),
    st.integers(1, 3000).flatmap(lambda n: st.sampled_from(["[" * n + "]" * n, '{"a":' * n, "[" * n])))


@st.composite
def mutated_records(draw: Any) -> bytes:
    """A stored record, mutated structurally (a field set to a generated value or number string, a key
    dropped, added or duplicated, rehashed or not) and/or textually (bytes cut, inserted or replaced)."""
    rec = copy.deepcopy(draw(st.sampled_from(RECORDS)))
    for _ in range(draw(st.integers(0, 3))):
        key = draw(st.sampled_from(sorted(rec)))
        action = draw(st.sampled_from(["value", "number", "drop", "add", "nested"]))
        if action == "value":
            rec[key] = draw(json_values)
        elif action == "drop":
            rec.pop(key)
        elif action == "add":
            rec[draw(st.text(max_size=10))] = draw(json_values)
        elif action == "number" or not isinstance(rec.get(key), (list, dict)) or not rec[key]:
            rec[key] = draw(numberish)
        else:
            node = rec[key]
            sub = draw(st.sampled_from(range(len(node)) if isinstance(node, list) else sorted(node)))
            node[sub] = draw(st.one_of(numberish, json_values))
    if draw(st.booleans()):
        rec["sha256"] = record.digest(rec)
    text = record.canonical(rec).encode()
    for _ in range(draw(st.integers(0, 2))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 40)))
        action = draw(st.sampled_from(["cut", "insert", "replace", "duplicate-line"]))
        if action == "cut":
            text = text[:i] + text[j:]
        elif action == "insert":
            text = text[:i] + draw(st.binary(max_size=20)) + text[i:]
        elif action == "replace":
            new = draw(st.text(alphabet=JSON_CHARS, max_size=20)).encode("utf-8", "replace")
            text = text[:i] + new + text[j:]
        else:
            lines = text.split(b"\n")
            k = draw(st.integers(0, len(lines) - 1))
            text = b"\n".join(lines[:k + 1] + [lines[k]] + lines[k + 1:])
    return text


def _network_doc() -> dict:
    from proofkit.crasp.compilation.compiler import compile_program
    from proofkit.crasp.language.parser import load

    return json.loads(compile_program(load(ROOT / "theorems/hyb24/programs/majority.crasp")).to_json())


@st.composite
def mutated_json(draw: Any, base: dict) -> str:
    """``base`` with a few values anywhere in it replaced by generated ones."""
    doc = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        node, path = doc, []
        while isinstance(node, (dict, list)) and node and draw(st.integers(0, 3)):
            key = draw(st.sampled_from(sorted(node) if isinstance(node, dict) else list(range(len(node)))))
            path.append((node, key))
            node = node[key]
        if path:
            parent, key = path[-1]
            parent[key] = draw(st.one_of(numberish, json_values))
    return json.dumps(doc)


# ----------------------------------------------------------------------------- the properties
def _record(doc: bytes) -> None:
    rec = _only_input_errors(record.loads, doc)
    if rec is not None:  # loaded: it validated; every number in it is a capped ASCII decimal or fraction
        assert rec["sha256"] == record.digest(rec)
        for i, v in enumerate(rec.get("learned_params", [])):
            record.check_number(v, f"learned_params[{i}]")


def _any(doc: Any) -> None:
    text = doc.decode("utf-8", "replace") if isinstance(doc, bytes) else doc
    _only_input_errors(record.loads, doc)
    _only_input_errors(DFA.from_json, text)
    _only_input_errors(Network.from_json, doc)


NETWORK = _network_doc()


@given(mutated_records())
@_settings(150, fast=True)
def test_fuzz_mutated_records(doc):
    _record(doc)


@given(json_ish)
@_settings(70, fast=True)
def test_fuzz_json_ish_bytes(doc):
    _any(doc)


@given(mutated_json(DFA_DOC))
@_settings(40, fast=True)
def test_fuzz_dfa_documents(doc):
    _only_input_errors(DFA.from_json, doc)


@given(mutated_json(NETWORK))
@_settings(40, fast=True)
def test_fuzz_network_weights(doc):
    _only_input_errors(Network.from_json, doc)


@pytest.mark.slow
@given(mutated_records())
@_settings(4500, fast=False)
def test_fuzz_mutated_records_large(doc):
    _record(doc)


@pytest.mark.slow
@given(json_ish)
@_settings(2500, fast=False)
def test_fuzz_json_ish_bytes_large(doc):
    _any(doc)


@pytest.mark.slow
@given(mutated_json(DFA_DOC))
@_settings(1500, fast=False)
def test_fuzz_dfa_documents_large(doc):
    _only_input_errors(DFA.from_json, doc)


@pytest.mark.slow
@given(mutated_json(NETWORK))
@_settings(1500, fast=False)
def test_fuzz_network_weights_large(doc):
    _only_input_errors(Network.from_json, doc)


# ----------------------------------------------------------------------------- replay under the guard
def _replay_all(paths: list[Path]) -> None:
    for path in paths:
        replay(path)  # warm up: lazy imports and theorem files load outside the guard
    with no_code_from_input():
        for path in paths:
            res = replay(path)
            assert res.reproduces, f"{path.name}: {res.how}"


def test_replay_runs_no_code_from_input():
    """Every stored AM24 record (the fast ones) replays with eval, exec, pickle, yaml.load, sympify of
    strings and parse_expr made to raise."""
    _replay_all([p for p in RECORD_FILES if p.name.startswith("AM24.")])


def test_the_guard_catches_what_it_guards():
    import sympy

    for call in (lambda: eval("1"), lambda: pickle.loads(pickle.dumps(1)), lambda: sympy.sympify("x + 1"),
                 lambda: compile("1", "<s>", "eval")):
        with pytest.raises(AssertionError), no_code_from_input():
            call()
    assert eval("1") == 1 and sympy.sympify("x").is_Symbol  # restored afterwards


@pytest.mark.slow
def test_replay_every_stored_record_runs_no_code_from_input():
    _replay_all(RECORD_FILES)


T4_RECORDS = [r for r in RECORDS if r["theorem"] == "AM24.T4"]


@st.composite
def rehashed_t4_records(draw: Any) -> bytes:
    """An AM24.T4 model record with one to three numbers or parameters replaced, always rehashed, so
    that it passes the hash and exercises validation and replay itself."""
    rec = copy.deepcopy(draw(st.sampled_from(T4_RECORDS)))
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(["learned_params", "witness", "params", "train_residual",
                                      "test_discrepancy", "dps", "witness_length"]))
        if where == "learned_params":
            rec[where][draw(st.integers(0, len(rec[where]) - 1))] = draw(numberish)
        elif where == "witness":
            row = rec[where][draw(st.integers(0, len(rec[where]) - 1))]
            row[draw(st.integers(0, len(row) - 1))] = draw(numberish)
        elif where == "params":
            rec[where][draw(st.sampled_from(sorted(rec[where])))] = draw(scalars)
        elif where in ("dps", "witness_length"):
            rec[where] = draw(st.integers(-5, 600))
        else:
            rec[where] = draw(numberish)
    rec["sha256"] = record.digest(rec)
    return record.canonical(rec).encode()


@pytest.mark.slow
@given(rehashed_t4_records())
@_settings(300, fast=False)
def test_fuzz_replay_of_mutated_records(tmp_path_factory, doc):
    """Replay of mutated, rehashed records: InputError naming the field, or a verdict; never a
    traceback, a hang (the deadline) or code run from the record."""
    from hypothesis import event

    rec = _only_input_errors(record.loads, doc)
    if rec is None:
        event("refused by the loader")
        return
    path = tmp_path_factory.mktemp("fuzz") / "r.json"
    path.write_bytes(doc)
    res = _only_input_errors(replay, path)
    event("refused by replay" if res is None else f"replayed: reproduces={res.reproduces}")
