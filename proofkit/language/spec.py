"""Theorem specifications: statement, assumptions, claims and parameters, as the paper prints them.

A theorem file builds one :class:`Theorem` from these pieces; the engine (``check``, ``falsify``)
never needs theorem-specific code.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import sympy as sp
from sympy.logic.boolalg import BooleanFunction

from .cost import Cost
from .params import ParamSpace
from .proof import Proof, Step, validate
from .verdict import Verdict

#: the one pattern of a theorem id (PAPER.RESULT, dotted parts of letters, digits, - and _): ids name
#: record files and lines of ``list``, so no separator, space, newline or ``..`` can be in one
THEOREM_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,31}(?:\.[A-Za-z0-9][A-Za-z0-9_-]{0,31}){0,3}")


class AssumptionError(RuntimeError):
    """An assumption's own ``holds`` raised: an error of the theorem file (its message names the
    assumption), not a verdict and not bad input on the command line."""


@dataclass(frozen=True)
class PaperRef:
    paper: str
    section: str
    equation: str = ""
    bibkey: str = ""

    def __str__(self) -> str:
        eq = f", eq. {self.equation}" if self.equation else ""
        return f"{self.paper}, {self.section}{eq}"


@dataclass(frozen=True)
class Assumption:
    """One hypothesis. ``holds(params)`` says whether a parameter set satisfies it; ``drop`` is the
    parameter change that violates it (what ``falsify --drop ID`` searches first; ``search``: further
    strategies; :mod:`proofkit.engine.dropspace` enumerates the rest); ``predicate`` is the
    hypothesis as a sympy Boolean (``Q.invertible(A)``, ``T >= 2``, a named predicate), the conjunct it
    contributes to the theorem's statement (None: it contributes none)."""

    id: str
    meaning: str
    holds: Callable[[Mapping[str, Any]], bool] = lambda p: True
    drop: Mapping[str, Any] = field(default_factory=dict)
    note: str = ""
    predicate: sp.Basic | None = None
    #: further parameter changes a drop also searches (strategies: other true models, supports, learner
    #: families), after ``drop`` and before the settings :mod:`proofkit.engine.dropspace` enumerates
    search: tuple[Mapping[str, Any], ...] = ()
    #: the name of a claim of the theorem whose certified verdict proves the conclusion without this
    #: assumption (given the others): the only ground on which proofkit calls an assumption superfluous
    unneeded: str = ""


class NamedPredicate(BooleanFunction):
    """A hypothesis or conclusion that has no formula here: a sympy Boolean function whose class name is
    the predicate's name and whose docstring (``help``) is the paper's wording. Make one with
    :func:`predicate`; ``proofkit show`` lists the wording of every named predicate a statement uses."""

    wording: str = ""

    def _latex(self, printer: Any) -> str:
        args = ", ".join(printer._print(a) for a in self.args)
        return rf"\operatorname{{{latex_text(type(self).__name__)}}}\left({args}\right)" if args \
            else rf"\operatorname{{{latex_text(type(self).__name__)}}}"


def predicate(name: str, wording: str) -> type[NamedPredicate]:
    """A named predicate ``name(args...)`` (a sympy Boolean) whose help is ``wording``."""
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name):
        raise ValueError(f"predicate name: expected an identifier, got {name!r}")
    return type(name, (NamedPredicate,), {"__doc__": wording, "wording": wording,
                                          "__module__": __name__})


def function(name: str, wording: str) -> sp.core.function.UndefinedFunction:
    """A named function (e.g. a risk ``R(T)``, a row count ``rows(L, N)``) whose help is ``wording``."""
    return sp.Function(name, wording=wording)


def named_predicates(expr: sp.Basic) -> dict[str, str]:
    """name -> wording of every named predicate or named function in ``expr``, in order of first
    appearance."""
    found: dict[str, str] = {}
    for node in sp.preorder_traversal(expr):
        if isinstance(node, NamedPredicate):
            found.setdefault(type(node).__name__, type(node).wording)
        elif isinstance(node, sp.core.function.AppliedUndef) and getattr(node.func, "wording", ""):
            found.setdefault(str(node.func), node.func.wording)
    return found


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "#": r"\#", "$": r"\$",
                  "%": r"\%", "&": r"\&", "_": r"\_", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}", "<": r"\textless{}", ">": r"\textgreater{}",
                  "|": r"\textbar{}"}


