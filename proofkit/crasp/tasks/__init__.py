"""The algorithmic tasks of Huang et al. 2024 (Table 3) as exact next-token checks, their generated
programs, the program library with its ground truths, and the exact checks theorem files declare."""

from ...runtime.namespace import lazy

#: the package's public surface, name -> defining module (docs/api.md lists it); imported on first use
PUBLIC = {
    "agreement": "proofkit.crasp.tasks.checks",
    "alphabet_text": "proofkit.crasp.tasks.checks",
    "check_compiled": "proofkit.crasp.tasks.compiled",
    "check_entry": "proofkit.crasp.tasks.library",
    "entry": "proofkit.crasp.tasks.checks",
    "generated_program": "proofkit.crasp.tasks.task_programs",
    "length_for": "proofkit.crasp.tasks.checks",
    "library_agreement": "proofkit.crasp.tasks.compiled_library",
    "library_rows": "proofkit.crasp.tasks.checks",
    "load_index": "proofkit.crasp.tasks.library",
    "long_run_failure": "proofkit.crasp.tasks.compiled_library",
    "output_agreement": "proofkit.crasp.tasks.compiled_library",
    "rows_match": "proofkit.crasp.tasks.checks",
    "strings_domain": "proofkit.crasp.tasks.checks",
    "strings_up_to": "proofkit.crasp.tasks.compiled_library",
    "structure_mismatch": "proofkit.crasp.tasks.compiled_library",
    "task_agreement": "proofkit.crasp.tasks.compiled_library",
    "task_programs": "proofkit.crasp.tasks.task_programs",
    "tasks": "proofkit.crasp.tasks.tasks",
    "truth_rows": "proofkit.crasp.tasks.checks",
    "vocabulary_checks": "proofkit.crasp.tasks.task_programs",
}
__all__ = sorted(PUBLIC)
__getattr__, __dir__ = lazy(__name__, PUBLIC)
