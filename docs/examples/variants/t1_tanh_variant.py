"""Worked example 1 (docs/variants.md): AM24.T1 with another activation (tanh), support (i.i.d. tokens),
training length (T = 1) and dimension (n = 3), plus one new claimed relation (deliberately false here).
Run: python docs/examples/variants/t1_tanh_variant.py"""

from dataclasses import replace

from proofkit import Relation, Verdict, check, registry

t1 = registry.get("AM24.T1")
ident = next(c for c in t1.claims if c.name == "A psi = B phi on [0,1]^n")  # reuse its symbols
mine = Relation("claimed: A psi = -B phi", "identification", "my note", ident.lhs, -ident.rhs, over="tokens")
expect = {**t1.expect, mine.name: Verdict.REFUTED}
variant = replace(t1, id="MY.T1-tanh", claims=t1.claims + (mine,), expect=expect)
result = check(variant, {"activation": "tanh", "support": "iid", "T": 1, "n": 3})

print(f"{result.id}: {result.verdict} (as expected: {result.as_expected()})")
for c in result.claims:
    print(f"  [{c.verdict}] {c.name}")