def latex_text(text: str) -> str:
    """``text`` escaped for LaTeX text mode."""
    return "".join(_LATEX_SPECIAL.get(c, c) for c in text)


#: the symbols the generic claims and hypotheses share: training length T, a length t, the sequence
#: x_{<=t}, the learned model h and the true model f
T_len = sp.Symbol("T", integer=True, positive=True)
t_len = sp.Symbol("t", integer=True, positive=True)
x_seq = sp.Symbol("x_{1:t}")
h_model, f_model = sp.Function("h"), sp.Function("f")
#: the training risk of eq. 1 (zero: the training equalities h = f on supp(X_{<=i}), i <= T)
Risk = sp.Function("R")
InTokenSupport = predicate("InTokenSupport", "every token x_j of x_{1:t} lies in the per-token support "
                           "supp(X_j) (length generalization, test set TS-L)")
InProductOfMarginals = predicate("InProductOfMarginals", "x_{1:t} lies in the product of the per-token "
                                 "marginal supports (compositional generalization, test set TS-C)")


@dataclass(frozen=True)
class Claim:
    """Base of every claim. ``role``: conclusion (the theorem's conclusion; enters the theorem verdict),
    identification (a relation the proof prints), proof-step (a CAS-checked step), control (a
    deliberately false statement the suite must refute)."""

    name: str
    role: str = "conclusion"
    source: str = ""
    #: the claim as a sympy Boolean (a conclusion claim's predicate is a conjunct of the theorem's
    #: conclusion); None: the claim's own :meth:`formula` (a relation's ``Eq(lhs, rhs)``), if any
    predicate: sp.Basic | None = field(default=None, kw_only=True)
    #: which statement the claim examines (:class:`proofkit.language.evidence.Reading`): as printed by the
    # paper
    #: (a refutation is an erratum), corrected, our reading, proxy or experiment (a refutation is that
    #: reading refuted, never an erratum)
    reading: str = field(default="as printed", kw_only=True)

    def __post_init__(self) -> None:
        from .evidence import Reading

        if self.reading not in {r.value for r in Reading}:
            raise ValueError(f"claim {self.name!r} reading: expected one of "
                             + ", ".join(r.value for r in Reading) + f", got {self.reading!r}")

    def statement(self) -> str:
        raise NotImplementedError

    def formula(self) -> sp.Basic | None:
        """The claim as a sympy Boolean, or None where it has none."""
        return self.predicate


@dataclass(frozen=True)
class Relation(Claim):
    """``lhs = rhs`` between learned and true objects, as printed (sympy matrix expressions).

    ``over``: ``params`` (once), ``tokens`` (at every point of a grid on the token support),
    ``states`` (along test sequences, every position), ``powers`` (j = 0..J-1 for the symbol ``j``).
    """

    lhs: sp.Basic = None
    rhs: sp.Basic = None
    over: str = "params"

    def statement(self) -> str:
        return f"{sp.sstr(self.lhs)} = {sp.sstr(self.rhs)}"

    def formula(self) -> sp.Basic | None:
        if self.predicate is not None:
            return self.predicate
        if isinstance(self.lhs, sp.Basic) and isinstance(self.rhs, sp.Basic):
            return sp.Eq(self.lhs, self.rhs, evaluate=False)
        return None


@dataclass(frozen=True)
class Generalization(Claim):
    """The learned model equals the true one beyond training: ``kind`` is ``length`` (t > T, tokens
    from the per-token marginal) or ``compositional`` (t <= T, product tokens and corners)."""

    kind: str = "length"

    def statement(self) -> str:
        if self.kind == "length":
            return "h(x_{<=t}) = f(x_{<=t}) for all t > T (TS-L, up to t = 1000)"
        return "h(x_{<=t}) = f(x_{<=t}) for t <= T on the product of token marginals (TS-C)"

    def formula(self) -> sp.Basic:
        if self.predicate is not None:
            return self.predicate
        same = sp.Eq(h_model(x_seq), f_model(x_seq), evaluate=False)
        if self.kind == "length":  # every t > T, x_{<=t} with tokens in the per-token support
            return sp.Implies(sp.And(sp.StrictGreaterThan(t_len, T_len), InTokenSupport(x_seq)), same)
        return sp.Implies(sp.And(sp.LessThan(t_len, T_len), InProductOfMarginals(x_seq)), same)


