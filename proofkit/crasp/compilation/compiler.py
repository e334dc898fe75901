"""C-RASP[periodic,local] -> Limit Transformer compiler (Huang et al. 2024, Thm 9; it follows the proof of
Thm 27 in App. B.6 (Booleans in {0,1}, counts as C(i)/(i+1), SOS zeroed, Heaviside comparisons), with the
layout and gadgets below chosen here).

Residual stream: one-hot token dims (the sym ops read them directly), e_SOS, e_one (1 at every token),
u = 1/(i+1) (uniform head with value e_SOS), one dim per operation (Booleans in {0,1}, counts stored as
C(i)/(i+1)), scratch dims (SOS-masked predicates, local-head readouts, bits) and a periodic positional block.
One layer per gadget; every logit is an integer (0, beta or 2 beta) so exact rational evaluation works.

Variant knobs (each drops one assumption of Thm 9), all defaulting to the faithful construction:
  log_scaling=False      fixed softmax base ``base`` (default 3) instead of N = n + 1
  mlp_activation="ramp"  every Heaviside unit H(z) becomes clip(s z + 1, 0, 1) = ReLU(s z + 1) - ReLU(s z)
  robust_compare=False   C1 <= C2 as H(c2 - c1) instead of H(c2 - c1 + u/2)
  sos_mask=False         counted predicates are not zeroed at the SOS
  periodic_encoding      "robust" (default): p_i one-hot of i mod Delta and the periodic predicate is read
                         relative to the SOS's residue (found by a head attending to the SOS), so the network
                         is offset-invariant; "naive": p_i = (phi_1(i), ..., phi_m(i)) read directly,
                         correct at offset 0 only (Remark 28)
  offset                 default positional offset stored in the network (token k reads p_{k+o})
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ...runtime import workguard
from ..language.analysis import count_bounds, period, validate
from ..language.ir import Op, Program
from .network import MLP, Head, Layer, Mat, Network

LOCAL_THRESHOLD = Fraction(1, 3)
SOS_THRESHOLD = Fraction(1, 2)


@dataclass(frozen=True)
class Variant:
    """Compilation knobs (see the module docstring); the defaults drop no assumption."""

    log_scaling: bool = True
    base: int = 3
    beta: int = 3
    mlp_activation: str = "heaviside"
    ramp_slope: int | Fraction = 8
    robust_compare: bool = True
    sos_mask: bool = True
    periodic_encoding: str = "robust"
    offset: int = 0

    def __post_init__(self) -> None:
        """Reject unknown choices early."""
        if self.mlp_activation not in ("heaviside", "ramp"):
            raise ValueError(f"mlp_activation must be 'heaviside' or 'ramp', not {self.mlp_activation!r}")
        if self.periodic_encoding not in ("robust", "naive"):
            raise ValueError(f"periodic_encoding must be 'robust' or 'naive', not {self.periodic_encoding!r}")
        if self.base < 2 or self.beta < 1:
            raise ValueError("base must be >= 2 and beta >= 1")


@dataclass
class _Unit:
    """One hidden MLP unit: act(row . y + bias) added to the stream with weights ``out``."""

    row: dict[int, Fraction]
    bias: Fraction
    act: str
    out: dict[int, Fraction]


@dataclass
class _HeadSpec:
    """One head before matrix assembly: key/query rows (one logit term each), value map, phi."""

    key: dict[int, Fraction] = field(default_factory=dict)
    query: dict[int, Fraction] = field(default_factory=dict)
    value: dict[tuple[int, int], Fraction] = field(default_factory=dict)   # (out dim, in dim) -> w
    phi: dict[int, Fraction] = field(default_factory=dict)


@dataclass
class _Builder:
    """Allocates named stream dims and collects layers; assembles matrices once the width is known."""

    variant: Variant
    dims: list[str] = field(default_factory=list)
    layers: list[tuple[list[_HeadSpec], list[_Unit]]] = field(default_factory=list)
    values: dict[str, int] = field(default_factory=dict)
    masked: dict[str, int] = field(default_factory=dict)
    bounds: dict[str, int] = field(default_factory=dict)
    delta: int = 1
    index: dict[str, int] = field(default_factory=dict)

    def dim(self, name: str) -> int:
        """Index of a named dim, allocating it on first use."""
        if name not in self.index:
            self.index[name] = len(self.dims)
            self.dims.append(name)
        return self.index[name]

    def layer(self, heads: Sequence[_HeadSpec] = (), units: Sequence[_Unit] = ()) -> None:
        """Append one transformer layer."""
        self.layers.append((list(heads), list(units)))

    def step(self, row: dict[int, Fraction], bias: Fraction, out: dict[int, Fraction]) -> list[_Unit]:
        """H(row.y + bias) as one Heaviside unit, or the ramp clip(s z + 1, 0, 1) as two ReLU units."""
        if self.variant.mlp_activation == "heaviside":
            return [_Unit(row, Fraction(bias), "heaviside", out)]
        s = Fraction(self.variant.ramp_slope)
        srow = {c: s * w for c, w in row.items()}
        return [_Unit(srow, s * bias + 1, "relu", out),
                _Unit(srow, s * bias, "relu", {r: -w for r, w in out.items()})]


def _f(x: int | Fraction) -> Fraction:
    """Exact weight (short name: gadgets are written with it everywhere)."""
    return Fraction(x)


# ----------------------------------------------------------------------------------------------------------
# Gadgets, one function per op kind; each returns the stream dim holding the op's value
# ----------------------------------------------------------------------------------------------------------

def _g_sym(b: _Builder, op: Op) -> int:
    """Q_sigma: read the one-hot token dim written by E."""
    return b.dim(f"tok:{op.symbol}")


def _g_true(b: _Builder, op: Op) -> int:
    """Top: read e_one (1 at every token, the SOS included, matching position 0 of the IR)."""
    return b.dim("one")


def _g_periodic(b: _Builder, op: Op) -> int:
    """phi(i) = [i mod m = r]: naive reads its p-block dim; robust ORs (abs residue, SOS residue) pairs."""
    if b.variant.periodic_encoding == "naive":
        return b.dim(f"pos:{op.modulus}:{op.residue}")
    out = b.dim(f"op:{op.name}")
    delta = b.delta
    units = [_Unit({b.dim(f"pos:{a}"): _f(1), b.dim(f"sosbit:{s}"): _f(1)}, _f(-1), "relu", {out: _f(1)})
             for a in range(delta) for s in range(delta) if (a - s) % op.modulus == op.residue]
    b.layer(units=units)
    return out


def _g_not(b: _Builder, op: Op) -> int:
    """not P = ReLU(1 - P)."""
    out = b.dim(f"op:{op.name}")
    b.layer(units=[_Unit({b.values[op.args[0]]: _f(-1)}, _f(1), "relu", {out: _f(1)})])
    return out


def _g_and(b: _Builder, op: Op) -> int:
    """P1 and P2 = ReLU(P1 + P2 - 1) (accumulating, so and(P, P) = P)."""
    out = b.dim(f"op:{op.name}")
    row: dict[int, Fraction] = {}
    for a in op.args:
        row[b.values[a]] = row.get(b.values[a], _f(0)) + 1
    b.layer(units=[_Unit(row, _f(-1), "relu", {out: _f(1)})])
    return out


def _g_le(b: _Builder, op: Op) -> int:
    """C1 <= C2 = H(c2 - c1 [+ u/2]); the half-gap u/2 = 1/(2(i+1)) keeps it exact under error < u/2."""
    out = b.dim(f"op:{op.name}")
    c1, c2 = b.values[op.args[0]], b.values[op.args[1]]
    row = {c2: _f(1)}
    row[c1] = row.get(c1, _f(0)) - 1
    if b.variant.robust_compare:
        row[b.dim("u")] = row.get(b.dim("u"), _f(0)) + Fraction(1, 2)
    b.layer(units=b.step(row, _f(0), {out: _f(1)}))
    return out


def _masked(b: _Builder, pred: str) -> int:
    """SOS-masked copy P' = ReLU(P - e_SOS) of a Boolean (cached); P itself when masking is off."""
    if not b.variant.sos_mask:
        return b.values[pred]
    if pred not in b.masked:
        out = b.dim(f"mask:{pred}")
        b.layer(units=[_Unit({b.values[pred]: _f(1), b.dim("sos"): _f(-1)}, _f(0), "relu", {out: _f(1)})])
        b.masked[pred] = out
    return b.masked[pred]


