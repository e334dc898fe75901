"""The results about C-RASP beyond running programs: eventual forms on periodic inputs, MAJ2 logic,
uniform morphisms and reductions, finite proxies for the asymptotic results, induction heads."""

from ...runtime.namespace import lazy

#: the package's public surface, name -> defining module (docs/api.md lists it); imported on first use
PUBLIC = {
    "agrees_on_powers": "proofkit.crasp.theory.maj2_checks",
    "apply": "proofkit.crasp.theory.morphisms",
    "check_preimage": "proofkit.crasp.theory.morphisms",
    "check_transform": "proofkit.crasp.theory.morphisms",
    "drop_evidence": "proofkit.crasp.theory.drop_evidence",
    "drop_families": "proofkit.crasp.theory.drop_families",
    "eventual_fuzz": "proofkit.crasp.theory.eventual_fuzz",
    "half_language": "proofkit.crasp.theory.drop_families",
    "induction": "proofkit.crasp.theory.induction",
    "init_width": "proofkit.crasp.theory.init_width",
    "init_width_search": "proofkit.crasp.theory.init_width_search",
    "length_predicate_failure": "proofkit.crasp.theory.maj2_checks",
    "library_weights": "proofkit.crasp.theory.library_weights",
    "limits": "proofkit.crasp.theory.limits",
    "maj2": "proofkit.crasp.theory.maj2",
    "morphism": "proofkit.crasp.theory.morphisms",
    "network_weights": "proofkit.crasp.theory.network_weights",
    "nonrecognition": "proofkit.crasp.theory.nonrecognition",
    "padding": "proofkit.crasp.theory.morphisms",
    "proof_steps": "proofkit.crasp.theory.proof_steps",
    "Preimage": "proofkit.crasp.theory.morphisms",
    "REDUCTIONS": "proofkit.crasp.theory.morphisms",
    "resolve": "proofkit.crasp.theory.morphisms",
    "row_reduction_checks": "proofkit.crasp.theory.morphism_sweeps",
    "transform": "proofkit.crasp.theory.morphisms",
    "transform_cases": "proofkit.crasp.theory.morphism_sweeps",
}
__all__ = sorted(PUBLIC)
__getattr__, __dir__ = lazy(__name__, PUBLIC)