@dataclass(frozen=True)
class SymbolicStep(Claim):
    """An algebraic step of the proof checked by sympy: ``check()`` returns the residual expression,
    which must simplify to zero (or ``True``)."""

    text: str = ""
    check: Callable[[], Any] = lambda: sp.S.Zero

    def statement(self) -> str:
        return self.text


@dataclass(frozen=True)
class Computed(Claim):
    """A claim decided by a computation (exhaustive enumeration, rational or interval arithmetic, row
    counting, a sampled experiment): ``run(params)`` returns :class:`proofkit.language.evidence.Evidence`
    (what
    was found, over what domain, by what method) and the engine decides the verdict
    (:func:`proofkit.language.evidence.decide`). A legacy ``(verdict, residual, how)`` tuple is still read,
    and
    its scope says the verdict is the theorem file's own, not re-derived by the engine."""

    text: str = ""
    run: Callable[[Mapping[str, Any]], tuple[Any, str, str]] = lambda p: (None, "", "")

    def statement(self) -> str:
        return self.text


@dataclass(frozen=True)
class WitnessOutcome:
    """What a theorem's own ``falsifier`` returns from ``search(params)`` and ``replay(witness)``: whether
    a witness was found, the search effort, the witness as strings (it goes into a record), how it was
    decided, whether that decision is a proof (exact), the claim the witness refutes, and the structured
    certificate data the independent kernel re-checks (``{"kind": ...}``, exact strings; docs/trust.md),
    or None."""

    found: bool
    effort: str
    witness: dict[str, str] | None
    how: str
    certified: bool
    claim: str
    certificate_data: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class GroupElement:
    """The group element a relation names: defined by a formula (as the paper defines it), or solved
    by least squares from ``equations`` (linear in it) and projected onto ``group``."""

    symbol: sp.MatrixSymbol
    group: str = "GL"
    definition: sp.Basic | None = None
    equations: tuple[tuple[sp.Basic, sp.Basic, str], ...] = ()


@dataclass(frozen=True)
class Setup:
    """How parameters become a concrete learning problem (model families, true model, support)."""

    learned: Callable[[Mapping[str, Any]], Any]
    true: Callable[[Mapping[str, Any]], Any]
    true_params: Callable[[Mapping[str, Any]], Any]
    support: Callable[[Mapping[str, Any]], Any]
    learned_symbols: Mapping[str, sp.Basic] = field(default_factory=dict)
    true_symbols: Mapping[str, sp.Basic] = field(default_factory=dict)
    token_symbols: tuple[sp.Basic, sp.Basic] | None = None
    state_symbols: tuple[sp.Basic, sp.Basic] | None = None
    n_per_length: int = 60


@dataclass(frozen=True)
class Statement:
    """A theorem's statement in parts: ``hypotheses`` (assumption id, sympy Boolean) and ``conclusion``
    (label, sympy Boolean): the label is a conclusion claim's name, or ``conclusion``. ``expr`` is the
    sympy form ``Implies(And(*hypotheses), And(*conclusions))``; ``plain`` holds a statement given as
    one sympy object (a user theorem written before hypotheses existed), which is then ``expr``."""

    hypotheses: tuple[tuple[str, sp.Basic], ...] = ()
    conclusion: tuple[tuple[str, sp.Basic], ...] = ()
    plain: sp.Basic | None = None

    @property
    def expr(self) -> sp.Basic:
        if self.plain is not None:
            return self.plain
        concl = sp.And(*(c for _, c in self.conclusion), evaluate=False) if len(self.conclusion) > 1 \
            else self.conclusion[0][1] if self.conclusion else sp.true
        if not self.hypotheses:
            return concl
        hyps = sp.And(*(h for _, h in self.hypotheses), evaluate=False) if len(self.hypotheses) > 1 \
            else self.hypotheses[0][1]
        return sp.Implies(hyps, concl, evaluate=False)

    def named(self) -> dict[str, str]:
        """Wording of every named predicate used."""
        out: dict[str, str] = {}
        for _, e in (*self.hypotheses, *self.conclusion):
            for k, v in named_predicates(e).items():
                out.setdefault(k, v)
        if self.plain is not None:
            out.update(named_predicates(self.plain))
        return out

    def __str__(self) -> str:
        return sp.sstr(self.expr)