def _g_count(b: _Builder, op: Op) -> int:
    """#P: uniform head (all logits 0) averaging P' over 0..i, i.e. C(i)/(i+1)."""
    src = _masked(b, op.args[0])
    out = b.dim(f"op:{op.name}")
    b.layer(heads=[_HeadSpec(value={(out, src): _f(1)})])
    return out


def _g_local(b: _Builder, op: Op) -> int:
    """#_S P: per c in S a head with logit beta [k - j = c] + beta e_SOS(j), bit = H(o - 1/3), then
    out = sum_c ReLU(u - 1 + bit_c) = (number of set bits) / (i+1)."""
    src = _masked(b, op.args[0])
    out = b.dim(f"op:{op.name}")
    beta, sos, one, u = _f(b.variant.beta), b.dim("sos"), b.dim("one"), b.dim("u")
    heads, units, bits = [], [], []
    for c in sorted(set(op.offsets)):
        o, bit = b.dim(f"local:{op.name}:{c}"), b.dim(f"bit:{op.name}:{c}")
        heads.append(_HeadSpec(key={sos: beta}, query={one: _f(1)}, value={(o, src): _f(1)}, phi={c: beta}))
        units += b.step({o: _f(1)}, -LOCAL_THRESHOLD, {bit: _f(1)})
        bits.append(bit)
    b.layer(heads=heads, units=units)
    b.layer(units=[_Unit({u: _f(1), bit: _f(1)}, _f(-1), "relu", {out: _f(1)}) for bit in bits])
    return out


