"""proofkit.families.cot: the tent is 0 outside its open interval and 1 at its centre; the paired
trajectories of g and a learned g~ agree exactly where g~ = g on the visited states."""

from fractions import Fraction as Fr

from proofkit.families.cot import constant_token_trajectories, final_states, tent


def test_tent():
    assert tent(Fr(0), Fr(0), Fr(2)) == tent(Fr(2), Fr(0), Fr(2)) == tent(Fr(5), Fr(0), Fr(2)) == 0
    assert tent(Fr(1), Fr(0), Fr(2)) == 1 and tent(Fr(1, 2), Fr(0), Fr(2)) == Fr(1, 2)


def test_trajectories_separate_only_where_the_learner_differs():
    g = lambda h, x: h + x  # noqa: E731
    gt = lambda h, x: g(h, x) + tent(h, Fr(2), Fr(4))  # noqa: E731
    rows = list(constant_token_trajectories(g, gt, [Fr(0)], [Fr(1)], 5))
    assert [t for _, _, t, _, _ in rows] == [1, 2, 3, 4, 5]
    assert [h == ht for _, _, _, h, ht in rows] == [True, True, True, False, False]  # h_3 = 3 is in (2, 4)
    assert final_states(g, gt, Fr(0), [Fr(1)] * 3) == (Fr(3), Fr(3))
    assert final_states(g, gt, Fr(0), [Fr(1)] * 4) == (Fr(4), Fr(5))
