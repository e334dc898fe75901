"""A single attention head with uniform attention and closed-form positional embeddings, exactly
(:mod:`.model`)."""

from ..runtime.namespace import lazy

#: the package's public surface, name -> defining module (docs/api.md lists it); imported on first use
PUBLIC = {
    "sweep": "proofkit.posembed.sweep",
    "stability": "proofkit.posembed.stability",
    "model": "proofkit.posembed.model",
    "at_most": "proofkit.posembed.sweep",
    "binary_contexts": "proofkit.posembed.model",
    "boolean": "proofkit.posembed.boolean",
    "bounds": "proofkit.posembed.bounds",
    "decide": "proofkit.posembed.drops",
    "dp": "proofkit.posembed.dp",
    "dyck": "proofkit.posembed.dyck",
    "dyck_checks": "proofkit.posembed.dyck_checks",
    "DYCK_E": "proofkit.posembed.model",
    "dyck_heads": "proofkit.posembed.model",
    "dyck_worst_failure": "proofkit.posembed.model",
    "DyckFalsifier": "proofkit.posembed.drops",
    "escape": "proofkit.posembed.stability",
    "Fail": "proofkit.posembed.sweep",
    "first_logit_change": "proofkit.posembed.model",
    "gd": "proofkit.posembed.gd",
    "Head": "proofkit.posembed.model",
    "jl": "proofkit.posembed.jl",
    "jlsearch": "proofkit.posembed.jlsearch",
    "jl_steps": "proofkit.posembed.jl_steps",
    "MEMO_VARIANTS": "proofkit.posembed.memorization_search",
    "MemorizationFalsifier": "proofkit.posembed.memorization_search",
    "memorization_cases": "proofkit.posembed.memorization_search",
    "decide_memorization": "proofkit.posembed.memorization_search",
    "memorization_search": "proofkit.posembed.memorization_search",
    "mu": "proofkit.posembed.stability",
    "over": "proofkit.posembed.sweep",
    "products": "proofkit.posembed.stability",
    "proof_steps": "proofkit.posembed.proof_steps",
    "remarks": "proofkit.posembed.remarks",
    "telescoping_residuals": "proofkit.posembed.model",
    "Undecided": "proofkit.posembed.sweep",
    "VARIANTS": "proofkit.posembed.drops",
    "word_heads": "proofkit.posembed.model",
    "worst_outcome": "proofkit.posembed.sweep",
}
__all__ = sorted(PUBLIC)
__getattr__, __dir__ = lazy(__name__, PUBLIC)
