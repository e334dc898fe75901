"""A theorem's specification as JSON, the object ``proofkit show ID --json`` prints: statement (text and
LaTeX, labelled hypotheses and conclusion), assumptions, claims with their expected verdicts, parameters
with defaults and allowed values, and the paper reference with its BibTeX key. Bundles store it so a
reader sees what was checked without the theorem file."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy as sp

from ..language.spec import Theorem
from ..render.report import statement_latex


def theorem_json(thm: Theorem, dropped: Sequence[str] = ()) -> dict[str, Any]:
    """The specification of ``thm`` (without the hypotheses of ``dropped``), JSON-ready."""
    st = thm.statement_parts(dropped)
    return {
        "id": thm.id, "title": thm.title, "paper": str(thm.paper),
        "reference": {"paper": thm.paper.paper, "section": thm.paper.section, "equation": thm.paper.equation,
                      "bibkey": thm.paper.bibkey},
        "statement": str(st), "statement_latex": statement_latex(thm, dropped), "dropped": list(dropped),
        "hypotheses": [{"assumption": aid, "formula": sp.sstr(h)} for aid, h in st.hypotheses],
        "conclusion": [{"claim": name, "formula": sp.sstr(c)} for name, c in st.conclusion],
        "predicates": st.named(),
        "assumptions": [{"id": a.id, "meaning": a.meaning, "drop": dict(a.drop)} for a in thm.assumptions],
        "claims": [{"name": c.name, "role": c.role, "statement": c.statement(),
                    "expected": str(thm.expect.get(c.name, ""))} for c in thm.claims],
        "parameters": [{"name": p.name, "type": p.type.__name__, "default": p.default,
                        "allowed": p.allowed(), "help": p.help, "follows": p.follows}
                       for p in thm.params.params],
    }
