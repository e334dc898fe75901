"""proofkit.families.lipschitz: the closed forms for scalar linear recurrences and the sampled Lipschitz
constant in the parameters of any family."""

import numpy as np

from proofkit.families import LinearRecurrence
from proofkit.families import lipschitz as lip


def test_sampled_parameter_lipschitz_is_the_largest_jacobian_row_sum():
    fam = LinearRecurrence(n=1, k=1, m=1)
    theta = np.array([1.0, 0.5, 1.0])  # A, Lam, B: logit_t = sum_j 0.5^j x_{t-j}
    lips = lip.sampled_parameter_lipschitz(fam, theta, [1, 3], np.random.default_rng(0), samples=4)
    X = np.random.default_rng(0).random((4, 1, 1))
    assert lips[1] == float(np.abs(fam.jacobian(theta, X)).sum(axis=2).max())
    assert set(lips) == {1, 3} and lips[3] > lips[1] > 0
    assert lips == lip.sampled_parameter_lipschitz(fam, theta, [1, 3], np.random.default_rng(0), samples=4)


def test_uniform_lipschitz_grows_as_the_geometric_tail():
    assert lip.uniform_lipschitz(0.5) < lip.uniform_lipschitz(0.9)
