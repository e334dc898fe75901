"""C-RASP to Limit Transformers (Huang et al. 2024, Thm 9): the compiler, explicit networks and their
exact forward pass, the assumption-drop variants, and the long-string screen of a compiled network."""

from ...runtime.namespace import lazy

#: the package's public surface, name -> defining module (docs/api.md lists it); imported on first use
PUBLIC = {
    "compile_program": "proofkit.crasp.compilation.compiler",
    "CompilerFalsifier": "proofkit.crasp.compilation.variants",
    "Mat": "proofkit.crasp.compilation.network",
    "precision_needed": "proofkit.crasp.compilation.compiler",
    "VARIANTS": "proofkit.crasp.compilation.variants",
}
__all__ = sorted(PUBLIC)
__getattr__, __dir__ = lazy(__name__, PUBLIC)
