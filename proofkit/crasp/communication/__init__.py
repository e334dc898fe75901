"""One-way communication complexity (Huang et al. 2024, Thm 12 and Cor. 13): row counts of prefix
functions, and the protocol simulation of compiled networks."""

from ...runtime.namespace import lazy

#: the package's public surface, name -> defining module (docs/api.md lists it); imported on first use
PUBLIC = {
    "comm": "proofkit.crasp.communication.comm",
    "protocol_summaries": "proofkit.crasp.communication.protocol",
}
__all__ = sorted(PUBLIC)
__getattr__, __dir__ = lazy(__name__, PUBLIC)