@dataclass(frozen=True)
class Theorem:
    """``statement``: give either nothing (the statement is built from the assumptions' predicates and
    the conclusion claims' formulas, or ``conclusion`` where given) or one sympy object (kept as written;
    the form user theorems had before hypotheses existed)."""

    id: str
    title: str
    paper: PaperRef
    assumptions: tuple[Assumption, ...]
    claims: tuple[Claim, ...]
    params: ParamSpace
    setup: Setup | None = None
    groups: tuple[GroupElement, ...] = ()
    expect: Mapping[str, Verdict] = field(default_factory=dict)
    falsifier: Callable[..., Any] | None = None
    #: groups of dimension parameters a counterexample is shrunk along (each group moves together)
    dims: tuple[tuple[str, ...], ...] = ()
    notes: str = ""
    #: a sympy statement given as one object (kept as written); None: built, see :meth:`statement_parts`
    statement: sp.Basic | None = field(default=None, kw_only=True)
    #: the conclusion as a sympy Boolean where the conclusion claims carry none (e.g. a lemma checked
    #: through its proof steps); None: the conjunction of the conclusion claims' formulas
    conclusion: sp.Basic | None = field(default=None, kw_only=True)
    #: standing hypotheses that are no droppable assumption (label, sympy Boolean), e.g. zero training
    #: risk; they come first in the statement
    given: tuple[tuple[str, sp.Basic], ...] = field(default=(), kw_only=True)
    #: LaTeX for symbols whose names do not print well (e.g. ``At`` -> ``\tilde{A}``)
    latex_names: Mapping[sp.Basic, str] = field(default_factory=dict, kw_only=True)
    #: theorems whose stored records refute this one once the named assumptions of this theorem are
    #: dropped: (other theorem id, assumption ids of this theorem its records' setting violates); falsify
    #: replays them before it searches (:mod:`proofkit.engine.known`)
    refuted_by: tuple[tuple[str, tuple[str, ...]], ...] = field(default=(), kw_only=True)
    #: the proofs the paper prints for this result, walked equation by equation
    #: (:mod:`proofkit.language.proof`): each step names the claims above that check it, or says why none
    proofs: tuple[Proof, ...] = field(default=(), kw_only=True)
    #: the quantified sentences ("necessary", "sufficient", "iff", "for all", ...) the paper prints about
    #: this result, each with the claims that examine it (``label``: where the sentence is)
    sentences: tuple[Step, ...] = field(default=(), kw_only=True)
    #: the id of the theorem whose printed statement this one corrects (derived here, not in the paper):
    #: its conclusion claims read "corrected", so a refutation is a refuted correction, never an erratum
    corrects: str = field(default="", kw_only=True)
    #: how long a check takes, estimated from the parameters (:class:`proofkit.language.cost.Cost`); the
    #: engine refuses a setting whose estimate exceeds the work cap before it starts. None: the check
    #: finishes within a minute at every parameter's maximum (measured: docs/limits.md)
    cost: Cost | None = field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not THEOREM_ID.fullmatch(self.id):
            raise ValueError(f"theorem id: expected letters, digits, '-' or '_' in at most 4 dotted parts "
                             f"of at most 32 characters, the first starting with a letter (such as "
                             f"PAPER.T1), got {str(self.id)[:80]!r}")
        validate(self.proofs, self.sentences, (c.name for c in self.claims), self.id)
        if self.cost is not None:
            names = set(self.params.names())
            for name in set(self.cost.grows) | set(self.cost.per_unit):
                if name not in names or self.params.get(name).type not in (int, float):
                    raise ValueError(f"{self.id}: cost grows with {name!r}, which is no numeric parameter")
            for name in self.cost.parameters() - names:
                raise ValueError(f"{self.id}: cost reads {name!r}, which is no parameter")
        if self.corrects:
            for c in self.claims:
                if c.role == "conclusion" and c.reading != "corrected":
                    raise ValueError(f"{self.id} corrects {self.corrects}: conclusion claim {c.name!r} must "
                                     f"read 'corrected', got {c.reading!r}")

    def statement_parts(self, dropped: Iterable[str] = ()) -> Statement:
        """The statement with the hypotheses of ``dropped`` assumptions left out (their conjuncts)."""
        drop = set(dropped)
        for aid in drop:
            self.assumption(aid)
        hyps = tuple(self.given) + tuple((a.id, a.predicate) for a in self.assumptions
                                         if a.predicate is not None and a.id not in drop)
        if self.statement is not None and self.conclusion is None and not hyps:
            return Statement(plain=self.statement)
        if self.conclusion is not None:
            concl: tuple[tuple[str, sp.Basic], ...] = (("conclusion", self.conclusion),)
        else:
            concl = tuple((c.name, f) for c in self.claims
                          if c.role == "conclusion" and (f := c.formula()) is not None)
        if not concl and self.statement is not None:
            concl = (("conclusion", self.statement),)
        return Statement(hyps, concl)

    def formula(self, dropped: Iterable[str] = ()) -> sp.Basic:
        """The statement as one sympy object, without the conjuncts of ``dropped`` assumptions."""
        return self.statement_parts(dropped).expr

    def with_claims(self, claims: Iterable[Claim], expect: Mapping[str, Verdict] | None = None) -> Theorem:
        """The theorem with only ``claims`` (and ``expect``, default none): a variant for a check of chosen
        claims. Its proof walks and sentences name the original claims, so the variant has none."""
        return replace(self, claims=tuple(claims), expect=dict(expect or {}), proofs=(), sentences=())

    def dropped(self, ids: Iterable[str]) -> Theorem:
        """The variant without the assumptions ``ids`` (their hypotheses leave the statement)."""
        drop = set(ids)
        for aid in drop:
            self.assumption(aid)
        return replace(self, assumptions=tuple(a for a in self.assumptions if a.id not in drop))

    def latex(self, dropped: Iterable[str] = ()) -> str:
        """The statement in LaTeX (``sympy.latex``)."""
        return to_latex(self.formula(dropped), self.latex_names)

    def assumption(self, aid: str) -> Assumption:
        from ..errors import InputError, did_you_mean

        for a in self.assumptions:
            if a.id == aid:
                return a
        ids = [a.id for a in self.assumptions]
        raise InputError("--drop", "an assumption of " + self.id + did_you_mean(aid, ids) + ": "
                         + ", ".join(ids), aid)

    def violated(self, params: Mapping[str, Any]) -> list[str]:
        """The ids of the assumptions these parameters violate. An assumption whose ``holds`` raises is
        an error of the theorem file naming it (exit 4), never read as "the engine could not evaluate"
        (which would turn a ZeroDivisionError in the file into an inconclusive verdict)."""
        out = []
        for a in self.assumptions:
            try:
                ok = a.holds(params)
            except Exception as exc:
                raise AssumptionError(f"{self.id}: assumption {a.id!r}: holds(params) raised "
                                      f"{type(exc).__name__}: {exc}") from exc
            if not ok:
                out.append(a.id)
        return out


_PLAIN_NAME = re.compile(r"[A-Za-z]+(_\{?[A-Za-z0-9]+\}?)?")


def to_latex(expr: sp.Basic, names: Mapping[sp.Basic, str] | None = None) -> str:
    """``sympy.latex`` with ``names`` for symbols and every other symbol whose name is not a plain
    identifier (e.g. ``x#y``) written as escaped text, so the result always compiles."""
    symbol_names = {}
    for s in expr.atoms(sp.Symbol, sp.MatrixSymbol):
        name = str(s.name)
        if not _PLAIN_NAME.fullmatch(name) and not name.startswith("x_{"):
            symbol_names[s] = rf"\text{{{latex_text(name)}}}"
    symbol_names.update(names or {})
    return sp.latex(expr, symbol_names=symbol_names)
