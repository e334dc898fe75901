"""Checks over every compiled program of a C-RASP library folder, read from the weights and from exact runs:
the NoPE structure and offset invariance of compiled C-RASP[] programs (positions enter nowhere), offset
invariance of the periodic encoding, and the weights-only period and locality against the static analyses
(Huang et al. 2024, Cor. 18, Remark 28, Lemmas 47 and 52; the weights-only readings are in
:mod:`proofkit.crasp.theory.network_weights`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..compilation.checking import Mismatch
from ..compilation.compiler import compile_program
from ..compilation.network import Network
from ..compilation.variants import reference
from ..language import analysis
from ..language.ir import Program
from ..tasks.library import Entry
from . import network_weights as nw


def nope_defect(entry: Entry, net: Network) -> str | None:
    """Why the compiled network of a C-RASP[] program is not NoPE (some p_i or some head's phi nonzero,
    or ``is_nope`` false), or None."""
    zero_p = all(not v for vec in net.pos for v in vec.values())
    zero_phi = not any(v for ph in nw.phi_table(net) for v in ph.values())
    if not (zero_p and zero_phi and net.is_nope()):
        return f"{entry.file}: p = 0 {zero_p}, phi = 0 {zero_phi}"
    return None


@dataclass(frozen=True)
class OffsetRuns:
    """Result of :func:`offset_runs`: the first failure (text) or None, the programs done as
    ``"FILE (<= n)"`` and the (offset, string) cases run."""

    failure: str | None
    done: list[str]
    cases: int


def offset_runs(entries: Sequence[Entry], fragment: str, max_len: Callable[[int], int],
                offsets: Sequence[int], require_nope: bool = False) -> OffsetRuns:
    """Every library program of the fragment, compiled (default encoding; with ``require_nope``, first the
    :func:`nope_defect` check), run exactly at each offset on every string of length <= max_len(alphabet
    size) at every prefix against the interpreter. Stops at the first failure."""
    done: list[str] = []
    cases = 0
    for e in entries:
        if analysis.fragment(e.program) != fragment:
            continue
        net = compile_program(e.program)
        if require_nope and (bad := nope_defect(e, net)) is not None:
            return OffsetRuns(bad, done, cases)
        n = max_len(len(e.program.alphabet))
        miss = nw.offset_mismatch(net, reference(e.program), n, offsets)
        if miss is not None:
            return OffsetRuns(f"{e.file} offset {miss[0]}: {miss[1]}", done, cases)
        done.append(f"{e.file} (<= {n})")
        cases += len(offsets) * sum(len(e.program.alphabet) ** i for i in range(n + 1))
    return OffsetRuns(None, done, cases)


def program_offset_mismatch(program: Program, max_len: int, offsets: Iterable[int],
                            **variant_knobs: object) -> tuple[int, Mismatch] | None:
    """The program compiled with ``variant_knobs`` (as for ``compile_program``): the first (offset,
    Mismatch) on Sigma^{<=max_len} against the interpreter, or None."""
    net = compile_program(program, **variant_knobs)
    return nw.offset_mismatch(net, reference(program), max_len, offsets)


@dataclass(frozen=True)
class WeightReading:
    """One program: period and locality read from the compiled weights only, the program's local offsets,
    and its static period and locality."""

    file: str
    period: dict[str, int]
    locality: dict[str, Any]
    offsets: list[int]
    static_period: int
    static_locality: int

    @property
    def agrees(self) -> bool:
        """Weights-only readings equal the static analyses (both period readings, radius and support)."""
        p, loc = self.period, self.locality
        return (p["block"] == self.static_period and p["products"] == self.static_period
                and loc["radius"] == self.static_locality and loc["support"] == self.offsets)


def weight_readings(entries: Sequence[Entry]) -> list[WeightReading]:
    """:func:`~proofkit.crasp.theory.network_weights.extract_period` and ``extract_locality`` of every
    program's compiled network next to ``analysis.period`` / ``analysis.locality`` and the set of local
    offsets, up to and including the first program where they disagree."""
    out = []
    for e in entries:
        net = compile_program(e.program)
        offs = sorted({c for op in e.program.ops if op.kind == "local" for c in op.offsets})
        out.append(WeightReading(e.file, nw.extract_period(net), nw.extract_locality(net), offs,
                                 analysis.period(e.program), analysis.locality(e.program)))
        if not out[-1].agrees:
            break
    return out
