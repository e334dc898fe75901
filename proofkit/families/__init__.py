"""Model families (hypothesis classes). Each shares the contract of :class:`Family`."""

from .base import Family
from .deepsets import DeepSets
from .linrec import LinearRecurrence

__all__ = ["Family", "DeepSets", "LinearRecurrence"]
