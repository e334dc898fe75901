"""HYB24.T12 check C: one-way protocol simulation for compiled Limit Transformers
(proofkit.crasp.communication.protocol).

Alice (x, |x| = N) sends per head and key class (count, exact value sum) plus her window positions; Bob
rebuilds every activation of positions N+1..2N exactly. Checked exhaustively over binary x, y up to N = 5
against the direct causal evaluation, message bits against the static bound c log2(N + 1) + d, distinct
messages against the exact one-way rows of the program, and the finding-3 negative control (NoPE average of
running averages at exact precision: not compressible, 2^N distinct messages).
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction
from pathlib import Path

import pytest

from proofkit.crasp import load
from proofkit.crasp.communication.comm import counterexample_rows, nope_average_model, rows
from proofkit.crasp.communication.protocol import (
    bob_reconstruct,
    nope_average_network,
    protocol_run,
    protocol_table,
    simulate,
)
from proofkit.crasp.communication.protocol_message import (
    HeadMessage,
    Message,
    alice_message,
    decode_message,
    encode_message,
)
from proofkit.crasp.communication.protocol_plan import analyze
from proofkit.crasp.compilation.compiler import compile_program
from proofkit.crasp.compilation.forward import trace
from proofkit.crasp.compilation.network import Head, Layer, Mat
from proofkit.crasp.semantics.vector import accepts_prefixes

PROGRAMS = Path(__file__).resolve().parents[2] / "theorems" / "hyb24" / "programs"
NAMES = ["majority", "dyck1", "tomita4", "aa_star", "contains_ab"]
N_MAX = 5


def _program(name: str):
    return load(str(PROGRAMS / f"{name}.crasp"))


@pytest.fixture(scope="module")
def tables() -> dict[str, dict]:
    """protocol_table for every program, N = 1..5, computed once."""
    return {name: protocol_table(_program(name), range(1, N_MAX + 1)) for name in NAMES}


# ----------------------------------------------------------------------------------------------------------
# Exact reconstruction
# ----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_exhaustive_exact_reconstruction(tables, name):
    """Every x, y in {0,1}^N (N <= 5): Bob's streams equal the direct evaluation at every layer/position."""
    t = tables[name]
    assert t["compressible"] and t["exact"]
    for N, row in enumerate(t["table"], start=1):
        assert row["exact"] and row["pairs"] == 4**N


@pytest.mark.parametrize("name", NAMES)
def test_simulate_matches_trace_small(name):
    """simulate() (Alice -> bits -> decode -> Bob vs forward.trace) on all pairs up to N = 3, both modes."""
    net = compile_program(_program(name))
    plan = analyze(net)
    sigma = net.alphabet
    for N in range(0, 4):
        xs = list(itertools.product(sigma, repeat=N))
        for x in xs:
            for y in itertools.product(sigma, repeat=N):
                assert simulate(net, x, y, "kv", plan), (x, y)
        assert simulate(net, xs[-1], xs[0], "stream", plan)


@pytest.mark.parametrize("name", ["tomita4", "dyck1", "aa_star"])
def test_long_random_and_unequal_split(name):
    """Beyond the exhaustive range: random x.y with N = 24 and unequal splits |x| != |y|."""
    net = compile_program(_program(name))
    plan = analyze(net)
    rng = random.Random(12)
    for nx, ny in [(24, 24), (3, 9), (9, 2), (0, 5), (5, 0)]:
        x = [rng.choice(net.alphabet) for _ in range(nx)]
        y = [rng.choice(net.alphabet) for _ in range(ny)]
        assert simulate(net, x, y, "kv", plan)
        msg = alice_message(net, x, nx + ny, plan=plan)
        assert len(encode_message(net, msg, plan)) == plan.layout_bits(nx, ny)
    x = [rng.choice(net.alphabet) for _ in range(12)]
    assert simulate(net, x, x, "stream", plan)