def _g_const(b: _Builder, op: Op) -> int:
    """Constant c: uniform head with value c e_SOS, i.e. c/(i+1)."""
    out = b.dim(f"op:{op.name}")
    b.layer(heads=[_HeadSpec(value={(out, b.dim("sos")): _f(op.value or 0)})])
    return out


def _g_addsub(b: _Builder, op: Op) -> int:
    """C1 +/- C2 via x = ReLU(x) - ReLU(-x) on x = c1 +/- c2."""
    out = b.dim(f"op:{op.name}")
    sign = 1 if op.kind == "add" else -1
    row: dict[int, Fraction] = {b.values[op.args[0]]: _f(1)}
    c2 = b.values[op.args[1]]
    row[c2] = row.get(c2, _f(0)) + sign
    neg = {c: -w for c, w in row.items()}
    b.layer(units=[_Unit(row, _f(0), "relu", {out: _f(1)}), _Unit(neg, _f(0), "relu", {out: _f(-1)})])
    return out


def _g_cond(b: _Builder, op: Op) -> int:
    """P ? C1 : C2 = g(c1, P) + g(c2, 1 - P), g(c, b) = ReLU(c - M(1-b)) - ReLU(-c - M(1-b)), M static."""
    out = b.dim(f"op:{op.name}")
    p, c1, c2 = (b.values[a] for a in op.args)
    m = _f(b.bounds[op.name])
    units = [_Unit({c1: _f(1), p: m}, -m, "relu", {out: _f(1)}),
             _Unit({c1: _f(-1), p: m}, -m, "relu", {out: _f(-1)}),
             _Unit({c2: _f(1), p: -m}, _f(0), "relu", {out: _f(1)}),
             _Unit({c2: _f(-1), p: -m}, _f(0), "relu", {out: _f(-1)})]
    b.layer(units=units)
    return out


