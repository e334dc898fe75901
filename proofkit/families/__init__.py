"""Model families (hypothesis classes). Each shares the contract of :class:`Family`."""

from .base import Family
from .deepsets import DeepSets
from .linrec import LinearRecurrence
from .rnn import VanillaRNN

__all__ = ["Family", "DeepSets", "LinearRecurrence", "VanillaRNN"]
