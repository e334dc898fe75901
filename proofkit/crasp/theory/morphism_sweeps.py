"""Sweeps over the morphism machinery of :mod:`proofkit.crasp.theory.morphisms`: Lemma 42's program
transformer on every program of a library under a few uniform-length morphisms (it must preserve
acceptance and never leave the program's fragment), and the exhaustive checks of the reductions that bear on
one Table-2 row (Huang et al. 2024, App. C.3, E.1.2)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..language import analysis
from ..tasks.checks import length_for
from ..tasks.library import Entry
from .morphisms import REDUCTIONS, MorphismCheck, Reduction, check_transform, morphism, transform


def two_letter_morphisms(alphabet: Sequence[str]) -> tuple[dict[str, list[str]], ...]:
    """Three morphisms {x, y} -> alphabet^K with K = 3, 1, 2, built from the first and last letters of the
    alphabet."""
    first, last = alphabet[0], alphabet[-1]
    return ({"x": [first, last, first], "y": [last, last, first]}, {"x": [last], "y": [first]},
            {"x": [first, last], "y": [last, first]})


def fragment_within(inner: str, outer: str) -> bool:
    """Whether the fragment ``inner`` (e.g. ``[periodic]``) uses only features of ``outer``."""
    return set(inner.strip("[]").split(",")) - {""} <= set(outer.strip("[]").split(","))


@dataclass(frozen=True)
class TransformCase:
    """transform(P, h) for one (library program, morphism): the exhaustive acceptance check and the
    fragments of P and of the transformed program."""

    file: str
    morphism: str
    fragment: str
    image_fragment: str
    check: MorphismCheck

    @property
    def ok(self) -> bool:
        """Acceptance preserved and the fragment not left."""
        return self.check.holds and fragment_within(self.image_fragment, self.fragment)


def transform_cases(entries: Sequence[Entry], max_len: int, max_letters: int = 3) -> list[TransformCase]:
    """Every program over at most ``max_letters`` letters under each of :func:`two_letter_morphisms`,
    checked on every string over {x, y} of length <= max_len, up to and including the first case that
    is not ok."""
    out = []
    for e in entries:
        A = e.program.alphabet
        if len(A) > max_letters:
            continue
        for images in two_letter_morphisms(A):
            h = morphism(images, "xy", A)
            c = check_transform(e.program, h, max_len)
            case = TransformCase(e.file, h.text(), analysis.fragment(e.program),
                                 analysis.fragment(transform(e.program, h)), c)
            out.append(case)
            if not case.ok:
                return out
    return out


def row_reduction_checks(row: str, binary_len: int) -> list[tuple[Reduction, int, MorphismCheck]]:
    """(reduction, n, exhaustive check to n) for every reduction of ``REDUCTIONS`` that bears on the Table-2
    row, n = the exhaustive length of the reduction's source alphabet at the cost of binary_len binary
    letters."""
    out = []
    for red in REDUCTIONS:
        if row in red.rows:
            n = length_for(len(red.source), binary_len)
            out.append((red, n, red.check(n)))
    return out
