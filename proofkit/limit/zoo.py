"""Small exact limit transformers on which the readings of the margin definitions differ.

Each model is a one-layer, one-head limit transformer with rational parameters
(:class:`proofkit.limit.model.LimitTransformer`), small enough that every string up to length 6-8 can be
enumerated, and built so that one reading of the definitions matters:

- ``two-sets``: Sigma = {a, b, c}, no positions; the query attends to a and b (key scores 1, 1, 0).
- ``uniform``: K = Q = 0: every logit equal, gamma = +inf (the paper's convention: 2^(p/inf) = 1).
- ``far-key``: tau = 1 with phi = (1/3, 1/3) on both local offsets and key scores a: 0, b: 1. A logit
  set over the local offsets only holds {1/3, 4/3}; a far key (offset > tau, no bias) adds {0, 1}, so a
  string can show the gap 1/3 - 0 (or 4/3 - 1) that the local set does not contain.
- ``delta2``: Delta = 2 with one-hot positional vectors, tau = 1; the logit mixes a token of one side with
  the residue of the other, so an attention matrix that pairs the key token with the query's position vector
  (and the query token with the key's) and the forward pass see different logits: smallest gap 3/2 vs 1/2.
- ``three-level``: key scores 0, 1/10, 1 (the smallest gap is not against the set's maximum).
- ``gap-half``: Sigma = {a, b}, key scores 0 and -1/2: the two-logit instance (gamma = 1/2).
"""

from fractions import Fraction as F

from .model import LimitTransformer
from .model import rational_matrix as R


def _onehot(tokens, d):
    return {t: tuple(F(int(i == k)) for i in range(d)) for k, t in enumerate(tokens)}


def _key_scores(tokens, scores, extra=0):
    """K^T Q y_i = scores[key token]: K reads the key token's score, Q a constant 1 from the query."""
    d = len(tokens) + extra
    E = _onehot(tokens, d)
    K = R([[scores[t] for t in tokens] + [0] * extra], "K")
    Q = R([[1] * len(tokens) + [0] * extra], "Q")
    return E, K, Q, d


def _identity(d):
    return R([[int(i == j) for j in range(d)] for i in range(d)], "V")


def three_level() -> LimitTransformer:
    """Key scores 0, 1/10, 1: the smallest gap (1/10) is between two non-maximal logits of the set, and a
    string without the top token makes 1/10 its maximum."""
    E, K, Q, d = _key_scores("abc", {"a": 0, "b": F(1, 10), "c": 1})
    return LimitTransformer(E, R([[0] * d], "P"), K, Q, _identity(d), U=R([[1, 0, 0]], "U"),
                            name="three-level")


def two_sets() -> LimitTransformer:
    E, K, Q, d = _key_scores("abc", {"a": 1, "b": 1, "c": 0})
    return LimitTransformer(E, R([[0] * d], "P"), K, Q, _identity(d), U=R([[1, 0, 0]], "U"),
                            name="two-sets")


def uniform() -> LimitTransformer:
    E, _, _, d = _key_scores("ab", {"a": 0, "b": 0})
    return LimitTransformer(E, R([[0] * d], "P"), R([[0] * d], "K"), R([[0] * d], "Q"), _identity(d),
                            U=R([[1, 0]], "U"), name="uniform")


def far_key() -> LimitTransformer:
    E, K, Q, d = _key_scores("ab", {"a": 0, "b": 1})
    return LimitTransformer(E, R([[0] * d], "P"), K, Q, _identity(d), phi=(F(1, 3), F(1, 3)),
                            U=R([[0, 1]], "U"), name="far-key")


def delta2() -> LimitTransformer:
    # coordinates: token a, token b, residue 0, residue 1; K = I, so K^T Q = Q = M, logit = y_j^T M y_i:
    # 3/2 [key token a][query at residue 0] + [key at residue 1][query token a]
    E = {"a": (F(1), F(0), F(0), F(0)), "b": (F(0), F(1), F(0), F(0))}
    P = R([[0, 0, 1, 0], [0, 0, 0, 1]], "P")
    M = [[0] * 4 for _ in range(4)]
    M[0][2], M[3][0] = F(3, 2), 1
    return LimitTransformer(E, P, _identity(4), R(M, "Q"), _identity(4), phi=(F(0), F(0)),
                            U=R([[1, 0, 0, 0]], "U"),
                            name="delta2")


def gap_half() -> LimitTransformer:
    E, K, Q, d = _key_scores("ab", {"a": 0, "b": F(-1, 2)})
    return LimitTransformer(E, R([[0] * d], "P"), K, Q, _identity(d), U=R([[1, 0]], "U"), name="gap-half")


MODELS = {"two-sets": two_sets, "three-level": three_level, "uniform": uniform, "far-key": far_key,
          "delta2": delta2, "gap-half": gap_half}
