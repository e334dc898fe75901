"""C-RASP core IR: a straight-line list of primitive operations (Huang et al. 2024, Def. 8).

Every surface program (proofkit/crasp/language/parser.py) is flattened to this IR; the interpreters, the
static analyses, the compiler and the communication-complexity module all consume it. Conventions (fixed here,
documented in docs/crasp.md): real positions are 1..n, position 0 is the virtual start position where every
symbol test is false, every count is 0 and periodic predicates are evaluated at 0; the program accepts a
string when its output operation (``Program.output``: the parser's default is the last Boolean statement) is
true at the last position (position 0 for the empty string). Hand-built programs are checked by
``proofkit.crasp.language.analysis.validate``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

BOOL_KINDS = ("sym", "true", "periodic", "not", "and", "le")
COUNT_KINDS = ("count", "local", "cond", "add", "sub", "const")


@dataclass(frozen=True)
class Op:
    """One primitive operation, named; operands are names of earlier operations.

    kind and meaning at position i:
      sym       w_i == symbol                       (symbol)
      true      true
      periodic  i % modulus == residue              (modulus >= 1, 0 <= residue < modulus)
      not       not args[0]
      and       args[0] and args[1]
      le        args[0] <= args[1]                  (two counts)
      count     #{j in 1..i : args[0](j)}           (plain count, psi = true)
      local     #{j in 1..i : i - j in offsets and args[0](j)}   (offsets: finite set of ints >= 0)
      cond      args[1] if args[0] else args[2]     (args[0] Boolean, args[1..2] counts)
      add       args[0] + args[1]
      sub       args[0] - args[1]
      const     value                               (an integer)
    """

    name: str
    kind: str
    args: tuple[str, ...] = ()
    symbol: str | None = None
    modulus: int | None = None
    residue: int | None = None
    offsets: tuple[int, ...] = ()
    value: int | None = None
    line: int = field(default=0, compare=False)  # source line (1-based); 0 when not parsed from text

    @property
    def sort(self) -> str:
        return "bool" if self.kind in BOOL_KINDS else "count"


@dataclass(frozen=True)
class Program:
    """A C-RASP program over an alphabet; ``output`` is the name of the accepting Boolean operation."""

    alphabet: tuple[str, ...]
    ops: tuple[Op, ...]
    output: str
    name: str = ""
    source: str = field(default="", compare=False)

    def op(self, name: str) -> Op:
        for o in self.ops:
            if o.name == name:
                return o
        raise KeyError(name)
