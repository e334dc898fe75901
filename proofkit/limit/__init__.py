"""Finite-precision limit transformers, exactly: the flush-to-zero rule decided in integers
(:mod:`.flush`), the one-layer model and its forward pass (:mod:`.model`), the logit margin and the
hardmax regime over every length (:mod:`.margin`), and small models that separate the readings of the
definitions (:mod:`.zoo`)."""

from ..runtime.namespace import lazy

#: the package's public surface, name -> defining module (docs/api.md lists it); imported on first use
PUBLIC = {
    "auxiliary": "proofkit.limit.auxiliary",
    "BoundFalsifier": "proofkit.limit.variants",
    "build_pair": "proofkit.limit.variants",
    "C_G": "proofkit.limit.survey",
    "cached_survey": "proofkit.limit.survey",
    "comparison_models": "proofkit.limit.crosscheck",
    "constructions": "proofkit.limit.constructions",
    "count_string": "proofkit.limit.counts",
    "counts_against_forward": "proofkit.limit.crosscheck",
    "decide": "proofkit.limit.variants",
    "evaluate": "proofkit.limit.model",
    "evaluate_counts": "proofkit.limit.counts",
    "Fit": "proofkit.limit.training",
    "fit_exponent": "proofkit.limit.training",
    "flush": "proofkit.limit.flush",
    "from_dict": "proofkit.limit.model",
    "from_string": "proofkit.limit.counts",
    "interpolation_error": "proofkit.limit.tasks",
    "margin": "proofkit.limit.margin",
    "margin_readings": "proofkit.limit.regime",
    "min_proxy_length": "proofkit.limit.tasks",
    "mlp_lipschitz": "proofkit.limit.lipschitz",
    "mlpnorm": "proofkit.limit.mlpnorm",
    "MODELS": "proofkit.limit.zoo",
    "modp_min_length": "proofkit.limit.tasks",
    "modp_proxy_error": "proofkit.limit.tasks",
    "ModPFalsifier": "proofkit.limit.modp_search",
    "ModPTask": "proofkit.limit.tasks",
    "near_eps_instances": "proofkit.limit.shares",
    "P37Falsifier": "proofkit.limit.p37_search",
    "random_model": "proofkit.limit.survey",
    "regimes": "proofkit.limit.regime",
    "renormalized_shares": "proofkit.limit.shares",
    "residue_imbalance": "proofkit.limit.residues",
    "run_survey": "proofkit.limit.survey",
    "share_deviation": "proofkit.limit.shares",
    "share_instance": "proofkit.limit.shares",
    "short_string_arguments": "proofkit.limit.tasks",
    "SimpleTask": "proofkit.limit.tasks",
    "spelled_witness": "proofkit.limit.regime",
    "strings_up_to": "proofkit.limit.tasks",
    "Survey": "proofkit.limit.survey",
    "table_model": "proofkit.limit.survey",
    "to_dict": "proofkit.limit.model",
    "train": "proofkit.limit.training",
    "training": "proofkit.limit.training",
    "undefined_probability_closed_form": "proofkit.limit.tasks",
    "undefined_probability_exact": "proofkit.limit.tasks",
    "undefined_probability_sampled": "proofkit.limit.tasks",
    "VARIANTS": "proofkit.limit.variants",
}
__all__ = sorted(PUBLIC)
__getattr__, __dir__ = lazy(__name__, PUBLIC)
