"""Bounded exhaustive search for C-RASP programs (bottom-up by size, observational-equivalence pruning)
and the learners built on it (masked targets, tasks, the Occam learner)."""

from ...runtime.namespace import lazy

#: the package's public surface, name -> defining module (docs/api.md lists it); imported on first use
PUBLIC = {
    "explore": "proofkit.crasp.search.enumerate",
    "Fragment": "proofkit.crasp.search.enumerate",
    "occam": "proofkit.crasp.search.learners",
    "PrefixSample": "proofkit.crasp.search.enumerate",
    "program_of": "proofkit.crasp.search.enumerate",
    "Sample": "proofkit.crasp.search.enumerate",
    "search": "proofkit.crasp.search.enumerate",
    "search_all": "proofkit.crasp.search.enumerate",
    "search_masked": "proofkit.crasp.search.learners",
    "search_task": "proofkit.crasp.search.learners",
}
__all__ = sorted(PUBLIC)
__getattr__, __dir__ = lazy(__name__, PUBLIC)