def test_reconstruction_is_not_vacuous():
    """Changing one class sum in Alice's message changes Bob's activations (the check can fail)."""
    net = compile_program(_program("majority"))
    plan = analyze(net)
    x, y = "aab", "bba"
    msg = alice_message(net, x, 6, plan=plan)
    good = bob_reconstruct(net, msg, y, 6, plan)
    direct = trace(net, net.encode(list(x + y)))
    assert all(good[li][i] == direct[li][4 + i] for li in range(len(direct)) for i in range(3))
    idx = next(i for i, h in enumerate(msg.heads) if h.classes and any(h.classes[0][2]))
    h = msg.heads[idx]
    key, cnt, sums = h.classes[0]
    bad_head = HeadMessage(h.layer, h.head, ((key, cnt, (sums[0] - 1,) + sums[1:]),) + h.classes[1:])
    bad = Message(msg.N, msg.total_length, msg.mode, msg.heads[:idx] + (bad_head,) + msg.heads[idx + 1:])
    recon = bob_reconstruct(net, bad, y, 6, plan)
    assert any(recon[li][i] != direct[li][4 + i] for li in range(len(direct)) for i in range(3))


def test_encoding_round_trip_and_alphabet_subset():
    """decode(encode(m)) == m in both modes; the alphabet-subset option enumerates only that subset."""
    net = compile_program(_program("tomita4"))
    plan = analyze(net)
    for mode in ("kv", "stream"):
        msg = alice_message(net, "0100", 8, mode, plan)
        assert decode_message(net, encode_message(net, msg, plan), 4, 8, mode, plan) == msg
    run = protocol_run(net, 3, alphabet=["0"], plan=plan)
    assert run["exact"] and run["pairs"] == 1 and run["messages"] == 1


@pytest.mark.parametrize("knobs", [{"periodic_encoding": "naive"}, {"offset": 1}, {"log_scaling": False}])
def test_variants_reconstruct(knobs):
    """Compiler variants (naive periodic block, an offset, fixed softmax base) keep exact reconstruction."""
    net = compile_program(_program("aa_star"), **knobs)
    assert analyze(net).compressible
    t = protocol_table(net, range(1, 4))
    assert t["exact"]


# ----------------------------------------------------------------------------------------------------------
# Message length: c log2(N + 1) + d with constants from the network
# ----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_bits_within_static_log_bound(tables, name):
    """Every message fits the fixed layout, whose width is <= c log2(N+1) + d (c <= sum heads x classes)."""
    t = tables[name]
    plan = analyze(compile_program(_program(name)))
    c, d = plan.log_bound()
    n_heads = len(plan.heads)
    max_classes = max(len(h.classes) for h in plan.heads)
    max_vrows = max(len(h.value_rows) for h in plan.heads)
    assert c <= t["heads_x_classes"] <= n_heads * max_classes * (1 + max_vrows)
    for row in t["table"]:
        assert row["fixed_width"] and row["within_bound"]
        assert row["max_bits"] <= c * math.log2(row["N"] + 1) + d
    for N in [2**k - 1 for k in range(1, 31)] + [10, 100, 1000, 12345]:
        assert plan.layout_bits(N) <= plan.bound(N) + 1e-9
    # the growth coefficient: exactly c over N = 2^k - 1 (to within the window's first-N effect)
    assert abs(t["C_layout"] - c) < 0.05
    assert 0 < t["C_bits"] < 2 * c + 1


def test_measured_bits_table(tables):
    """Regression values: max message bits for N = 1..5 and the static (c, d)."""
    expected = {"majority": ([2, 4, 4, 6, 6], 2), "dyck1": ([3, 6, 6, 9, 9], 3),
                "tomita4": ([4, 9, 9, 12, 12], 3), "aa_star": ([3, 6, 6, 9, 9], 3),
                "contains_ab": ([3, 5, 5, 7, 7], 2)}
    for name, (bits, c) in expected.items():
        assert [r["max_bits"] for r in tables[name]["table"]] == bits
        assert tables[name]["c"] == c


