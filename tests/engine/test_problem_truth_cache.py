"""Problem.compare keeps the true model's values on a test batch (a search compares many learners on the
same batches): the kept values equal a fresh evaluation, per precision, and cannot be changed."""

import mpmath as mp
import numpy as np
import pytest

from proofkit.engine.problem import build_problem
from proofkit.language import registry
from proofkit.numerics.backend import MP


@pytest.fixture(scope="module")
def problem():
    thm = registry.get("AM24.T1")
    return build_problem(thm, thm.params.resolve({}), seed=0, dps=60)


def test_true_values_kept_per_batch_equal_a_fresh_evaluation(problem):
    X = problem.support.tokens(np.random.default_rng(3), (4, 5))
    theta = MP.asarray(problem.learned.init(np.random.default_rng(1)))
    with mp.workdps(60):
        zh, zf = problem.compare(theta, X)
        zh2, zf2 = problem.compare(theta, X.copy())  # an equal batch, another array
        fresh = problem.true_logits(X, MP)
        assert zf2 is zf and np.all(zf == fresh) and np.all(zh2 == zh)
        assert np.all(zh == problem.learned.logits(theta, MP.asarray(X), MP))
        with pytest.raises(ValueError):
            zf[0, 0] = mp.mpf(0)
    with mp.workdps(80):  # another precision is another entry
        _, zf80 = problem.compare(theta, X)
        assert zf80 is not zf and np.all(zf80 == problem.true_logits(X, MP))


def test_other_batches_and_object_arrays_are_not_confused(problem):
    rng = np.random.default_rng(4)
    X, Y = problem.support.tokens(rng, (3, 4)), problem.support.tokens(rng, (3, 4))
    theta = MP.asarray(problem.learned.init(np.random.default_rng(2)))
    with mp.workdps(60):
        _, zx = problem.compare(theta, X)
        _, zy = problem.compare(theta, Y)
        assert not np.all(zx == zy)
        _, zo = problem.compare(theta, MP.asarray(X))  # object input: computed, equal
        assert np.all(zo == zx)
