"""The C-RASP tools on a user's own program file: ``proofkit crasp ...``, ``info``, the evaluation table,
the shell entry of the program search, and checks against a user's Python ground truth."""

from ...runtime.namespace import lazy

#: the package's public surface, name -> defining module (docs/api.md lists it); imported on first use
PUBLIC = {
    "enumerate_cli": "proofkit.crasp.tools.enumerate_cli",
}
__all__ = sorted(PUBLIC)
__getattr__, __dir__ = lazy(__name__, PUBLIC)
