"""Named predicates shared by theorem statements (sympy Booleans whose help is their wording): the
generic vocabulary of hypotheses that have no formula of their own. Paper-specific ones live in the
theorem files (:func:`proofkit.language.spec.predicate`)."""

from __future__ import annotations

import sympy as sp

from .spec import function, predicate

Injective = predicate("Injective", "the map is injective (one-to-one)")
RegularClosed = predicate("RegularClosed", "the set equals the closure of its interior")
NonEmptyInterior = predicate("NonEmptyInterior", "the set has a non-empty interior")
NonEmpty = predicate("NonEmpty", "the set is non-empty")
C1 = predicate("C1", "the functions are continuously differentiable on an open set containing the set "
                     "named last")
Realizable = predicate("Realizable", "realizability: the true model f is in the learner's hypothesis "
                                     "class H")
#: supp(X) of a random variable (a set-valued function)
supp = function("supp", "the support of the distribution of the random variable")
In = predicate("In", "the point (first argument) lies in the set (second argument)")
#: the risk of eq. 1 with labels at every length (R_ALL(T) = 0: the training equalities)
R_ALL = function("R_ALL", "risk with labels at every length 1..T, sum_{i<=T} E||h(X_{<=i}) - f(X_{<=i})||^2 "
                          "(the objective of eq. 1); R_ALL(T) = 0 is the training equalities h = f on "
                          "supp(X_{<=i}) for every i <= T")

# ----------------------------------------------------------------------------- formal languages (C-RASP)
InCRASP = predicate("InCRASP", "the language (first argument) is definable by a program of the C-RASP "
                               "fragment (second argument): C-RASP[] has no positional relations, "
                               "C-RASP[periodic] periodic ones, C-RASP[periodic,local] also local counts")
ExpressibleLT = predicate("ExpressibleLT", "the function is expressible by a Limit Transformer satisfying "
                                           "Periodic and Local")
Accepts = predicate("Accepts", "the program or network (first argument) accepts the string (second "
                               "argument)")
Available = predicate("Available", "programs or transformers may use this kind of positional information")
Local = predicate("Local", "translation-invariant and local: depends only on i - j and vanishes beyond a "
                           "fixed radius")
Periodic = predicate("Periodic", "positional encodings / predicates are periodic in the position")
rows = function("rows", "one-way communication rows at split N: distinct rows of the matrix "
                        "[u v in L] over |u| = |v| = N (Alice holds u, Bob holds v)")
#: the C-RASP fragments, as symbols
CRASP_PLAIN = sp.Symbol("C-RASP[]")
CRASP_PERIODIC = sp.Symbol("C-RASP[periodic]")
CRASP_PL = sp.Symbol("C-RASP[periodic,local]")
#: the hypotheses on one-layer limit transformers at finite precision (tau-local, Delta-periodic,
#: translation-invariant, flush rule), shared by the theorems that assume them
TauLocal = predicate("TauLocal", "phi(j, i) = 0 whenever i > j + tau")
DeltaPeriodic = predicate("DeltaPeriodic", "p_i = p_{i + Delta} for all i")
TranslationInvariant = predicate("TranslationInvariant", "phi(j, i) = phi(j + t, i + t) for all t")
FinitePrecision = predicate("FinitePrecision", "softmax terms <= 2^-p are flushed (finite p)")