_GADGETS: dict[str, Callable[[_Builder, Op], int]] = {
    "sym": _g_sym, "true": _g_true, "periodic": _g_periodic, "not": _g_not, "and": _g_and, "le": _g_le,
    "count": _g_count, "local": _g_local, "cond": _g_cond, "add": _g_addsub, "sub": _g_addsub,
    "const": _g_const}


# ----------------------------------------------------------------------------------------------------------
# Assembly
# ----------------------------------------------------------------------------------------------------------

def _preamble(b: _Builder, program: Program, delta: int) -> None:
    """Fixed dims and the first layer: u = 1/(i+1) and (robust periodic) the SOS-residue bits."""
    for s in program.alphabet:
        b.dim(f"tok:{s}")
    sos, one, u = b.dim("sos"), b.dim("one"), b.dim("u")
    heads = [_HeadSpec(value={(u, sos): _f(1)})]
    units: list[_Unit] = []
    uses_periodic = any(op.kind == "periodic" for op in program.ops)
    if uses_periodic and b.variant.periodic_encoding == "naive":
        for op in program.ops:
            if op.kind == "periodic":
                b.dim(f"pos:{op.modulus}:{op.residue}")
    elif uses_periodic:
        pos = [b.dim(f"pos:{r}") for r in range(delta)]
        res = [b.dim(f"sosres:{r}") for r in range(delta)]
        bits = [b.dim(f"sosbit:{r}") for r in range(delta)]
        heads.append(_HeadSpec(key={sos: _f(b.variant.beta)}, query={one: _f(1)},
                               value={(res[r], pos[r]): _f(1) for r in range(delta)}))
        for r in range(delta):
            units += b.step({res[r]: _f(1)}, -SOS_THRESHOLD, {bits[r]: _f(1)})
    b.layer(heads=heads, units=units)


def _positional_block(b: _Builder, program: Program, delta: int) -> list[dict[int, Fraction]]:
    """p_0..p_{Delta-1}: naive = the periodic predicates' values, robust = one-hot of i mod Delta."""
    block: list[dict[int, Fraction]] = []
    pos = [(c, name.split(":")) for c, name in enumerate(b.dims) if name.startswith("pos:")]
    for i in range(delta):
        vec: dict[int, Fraction] = {}
        for c, parts in pos:
            hit = (i % int(parts[1]) == int(parts[2])) if len(parts) == 3 else (i == int(parts[1]))
            if hit:
                vec[c] = _f(1)
        block.append(vec)
    return block


def _embeddings(b: _Builder, program: Program) -> list[dict[int, Fraction]]:
    """E[sigma] = e_sigma + e_one; E[SOS] = e_SOS + e_one."""
    one = b.dim("one")
    emb = [{b.dim(f"tok:{s}"): _f(1), one: _f(1)} for s in program.alphabet]
    emb.append({b.dim("sos"): _f(1), one: _f(1)})
    return emb


def _assemble_head(spec: _HeadSpec, d: int) -> Head:
    """Head matrices from a spec: K and Q are 1 x d (or 0 x d for a uniform head)."""
    dk = 1 if spec.key and spec.query else 0
    k, q, v = Mat(dk, d), Mat(dk, d), Mat(d, d)
    if dk:
        for c, w in spec.key.items():
            k.add(0, c, w)
        for c, w in spec.query.items():
            q.add(0, c, w)
    for (r, c), w in spec.value.items():
        v.add(r, c, w)
    return Head(k, q, v, {c: Fraction(w) for c, w in spec.phi.items()})


def _assemble_mlp(units: list[_Unit], d: int) -> MLP | None:
    """MLP matrices from hidden units (None when the layer has no MLP)."""
    if not units:
        return None
    a, bm = Mat(len(units), d), Mat(d, len(units))
    for i, unit in enumerate(units):
        for c, w in unit.row.items():
            a.add(i, c, w)
        for r, w in unit.out.items():
            bm.add(r, i, w)
    return MLP(a, [x.bias for x in units], bm, [x.act for x in units])


