"""Random well-formed C-RASP programs and the cross-check of :mod:`proofkit.crasp.theory.eventual` against
the reference interpreter: exact piecewise values, eventual forms, least thresholds and the exact
acceptance of every u^n, compared op by op and position by position.
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..language.analysis import op_depths
from ..language.ir import Op, Program
from ..semantics.interp import evaluate
from .eventual import eventual_form
from .nonrecognition import certify_not_recognizing


# ----------------------------------------------------------------------------- random programs and fuzz
def random_program(
    rng: random.Random,
    alphabet: Sequence[str] = ("a", "b"),
    *,
    max_depth: int = 4,
    size: int = 10,
    const_range: tuple[int, int] = (-2, 2),
    moduli: Sequence[int] = (),
    max_offset: int = 0,
    name: str = "random",
) -> Program:
    """A random well-formed IR program: counting depth <= max_depth, constants in const_range, periodic
    ops with the given moduli (none: C-RASP[]), local counts with offsets <= max_offset (0: none)."""
    ops: list[Op] = []
    depth: dict[str, int] = {}
    bools: list[str] = []
    counts: list[str] = []
    serial = itertools.count(1)

    def new(kind: str, args: tuple[str, ...] = (), **kw: Any) -> str:
        nm = f"o{next(serial)}"
        op = Op(nm, kind, args, **kw)
        ops.append(op)
        depth[nm] = max((depth[a] for a in args), default=0) + (kind in ("count", "local"))
        (bools if op.sort == "bool" else counts).append(nm)
        return nm

    def pick(pool: list[str], shallow: bool = False) -> str | None:
        cands = [x for x in pool if not shallow or depth[x] < max_depth]
        if not cands:
            return None
        if shallow and rng.random() < 0.5:  # nest: count one of the deepest predicates available
            deepest = max(depth[x] for x in cands)
            return rng.choice([x for x in cands if depth[x] == deepest])
        recent = cands[-5:]
        return rng.choice(recent) if rng.random() < 0.6 else rng.choice(cands)

    for s in alphabet:
        new("sym", symbol=s)
    new("count", (rng.choice(bools),))
    kinds = ["count"] * 3 + ["le"] * 3 + ["and"] * 2 + ["not"] * 2 + ["add", "sub", "cond", "const", "true"]
    if moduli:
        kinds += ["periodic"] * 2
    if max_offset > 0:
        kinds += ["local"] * 2
    for _ in range(size):
        kind = rng.choice(kinds)
        if kind in ("count", "local"):
            b = pick(bools, shallow=True)
            if b is None:
                continue
            if kind == "count":
                new("count", (b,))
            else:
                k = rng.randint(1, min(3, max_offset + 1))
                new("local", (b,), offsets=tuple(sorted(rng.sample(range(max_offset + 1), k))))
        elif kind == "le":
            new("le", (pick(counts), pick(counts)))
        elif kind == "and":
            new("and", (pick(bools), pick(bools)))
        elif kind == "not":
            new("not", (pick(bools),))
        elif kind in ("add", "sub"):
            new(kind, (pick(counts), pick(counts)))
        elif kind == "cond":
            new("cond", (pick(bools), pick(counts), pick(counts)))
        elif kind == "const":
            new("const", value=rng.randint(*const_range))
        elif kind == "true":
            new("true")
        else:
            m = rng.choice(list(moduli))
            new("periodic", modulus=m, residue=rng.randrange(m))
    c = new("const", value=rng.randint(*const_range))
    out = new("le", (pick(counts), new("add", (pick(counts), c))))
    if rng.random() < 0.5:
        out = new("and", (out, pick(bools)))
    if rng.random() < 0.5:
        out = new("not", (out,))
    return Program(tuple(alphabet), tuple(ops), out, name=name)


@dataclass(frozen=True)
class FuzzReport:
    """Counts from ``fuzz``; ``mismatches == 0`` means every checked value agreed with the interpreter."""

    programs: int
    ops: int
    eventual_checks: int  # (op, position >= threshold) pairs compared with the interpreter
    exact_checks: int  # (op, position) pairs of the full piecewise values compared
    threshold_checks: int  # thresholds shown least (the eventual form fails at threshold - 1)
    mismatches: int
    failures: tuple[str, ...]
    max_threshold: int
    thresholds_beyond_n_max: int
    depth_histogram: Mapping[int, int]
    acceptance_patterns: Mapping[str, int]
    certified: int | None
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["failures"] = list(self.failures)
        d["depth_histogram"] = dict(self.depth_histogram)
        d["acceptance_patterns"] = dict(self.acceptance_patterns)
        return d


def fuzz(
    n_programs: int = 200,
    seed: int = 0,
    *,
    n_max: int = 300,
    u: str | Sequence[str] = "a",
    alphabet: Sequence[str] = ("a", "b"),
    max_depth: int = 4,
    size: int = 10,
    const_range: tuple[int, int] = (-2, 2),
    moduli: Sequence[int] = (),
    max_offset: int = 0,
    language: Callable[[int], bool] | None = None,
    programs: Sequence[Program] | None = None,
) -> FuzzReport:
    """Random programs (seeded; or the given ``programs``): for each, the symbolic evaluation along u^n is
    compared with the reference interpreter on u^n_max at every op and position: the eventual form at
    every position >= threshold, the exact piecewise values at every position, the least-threshold
    property, and the exact acceptance of every u^n, n <= n_max. With ``language``, also counts the
    programs certified not to recognize it."""
    t0 = time.perf_counter()
    rng = random.Random(seed)
    progs = list(programs) if programs is not None else [
        random_program(rng, alphabet, max_depth=max_depth, size=size, const_range=const_range, moduli=moduli,
                       max_offset=max_offset, name=f"fuzz{seed}_{k}")
        for k in range(n_programs)
    ]  # fmt: skip
    n_ops = ev_checks = ex_checks = th_checks = mismatches = max_th = beyond = 0
    certified = 0 if language is not None else None
    failures: list[str] = []
    depths: Counter[int] = Counter()
    patterns: Counter[str] = Counter()

    def fail(msg: str) -> None:
        nonlocal mismatches
        mismatches += 1
        if len(failures) < 10:
            failures.append(msg)

    for prog in progs:
        ev = eventual_form(prog, u)
        word = list(ev.u) * n_max
        vals = evaluate(prog, word)
        last = len(word)
        depths[max(op_depths(prog).values(), default=0)] += 1
        for op in prog.ops:
            n_ops += 1
            f, pw, got = ev.ops[op.name], ev.pieces[op.name], vals[op.name]
            max_th = max(max_th, f.threshold)
            beyond += f.threshold > last
            exact = pw.values(last)
            ex_checks += last + 1
            if exact != got:
                i = next(i for i in range(last + 1) if exact[i] != got[i])
                fail(f"{prog.name}:{op.name} exact value at {i}: {exact[i]} != {got[i]}")
            if f.threshold <= last:
                eventual = f.values_between(f.threshold, last)
                ev_checks += len(eventual)
                if eventual != got[f.threshold :]:
                    i = next(i for i in range(f.threshold, last + 1) if eventual[i - f.threshold] != got[i])
                    fail(f"{prog.name}:{op.name} eventual value at {i}: {f.at(i)} != {got[i]}")
            if 0 < f.threshold <= last:
                th_checks += 1
                if f.at(f.threshold - 1) == got[f.threshold - 1]:
                    fail(f"{prog.name}:{op.name} threshold {f.threshold} is not the least")
        n0, pattern = ev.acceptance()
        out = vals[prog.output]
        p = len(ev.u)
        for n in range(n_max + 1):
            if ev.accepts(n) != out[n * p] or (n >= n0 and pattern[n % len(pattern)] != out[n * p]):
                fail(f"{prog.name}: acceptance at n={n}")
        if 0 < n0 <= n_max and pattern[(n0 - 1) % len(pattern)] == out[(n0 - 1) * p]:
            fail(f"{prog.name}: acceptance threshold {n0} is not the least")
        key = "".join("1" if x else "0" for x in pattern)
        patterns[key] += 1
        if language is not None:
            cert = certify_not_recognizing(prog, language, ev.u, form=ev)
            certified += cert.certified
    return FuzzReport(
        programs=len(progs), ops=n_ops, eventual_checks=ev_checks, exact_checks=ex_checks,
        threshold_checks=th_checks, mismatches=mismatches, failures=tuple(failures), max_threshold=max_th,
        thresholds_beyond_n_max=beyond, depth_histogram=MappingProxyType(dict(sorted(depths.items()))),
        acceptance_patterns=MappingProxyType(dict(patterns)), certified=certified,
        seconds=time.perf_counter() - t0,
    )  # fmt: skip