# ----------------------------------------------------------------------------------------------------------
# Distinct messages upper-bound the one-way rows
# ----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_messages_bound_rows(tables, name):
    """#distinct messages >= one-way rows of the program (comm.rows), and Bob's own output rows equal them."""
    program = _program(name)
    k = len(program.alphabet)
    for row in tables[name]["table"]:
        N = row["N"]
        exact_rows = rows(lambda X, p=program: accepts_prefixes(p, X), k, N)
        assert row["rows"] == exact_rows
        assert row["messages"] >= exact_rows


def test_catalog_row_values(tables):
    """Catalog reference rows: MAJORITY N + 1, DYCK-1 floor(N/2) + 2, (aa)* 2 (N >= 2)."""
    for N, row in enumerate(tables["majority"]["table"], start=1):
        assert row["rows"] == N + 1 and row["messages"] == N + 1
    for N, row in enumerate(tables["dyck1"]["table"], start=1):
        assert row["rows"] == N // 2 + 2
    assert [r["rows"] for r in tables["aa_star"]["table"]][1:] == [2] * (N_MAX - 1)


# ----------------------------------------------------------------------------------------------------------
# Negative control: catalog finding 3 (not a compiled C-RASP network, exact precision)
# ----------------------------------------------------------------------------------------------------------

def test_negative_control_not_compressible():
    """The NoPE average-of-running-averages: layer-2 values are attention outputs (non-integral)."""
    net = nope_average_network()
    plan = analyze(net)
    assert not plan.compressible
    assert any("not integral" in r for r in plan.reasons)
    with pytest.raises(ValueError):
        plan.log_bound()
    msg = alice_message(net, "ab", 4, plan=plan)
    sums = [s for h in msg.heads for _, _, ss in h.classes for s in ss]
    assert any(Fraction(s).denominator != 1 for s in sums)  # sums are not integers


def test_negative_control_needs_2_pow_N_messages():
    """Exact reconstruction still works, but every x gives its own message: 2^N = activation-level rows."""
    net = nope_average_network()
    t = protocol_table(net, range(1, N_MAX + 1))
    assert t["exact"] and not t["compressible"]
    for N, row in enumerate(t["table"], start=1):
        assert row["messages"] == 2**N == counterexample_rows(N)
    bits = [r["max_bits"] for r in t["table"]]
    assert bits[-1] > bits[0]
    # Bob's z matches the catalog model
    for x, y in [("ab", "ba"), ("aaa", "bab")]:
        total = len(x) + len(y)
        recon = bob_reconstruct(net, alice_message(net, x, total), y, total)
        word = [0 if s == "a" else 1 for s in x + y]
        z = nope_average_model(word)
        assert [v[5] for v in recon[-1]] == z[len(x) + 1:]


def test_non_static_keys_are_detected():
    """A head whose key reads an attention-written dim has no static key classes."""
    net = nope_average_network()
    d = net.d
    k, q, v = Mat(1, d), Mat(1, d), Mat(d, d)
    k.add(0, 4, 1)
    q.add(0, 3, 1)
    v.add(5, 0, 1)
    net.layers.append(Layer([Head(k, q, v, {})]))
    plan = analyze(net)
    assert plan.heads[-1].classes is None
    assert any("no static classes" in r for r in plan.reasons)


# ----------------------------------------------------------------------------------------------------------
# Slow: N = 6
# ----------------------------------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_exhaustive_n6(name):
    t = protocol_table(_program(name), [6])
    row = t["table"][0]
    assert row["exact"] and row["fixed_width"] and row["within_bound"]
    program = _program(name)
    assert row["messages"] >= rows(lambda X: accepts_prefixes(program, X), len(program.alphabet), 6)


@pytest.mark.slow
def test_negative_control_n7():
    t = protocol_table(nope_average_network(), [6, 7])
    assert [r["messages"] for r in t["table"]] == [64, 128]
