"""The two certificates of a fitted counterexample learner with a readout bias (a linear recurrence
wrapped by proofkit.families.biased): the ball route (Krawczyk, at 60 digits) and the exact route both set
the bias to the true one exactly, and neither accepts a learner whose bias no zero-risk learner has."""

import numpy as np

from proofkit import build_problem, registry
from proofkit.engine.falsify import certify_exact, certify_model
from proofkit.numerics.backend import MP


def test_t4_biased_certificates_pin_the_bias_exactly():
    thm = registry.get("AM24.T4")
    p = build_problem(thm, thm.params.resolve({"readout_bias": True, "T": 1}), seed=0, dps=60)
    learned = [str(v) for v in p.theta_true]
    learned[4] = "0.73"  # Lam~[0, 0] = Lam[0, 0] + 0.13: no length-1 sequence sees it
    X = np.ones((2, 2))
    ok, how = certify_model(p, MP.asarray(np.asarray(learned, dtype=object)), X, 60)  # Krawczyk route
    assert ok and "Krawczyk" in how and "readout bias set to the true one exactly" in how, how
    assert certify_exact(p, learned, X)[0]
    wrong = learned[:-1] + ["-0.19"]  # equal Markov parameters, a different bias: no zero-risk learner
    assert not certify_exact(p, wrong, X)[0]
