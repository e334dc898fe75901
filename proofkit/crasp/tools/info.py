"""``proofkit crasp info``: what a program is, from its IR alone (nothing is run on strings).

The fragment and the features that put the program there (periodic predicates and their moduli, local counts
and their offsets, ...), the counting depth, the numbers of operations, the static bounds that
:mod:`proofkit.crasp.language.analysis` derives (|C(i)| <= M_C (i + 1) for every count, the period Delta the
compiled network's positional block repeats with, the locality), the longest strings the vectorized
interpreter runs (int64 counts) and the fixed-point precision the compiled network needs at a few lengths
(:func:`proofkit.crasp.compilation.compiler.precision_needed`). ``--json`` gives the same as one object.
"""

from __future__ import annotations

from typing import Any

from ...errors import cap_text
from ..compilation.compiler import precision_needed
from ..language import analysis
from ..language.ir import BOOL_KINDS, COUNT_KINDS, Program
from ..language.printer import op_text
from ..semantics.vector import max_length

#: lengths at which the fixed-point bits of the compiled network are reported
PRECISION_LENGTHS = (1000, 10**6)
#: characters of a statement's source line shown in the text report
SOURCE_WIDTH = 70

#: what each IR kind is, in words (a feature of the program when used)
FEATURES = {
    "sym": "symbol tests Q(a)", "true": "true", "periodic": "periodic predicates mod(m, r)",
    "not": "negations", "and": "conjunctions", "le": "comparisons C <= D", "count": "plain counts #P",
    "local": "local counts #[S] P", "cond": "conditionals P ? C : D", "add": "sums C + D",
    "sub": "differences C - D", "const": "constants",
}  # fmt: skip


def _statements(program: Program, depths: dict[str, int], bounds: dict[str, int]) -> list[dict[str, Any]]:
    """The named statements (not the generated ``_t<k>`` operations): sort, depth, count bound, line."""
    lines = program.source.split("\n") if program.source else []
    out = []
    for op in program.ops:
        if op.name.startswith("_"):
            continue
        source = lines[op.line - 1].split("//")[0].strip() if 0 < op.line <= len(lines) else ""
        out.append({"name": op.name, "sort": "Boolean" if op.sort == "bool" else "count",
                    "depth": depths[op.name], "bound": bounds.get(op.name), "line": op.line or None,
                    "source": source or None})
    return out


def info(program: Program, path: str) -> dict[str, Any]:
    """Every static fact of ``program`` as a JSON-ready dict (``analysis.summary`` plus the features, the
    statements, the vectorized interpreter's length limit and the compiled network's fixed-point bits)."""
    obj: dict[str, Any] = {"program": path, **analysis.summary(program)}
    kinds = [op.kind for op in program.ops]
    obj["features"] = {k: kinds.count(k) for k in BOOL_KINDS + COUNT_KINDS}
    obj["moduli"] = sorted({op.modulus for op in program.ops if op.kind == "periodic"})
    obj["offsets"] = sorted({c for op in program.ops if op.kind == "local" for c in op.offsets})
    obj["statements"] = _statements(program, analysis.op_depths(program), obj["count_bounds"])
    obj["max_vector_length"] = max_length(program)
    obj["fixed_point_bits"] = {str(n): precision_needed(program, n) for n in PRECISION_LENGTHS}
    names = [s["name"] for s in obj["statements"] if s["sort"] == "Boolean"]
    obj["output_is_last_boolean"] = bool(names) and names[-1] == program.output
    return obj


def _fragment_text(obj: dict[str, Any]) -> str:
    """C-RASP[...] and the features that decide it."""
    f = obj["features"]
    parts = []
    if f["periodic"]:
        moduli = obj["moduli"]
        parts.append(f"periodic predicates mod(m, r), modul{'i' if len(moduli) > 1 else 'us'} "
                     f"{', '.join(map(str, moduli))}")
    if f["local"]:
        parts.append(f"local counts #[S], offsets {', '.join(map(str, obj['offsets']))}")
    why = "; ".join(parts) if parts else "no periodic predicates, no local counts"
    return f"C-RASP{obj['fragment']} ({why})"


def _length_text(longest: int | None) -> str:
    """The longest strings the vectorized interpreter runs, in words."""
    if longest is None:
        return "any length (no count grows)"
    if longest >= 10**12:
        return f"any practical length (counts fit in int64 up to length {longest:.1e})"
    return f"strings of length <= {longest} (a count could leave int64 beyond; crasp eval has no limit)"


def info_text(obj: dict[str, Any], program: Program) -> str:
    """The report of :func:`info` as aligned lines."""
    f = obj["features"]
    used = ", ".join(f"{FEATURES[k]} {f[k]}" for k in BOOL_KINDS + COUNT_KINDS if f[k])
    longest = obj["max_vector_length"]
    how = ("the last Boolean statement" if obj["output_is_last_boolean"] else "named by 'accept'")
    bits = ", ".join(f"{b} at length {int(n):,}" for n, b in obj["fixed_point_bits"].items())
    rows = [
        ("program", f"{cap_text(obj['program'], 200)} (name {obj['name']!r})"),
        ("alphabet", f"{' '.join(obj['alphabet'])} ({len(obj['alphabet'])} symbols)"),
        ("accepts", f"where {obj['output']} holds at the last position ({how})"),
        ("fragment", _fragment_text(obj)),
        ("depth", f"{obj['depth']} (nesting of counts)"),
        ("ops", f"{obj['ops']} IR operations ({obj['bool_ops']} Boolean, {obj['count_ops']} count): {used}"),
        ("bounds", f"|C(i)| <= {obj['max_count_bound']} (i + 1) for every count C (largest M_C)"),
        ("period", f"{obj['period']} (lcm of the moduli; the compiled network's positional period Delta)"),
        ("locality", f"{obj['locality']} (largest local offset)"),
        ("vectorized", _length_text(longest)),
        ("compiled", f"fixed-point fractional bits needed: {bits}"),
    ]
    lines = [f"{k:<10}  {v}" for k, v in rows]
    lines.append("statements")
    width = max((len(s["name"]) for s in obj["statements"]), default=0)
    for s in obj["statements"]:
        bound = f", |{s['name']}(i)| <= {s['bound']} (i + 1)" if s["bound"] is not None else ""
        where = f"line {s['line']}: {cap_text(s['source'], SOURCE_WIDTH)}" if s["source"] else \
            op_text(program.op(s["name"]))
        lines.append(f"  {s['name']:<{width}}  {s['sort']}, depth {s['depth']}{bound}  ({where})")
    return "\n".join(lines)
