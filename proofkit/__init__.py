"""proofkit: theorems about length and compositional generalization as executable, falsifiable checks.

The public API for theorem authors is this module's namespace (listed in docs/api.md)::

    from proofkit import Theorem, Assumption, PaperRef, Relation, Computed, Param, ParamSpace, holds

and, for the models a theorem builds on, the namespaces :mod:`proofkit.families` (deep sets, linear
recurrences, RNNs and their kin), :mod:`proofkit.crasp` (C-RASP programs), :mod:`proofkit.limit` (limit
transformers) and :mod:`proofkit.posembed` (positional attention heads, Dyck). Everything else is the
engine's inside and may move. Names are imported on first use, so ``import proofkit`` (and the CLI's
start-up) stays light.

Packages by concept: ``language`` (the theorem language) -> ``numerics`` (number types) -> the model packages
-> ``certificates`` -> ``engine`` (fit, identify, generalize, falsify) -> ``render`` -> ``publish`` /
``sweep`` / ``bench`` -> ``interface`` (CLI, pytest plugin); the layers are enforced by import-linter
(pyproject.toml).
"""

import os as _os

# Determinism: multithreaded BLAS reductions change float64 rounding from run to run, which changes
# where a fit lands. One thread per BLAS call makes every command reproducible bit for bit.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    _os.environ.setdefault(_var, "1")

__version__ = "0.1.0"

#: public name -> the module that defines it (grouped as docs/api.md lists them)
_PUBLIC = {
    # stating a theorem
    **dict.fromkeys(("Theorem", "Assumption", "PaperRef", "Setup", "GroupElement", "Relation",
                     "Generalization", "SymbolicStep", "Computed", "WitnessOutcome", "predicate",
                     "function", "T_len", "h_model", "f_model"), "proofkit.language.spec"),
    **dict.fromkeys(("Proof", "Step"), "proofkit.language.proof"),
    "Cost": "proofkit.language.cost",
    **dict.fromkeys(("Param", "ParamSpace", "param_T", "param_activation", "param_supervision"),
                    "proofkit.language.params"),
    # the shared statement vocabulary
    **dict.fromkeys(("R_ALL", "Injective", "Realizable", "RegularClosed", "NonEmpty", "NonEmptyInterior",
                     "C1", "supp", "rows", "In", "Accepts", "Available", "InCRASP", "CRASP_PLAIN",
                     "CRASP_PERIODIC", "CRASP_PL", "Periodic", "Local", "DeltaPeriodic", "TauLocal",
                     "TranslationInvariant", "ExpressibleLT", "FinitePrecision"),
                    "proofkit.language.predicates"),
    # evidence and verdicts
    **dict.fromkeys(("Evidence", "Method", "Domain", "holds", "fails", "undecided", "forall", "decide"),
                    "proofkit.language.evidence"),
    "Verdict": "proofkit.language.verdict",
    "InputError": "proofkit.errors",
    # supports and running the engine
    **dict.fromkeys(("Support", "SUPPORTS", "ALL_SUPPORTS"), "proofkit.engine.support"),
    "build_problem": "proofkit.engine.problem",
    "fit": "proofkit.engine.fit",
    "check": "proofkit.engine.check",
    "falsify": "proofkit.engine.falsify",
    "replay": "proofkit.engine.replay",
    # regression tests of theorems
    **dict.fromkeys(("checked", "falsified"), "proofkit.interface.testing"),
}
#: public modules: the theorem registry and the published formats (validate a record, read a schema)
_MODULES = {"registry": "proofkit.language.registry", "formats": "proofkit.storage.formats"}

__all__ = ["__version__", *_PUBLIC, *_MODULES]


def __getattr__(name: str) -> object:
    """A public name, imported from its module on first use (PEP 562), so `import proofkit` stays light."""
    import importlib

    if name in _PUBLIC:
        value = getattr(importlib.import_module(_PUBLIC[name]), name)
    elif name in _MODULES:
        value = importlib.import_module(_MODULES[name])
    else:
        raise AttributeError(f"module 'proofkit' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