def compile_program(program: Program, **variant_knobs: object) -> Network:
    """Compile a C-RASP[periodic,local] IR program to an explicit Limit Transformer (Thm 9)."""
    validate(program)
    variant = Variant(**variant_knobs)  # type: ignore[arg-type]
    delta = period(program)
    robust = variant.periodic_encoding == "robust"
    periodic = sum(op.kind == "periodic" for op in program.ops) if robust else 0
    width = len(program.alphabet) + 3 + (3 * delta if robust and periodic else 0) + 3 * len(program.ops)
    workguard.guard("program", workguard.compilation(delta, periodic, width),
                    lower="the period Delta (the lcm of the mod moduli)")
    b = _Builder(variant, bounds=count_bounds(program), delta=delta)
    _preamble(b, program, delta)
    for op in program.ops:
        b.values[op.name] = _GADGETS[op.kind](b, op)
    d = len(b.dims)
    unemb = Mat(1, d)
    unemb.add(0, b.values[program.output], 2)
    unemb.add(0, b.dim("one"), -1)
    layers = [Layer([_assemble_head(h, d) for h in heads], _assemble_mlp(units, d))
              for heads, units in b.layers]
    meta = {k: str(v) for k, v in vars(variant).items()}
    meta.update(program=program.name, output_dim=f"op:{program.output}",
                values=";".join(f"{k}={b.dims[v]}" for k, v in b.values.items()))
    return Network(program.alphabet, list(b.dims), _embeddings(b, program),
                   _positional_block(b, program, delta), layers, unemb,
                   None if variant.log_scaling else variant.base, variant.offset, meta)


def value_dims(net: Network) -> dict[str, int]:
    """Op name -> stream dim of its value (from the metadata written by compile_program)."""
    pairs = (item.split("=", 1) for item in net.meta.get("values", "").split(";") if item)
    return {k: net.dims.index(v) for k, v in pairs}


# ----------------------------------------------------------------------------------------------------------
# Precision
# ----------------------------------------------------------------------------------------------------------

def _error_units(program: Program) -> dict[str, Fraction]:
    """Worst-case error of every count dim in units of eta = 2^{-p-1} under fixed-point rounding."""
    e: dict[str, Fraction] = {}
    for op in program.ops:
        if op.kind in ("count", "const"):
            e[op.name] = _f(1)
        elif op.kind == "local":
            e[op.name] = _f(len(set(op.offsets)) + 1)        # |S| copies of u (1 each) plus one rounding
        elif op.kind in ("add", "sub", "cond"):
            e[op.name] = e[op.args[-2]] + e[op.args[-1]] + 1   # exact MLP on rounded inputs, one rounding
    return e


def precision_needed(program: Program, n: int) -> int:
    """Fractional bits p such that the robust compiled network, with every stream coordinate rounded to p
    fractional bits after each sublayer, decides every string of length <= n correctly.

    Reasoning: counts are stored as C/(i+1), so distinct compared values differ by >= 1/(i+1) and the robust
    comparison H(c2 - c1 + u/2) has margin u/2 = 1/(2(i+1)) >= 1/(2(n+1)). With rounding error eta = 2^{-p-1}
    per written coordinate, a count dim carries at most e_C eta error (plain/const/u: 1; local: |S| + 1;
    +/-/cond: e1 + e2 + 1), so a comparison is safe when (e1 + e2 + 1/2) eta < 1/(2(n+1)), i.e.
    2^p > (e1 + e2 + 1/2)(n + 1). Booleans are exact (0/1 are representable) and the local/SOS heads have
    threshold gaps >= 1/6 for all N >= 2, which p >= 3 covers. float64 (53-bit significand, stream values of
    magnitude <= max M_C) has absolute error far below this bound for any n < 2^40.
    """
    e = _error_units(program)
    need = 3
    for op in program.ops:
        if op.kind == "le":
            factor = (e[op.args[0]] + e[op.args[1]] + Fraction(1, 2)) * (n + 1)
            need = max(need, math.floor(math.log2(factor)) + 1 if factor >= 1 else 0)
            while Fraction(2) ** need <= factor:   # guard the float log2 at powers of two
                need += 1
    return need
