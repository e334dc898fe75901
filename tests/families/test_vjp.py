"""Family.vjp: the backward passes of the linear recurrence and deep sets equal the per-sample Jacobian
contracted (the generic default), so bench row 1's gradient loop gets the fast gradient of the same loss."""

import numpy as np
import pytest

from proofkit.families.base import Family
from proofkit.families.deepsets import DeepSets
from proofkit.families.linrec import LinearRecurrence


@pytest.mark.parametrize("family", [LinearRecurrence(2, 2, 2), LinearRecurrence(1, 3, 2),
                                    LinearRecurrence(3, 2, 1), DeepSets(2, 2, 2, 3),
                                    DeepSets(1, 1, 2, 4, readout_bias=True)],
                         ids=lambda f: f"{type(f).__name__}-{f.n_params}")
@pytest.mark.parametrize("t", [1, 2, 5])
def test_backward_pass_equals_the_contracted_jacobian(family, t):
    rng = np.random.default_rng(t)
    theta = family.init(rng)
    X = rng.uniform(size=(64, t, family.n))
    R = rng.normal(size=(64, family.m))
    mine, generic = family.vjp(theta, X, R), Family.vjp(family, theta, X, R)
    assert mine.shape == (family.n_params,)
    assert np.allclose(mine, generic, rtol=1e-12, atol=1e-12)
