"""The verdict table written as Markdown, LaTeX, CSV or JSON (``proofkit report --format``).

Every format has the same columns (:data:`proofkit.publish.table.COLUMNS`) and is deterministic: same
rows, same bytes. LaTeX is a fragment a paper can ``\\input`` (it needs ``\\usepackage{longtable}``):
every cell goes through :func:`latex_escape`, which escapes LaTeX's special characters and writes
non-ASCII text in forms pdflatex accepts without an input encoding (Greek letters and common math
symbols in math mode, accented letters as accent commands, anything else as ``[U+XXXX]``). Markdown
cells escape the characters that would end a cell or start emphasis or a link; records are links.
CSV is written by the csv module, JSON as a list of row objects.
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from collections.abc import Callable, Sequence

from .table import COLUMNS, RecordLink, Row

_LATEX_ASCII = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
    "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"\ensuremath{<}",
    ">": r"\ensuremath{>}", "|": r"\ensuremath{|}", "\n": " ", "\r": " ", "\t": " ",
}
_GREEK = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho "
          "varsigma sigma tau upsilon phi chi psi omega").split()
#: non-ASCII characters written in math mode
_LATEX_MATH = {
    **{chr(0x3B1 + i): "\\" + name for i, name in enumerate(_GREEK) if name not in ("omicron",)},
    **{chr(0x391 + i): "\\" + name.capitalize() for i, name in enumerate(_GREEK)
       if name.capitalize() in ("Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi",
                                "Psi", "Omega")},
    "ο": "o", "ϵ": r"\epsilon", "ϕ": r"\phi", "≤": r"\leq", "≥": r"\geq", "≠": r"\neq", "≈": r"\approx",
    "→": r"\to", "←": r"\leftarrow", "⇒": r"\Rightarrow", "⟹": r"\Longrightarrow", "⇔": r"\Leftrightarrow",
    "×": r"\times", "·": r"\cdot", "∘": r"\circ", "∈": r"\in", "∉": r"\notin", "⊆": r"\subseteq",
    "∑": r"\sum", "∏": r"\prod", "∞": r"\infty", "±": r"\pm", "−": "-", "√": r"\surd", "∀": r"\forall",
    "∃": r"\exists", "∧": r"\wedge", "∨": r"\vee", "¬": r"\neg", "∩": r"\cap", "∪": r"\cup",
    "ℝ": r"\mathbf{R}", "ℕ": r"\mathbf{N}", "ℤ": r"\mathbf{Z}", "ℚ": r"\mathbf{Q}", "⌊": r"\lfloor",
    "⌋": r"\rfloor", "⌈": r"\lceil", "⌉": r"\rceil", "‖": r"\|", "∂": r"\partial", "∇": r"\nabla",
    "ᵀ": "^{T}", "⁻": "^{-}", "⁺": "^{+}", "¹": "^{1}", "²": "^{2}", "³": "^{3}",
    **{chr(0x2070 + d): f"^{{{d}}}" for d in (0, 4, 5, 6, 7, 8, 9)},
    **{chr(0x2080 + d): f"_{{{d}}}" for d in range(10)},
}
#: non-ASCII characters written as text
_LATEX_TEXT = {"–": "--", "—": "---", "‘": "`", "’": "'", "“": "``", "”": "''", "…": r"\ldots{}",
               "\u00a0": "~", "ß": r"\ss{}", "æ": r"\ae{}", "ø": r"\o{}", "å": r"\aa{}", "Æ": r"\AE{}",
               "Ø": r"\O{}", "Å": r"\AA{}", "œ": r"\oe{}", "ł": r"\l{}", "Ł": r"\L{}"}
#: combining marks: (text accent, math accent)
_ACCENTS = {0x300: ("`", "grave"), 0x301: ("'", "acute"), 0x302: ("^", "hat"), 0x303: ("~", "tilde"),
            0x304: ("=", "bar"), 0x306: ("u", "breve"), 0x307: (".", "dot"), 0x308: ('"', "ddot"),
            0x30C: ("v", "check"), 0x327: ("c", None)}
_CLUSTER = re.compile(r"(.)([\u0300-\u036f]*)", re.DOTALL)


def _latex_cluster(base: str, marks: str) -> str:
    """One character with its combining marks."""
    if not marks and ord(base) > 127 and base not in _LATEX_MATH and base not in _LATEX_TEXT:
        decomposed = unicodedata.normalize("NFD", base)
        if len(decomposed) > 1:
            base, marks = decomposed[0], decomposed[1:]
    if any(ord(m) not in _ACCENTS for m in marks):
        return _latex_plain(base) + "".join(f"[U+{ord(m):04X}]" for m in marks)
    if marks and (base.isascii() and base.isalpha() or base in "ij"):
        out = base
        for m in marks:
            out = f"\\{_ACCENTS[ord(m)][0]}{{{out}}}"
        return out
    if marks and base in _LATEX_MATH and all(_ACCENTS[ord(m)][1] for m in marks):
        out = _LATEX_MATH[base]
        for m in marks:
            out = f"\\{_ACCENTS[ord(m)][1]}{{{out}}}"
        return f"\\ensuremath{{{out}}}"
    return _latex_plain(base) + "".join(f"[U+{ord(m):04X}]" for m in marks)


def _latex_plain(c: str) -> str:
    if c.isascii():
        return _LATEX_ASCII.get(c, c)
    if c in _LATEX_TEXT:
        return _LATEX_TEXT[c]
    if c in _LATEX_MATH:
        return f"\\ensuremath{{{_LATEX_MATH[c]}}}"
    return f"[U+{ord(c):04X}]"


def latex_escape(text: str) -> str:
    """``text`` as LaTeX text that compiles with pdflatex and no input encoding: specials escaped
    (``\\ & % $ # _ { } ~ ^ < > |``), ``--`` kept as two hyphens, non-ASCII as the module says."""
    clusters = list(_CLUSTER.finditer(unicodedata.normalize("NFC", text)))
    out = []
    for i, m in enumerate(clusters):
        ligature = m.group(0) == "-" and i + 1 < len(clusters) and clusters[i + 1].group(1) == "-"
        out.append("-{}" if ligature else _latex_cluster(m.group(1), m.group(2)))
    return "".join(out)


def _breakable(text: str) -> str:
    """Escaped text that may break after ``.``, ``/`` and ``_`` (ids, arXiv numbers, file names)."""
    return re.sub(r"(\.|/|\\_)", r"\1\\allowbreak{}", latex_escape(text))


#: column widths of the LaTeX table, fractions of \linewidth (they and the column gaps fill the line)
_WIDTHS = {"theorem": 0.06, "paper": 0.06, "section": 0.07, "claim": 0.11, "role": 0.05, "verdict": 0.06,
           "finding": 0.05, "scope": 0.14, "precision": 0.04, "certified": 0.04, "errata": 0.07, "note": 0.05,
           "records": 0.05}
#: columns whose text may break after separators
_BREAKABLE = ("theorem", "paper", "section")
#: every cell starts ragged right, with a zero skip so that TeX may hyphenate its first word; rows end with
#: \tabularnewline (\raggedright redefines \\)
_CELL = r"\raggedright\hspace{0pt}"


def _latex_cell(row: Row, name: str) -> str:
    """Records by the assumptions they drop (their files are in the other formats: a paper table has no
    room for them), theorem, paper and section breakable after separators, the rest escaped."""
    if name == "records":
        return "; ".join(latex_escape(r.label()) for r in row.records)
    return _breakable(row.cell(name)) if name in _BREAKABLE else latex_escape(row.cell(name))


def to_latex(rows: Sequence[Row]) -> str:
    """A ``longtable`` fragment (needs ``\\usepackage{longtable}``), header repeated on every page."""
    spec = "".join(f"p{{{_WIDTHS[name]:.2f}\\linewidth}}" for name, _ in COLUMNS)
    header = " & ".join(rf"{_CELL}\textbf{{{latex_escape(title)}}}" for _, title in COLUMNS)
    lines = [r"% proofkit report: the verdict table (needs \usepackage{longtable}); records are named by the",
             r"% assumptions they drop, their files are listed in the Markdown, CSV and JSON forms",
             r"\begingroup\scriptsize\setlength{\tabcolsep}{2pt}",
             rf"\begin{{longtable}}{{{spec}}}", r"\hline", header + r" \tabularnewline", r"\hline",
             r"\endhead"]
    for row in rows:
        lines.append(" & ".join(_CELL + _latex_cell(row, name) for name, _ in COLUMNS) + r" \tabularnewline")
    lines += [r"\hline", r"\end{longtable}", r"\endgroup"]
    return "\n".join(lines) + "\n"


_MD_SPECIAL = re.compile(r"([\\`*_|\[\]<>])")


def markdown_escape(text: str) -> str:
    """A Markdown table cell: one line, with ``\\ ` * _ | [ ] < >`` escaped."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(text.split()))


def _md_link(r: RecordLink) -> str:
    target = f"<{r.path}>" if re.search(r"[\s()<>]", r.path) else r.path
    return f"[{markdown_escape(r.label())}]({target})"


def to_markdown(rows: Sequence[Row]) -> str:
    """A pipe table, records as links."""
    lines = ["| " + " | ".join(title for _, title in COLUMNS) + " |",
             "|" + "---|" * len(COLUMNS)]
    for row in rows:
        cells = [", ".join(_md_link(r) for r in row.records) if name == "records"
                 else markdown_escape(row.cell(name)) for name, _ in COLUMNS]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def to_csv(rows: Sequence[Row]) -> str:
    """A header line and one line per row (records: paths, ``; ``-separated)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow([title for _, title in COLUMNS])
    for row in rows:
        writer.writerow([row.cell(name) for name, _ in COLUMNS])
    return buf.getvalue()


def to_json(rows: Sequence[Row]) -> str:
    """A JSON list of row objects (:meth:`Row.as_dict`)."""
    return json.dumps([r.as_dict() for r in rows], indent=1, ensure_ascii=False) + "\n"


#: format name -> (writer, file extension)
FORMATS: dict[str, tuple[Callable[[Sequence[Row]], str], str]] = {
    "md": (to_markdown, "md"), "latex": (to_latex, "tex"), "csv": (to_csv, "csv"), "json": (to_json, "json"),
}
