"""``proofkit crasp eval``: the value of every operation at every prefix of one string, as a table a reader
can follow.

A header gives the positions and the input symbol at each (position 0 is the virtual start: the empty prefix),
then one row per IR operation labelled with what it is (``_t3 = #_t1``, ``M = _t2 <= _t4``: the primitive the
parser expanded the program into, operands by name), Booleans written true/false and counts as integers.
``--json`` gives the same as one object: ``values`` (name -> list over positions 0..n, JSON booleans and
integers) and ``ops`` (name, kind, sort, definition, whether it is a named statement, source line).
"""

from __future__ import annotations

from typing import Any

from ..language.ir import Program
from ..language.printer import op_text

#: characters of a row label (``name = definition``) shown at most
LABEL_WIDTH = 48
START = "-"  # the symbol column of the virtual position 0


def _cell(v: bool | int) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def _label(name: str, definition: str, names: int) -> str:
    text = f"{name:<{names}} = {definition}"
    return text if len(text) <= LABEL_WIDTH else text[: LABEL_WIDTH - 3] + "..."


def eval_report(program: Program, path: str, string: str, symbols: list[str],
                values: dict[str, list[Any]]) -> tuple[dict[str, Any], str]:
    """(JSON object, text table) of one evaluation by the reference interpreter."""
    accepts = bool(values[program.output][-1])
    ops = [{"name": op.name, "kind": op.kind, "sort": "Boolean" if op.sort == "bool" else "count",
            "definition": op_text(op), "statement": not op.name.startswith("_"), "line": op.line or None}
           for op in program.ops]
    obj = {"program": path, "string": string, "symbols": symbols, "accepts": accepts,
           "output": program.output, "ops": ops,
           "values": {k: [v if isinstance(v, bool) else int(v) for v in vs] for k, vs in values.items()}}
    n = len(symbols)
    names = max(len(o["name"]) for o in ops)
    labels = [_label(o["name"], o["definition"], min(names, LABEL_WIDTH // 3)) for o in ops]
    width = max([len(x) for x in labels] + [len("position")])
    header = [[str(i) for i in range(n + 1)], [START, *symbols]]
    rows = [[_cell(v) for v in values[o["name"]]] for o in ops]
    cols = [max(len(r[i]) for r in header + rows) for i in range(n + 1)]

    def line(label: str, cells: list[str]) -> str:
        return (f"{label:<{width}}  " + "  ".join(c.ljust(w) for c, w in zip(cells, cols))).rstrip()

    lines = [line("position", header[0]), line("symbol", header[1])]
    lines += [line(lab, cells) for lab, cells in zip(labels, rows)]
    lines.append(f"output {program.output} at position {n}, the whole string (column i is the prefix of "
                 f"length i, column 0 the empty prefix)")
    lines.append(f"accepts: {'true' if accepts else 'false'}")
    return obj, "\n".join(lines)
