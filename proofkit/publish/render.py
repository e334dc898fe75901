"""The verdict table written as Markdown, LaTeX, CSV or JSON (``proofkit report --format``).

Every format is deterministic: same rows and provenance, same bytes (no timestamps). Markdown, CSV and
JSON carry every column (:data:`proofkit.publish.table.COLUMNS`); Markdown opens with a paragraph naming
proofkit's version, git commit, seed and working precision, CSV and JSON carry them on every row
(:data:`proofkit.publish.table.EXTRA`). Markdown cells escape the characters that would end a cell or
start emphasis or a link; records are links, relative to where the table is written. CSV is written by
the csv module, JSON as a list of row objects.

LaTeX is written for one column of a two-column paper (``\\documentclass[twocolumn]{article}``, a
column about 3.3 in wide) and is a fragment to ``\\input`` (:func:`to_latex`; needs
:data:`LATEX_PACKAGES`), or with ``--standalone`` a complete document around it
(:func:`to_latex_document`). Design:

* one ``xtabular`` (package xtab) per paper: ``longtable`` cannot be used in two-column mode, a float
  per paper cannot hold a paper's hundred rows, and xtab breaks a table across columns and pages, with
  the paper's name (and ``\\proofkitcite{KEY}``) in the first head and "continued" in the next ones;
* booktabs rules, no vertical rules; the theorem id and its section are a heading row spanning the
  table, once per theorem, not on every row;
* three columns, ``\\scriptsize``: the claim (``(control)`` after a control's; its later lines
  indented), the verdict (after "refuted": **erratum**, or the reading of proofkit's that is refuted) and
  the arithmetic of the evidence. TeX measures the widest verdict word and arithmetic when the fragment
  is read, and the claim column gets the rest of ``\\linewidth``, so the table is exactly as wide as the
  column in any class or font; lines may break after ``. / _ = , ; : |`` and inside long tokens
  (:func:`_breakable`), so that no token overfills a column, and a claim longer than
  :data:`MAX_CLAIM` characters is cut. The scope, errata, notes and record files are left to the other
  formats (a paper column has no room for them);
* column breaks: xtab estimates each row's height and ends a column when less than the tail and the
  previous row is left; ``\\xentrystretch{0}`` keeps the estimate at or above the real height, the tail
  of a continued table reserves three blank lines (:data:`_TAIL`), so that a row up to three lines
  taller than the one before it never overruns a column, a table starts in a new column unless 18
  lines are left (:data:`_NEED`), a theorem's heading stays with its first row (:data:`_KEEP`), and
  neither a head nor the last row can end a column (their rows end with ``\\cr``);
* every cell goes through :func:`latex_escape`, which escapes LaTeX's special characters and writes
  non-ASCII text in forms pdflatex accepts without an input encoding (Greek letters and common math
  symbols in math mode, accented letters as accent commands, anything else as ``[U+XXXX]``);
* a comment block and a lead paragraph name proofkit's version, commit, seed and precision.
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from collections.abc import Callable, Sequence

from .table import COLUMNS, EXTRA, Provenance, RecordLink, Row

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
               "\u00a0": "~", "\u200b": r"\allowbreak{}", "ß": r"\ss{}", "æ": r"\ae{}", "ø": r"\o{}",
               "å": r"\aa{}", "Æ": r"\AE{}", "Ø": r"\O{}", "Å": r"\AA{}", "œ": r"\oe{}",
               "ł": r"\l{}", "Ł": r"\L{}"}
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


#: a token longer than this many characters may also break after every ``_CHUNK`` of them
_LONG = 24
_CHUNK = 12
#: characters a line may break after (inside a token): ids, arXiv numbers, file names, formulas
_BREAK_AFTER = frozenset("./_=,;:|")


def _breakable(text: str) -> str:
    """Escaped text that may break after ``. / _ = , ; : |`` inside a token, and inside a token
    longer than ``_LONG`` characters every ``_CHUNK`` characters, so that no token overfills a narrow
    column (the break is a zero-width space, which :func:`latex_escape` writes as ``\\allowbreak``)."""
    out = []
    for token in re.split(r"(\s+)", unicodedata.normalize("NFC", text)):
        clusters = [m.group(0) for m in _CLUSTER.finditer(token)]
        widths = [_width(c) for c in clusters]
        run = 0
        for i, (c, w) in enumerate(zip(clusters, widths)):
            out.append(c)
            run += w
            if i + 1 < len(clusters) and (c in _BREAK_AFTER or (sum(widths) > _LONG and run >= _CHUNK)):
                out.append("\u200b")
                run = 0
    return latex_escape("".join(out))


def _width(cluster: str) -> int:
    """About how many characters wide a cluster is written: 8 for one written as ``[U+XXXX]``."""
    base = cluster[0]
    return 1 if base.isascii() or base in _LATEX_MATH or base in _LATEX_TEXT or len(
        unicodedata.normalize("NFD", base)) > 1 else 8


#: the packages the LaTeX fragment needs (array: column specifiers; booktabs: rules; xtab: the table
#: that breaks across columns and pages)
LATEX_PACKAGES = ("array", "booktabs", "xtab")
#: the LaTeX table's columns (headers); the claim's width is what the others leave of \linewidth
_LATEX_HEADERS = ("Claim", "Verdict", "Arith.")
#: a ragged-right paragraph cell that may hyphenate its first word (array's >{} before p{})
_RAGGED = r">{\raggedright\arraybackslash\hspace{0pt}}"
#: the claim's cell: ragged right, its second and later lines indented (a wrapped claim reads as one)
_HANGING = r">{\raggedright\arraybackslash\hangindent=1em\hangafter=1\hspace{0pt}}"
_WIDE = rf"\multicolumn{{{len(_LATEX_HEADERS)}}}{{@{{}}{_RAGGED}p{{\linewidth}}@{{}}}}"


def _finding(row: Row) -> str:
    """The finding without its "refuted" (the verdict says it): ``erratum``, or the reading refuted
    (``our reading``, ``proxy``, ``as printed, outside the assumptions``), as LaTeX."""
    text = row.finding.replace(" refuted outside the assumptions", ", outside the assumptions")
    text = text[: -len(" refuted")] if text.endswith(" refuted") else text
    return r"\textbf{erratum}" if text == "erratum" else latex_escape(text)


#: a claim longer than this many characters is cut at a word, with an ellipsis, in the LaTeX table (xtab
#: reserves one row of the previous row's height when it decides to break a column: a row of many more
#: lines would overrun it); the other formats keep every claim whole
MAX_CLAIM = 120


def _clip(text: str) -> str:
    """``text`` cut to about :data:`MAX_CLAIM` characters as written (:func:`_width`) at a space (or
    anywhere), then an ellipsis."""
    clusters = [m.group(0) for m in _CLUSTER.finditer(unicodedata.normalize("NFC", text))]
    total = 0
    for i, c in enumerate(clusters):
        total += _width(c)
        if total > MAX_CLAIM:
            cut = "".join(clusters[:i])
            space = cut.rfind(" ")
            return (cut[:space] if space > len(cut) // 2 else cut).rstrip() + " \u2026"
    return text


def _latex_cells(row: Row) -> list[str]:
    """Claim (cut at :data:`MAX_CLAIM`; ``(control)`` after a control's), verdict (and finding),
    arithmetic."""
    claim = _breakable(_clip(row.claim)) + (r" \emph{(control)}" if row.role == "control" else "")
    verdict = latex_escape(row.verdict) + (f": {_finding(row)}" if row.finding else "")
    return [claim, verdict, latex_escape(row.precision)]


def _measure(macro: str, texts: Sequence[str]) -> str:
    """TeX that sets ``\\<macro>`` to the width of the widest of ``texts`` (LaTeX, each set on one line)."""
    cells = r"\\".join(dict.fromkeys(texts))
    return (rf"\setbox0=\hbox{{\begin{{tabular}}{{@{{}}l@{{}}}}{cells}\end{{tabular}}}}"
            rf"\edef\{macro}{{\the\wd0}}")


def _prov_sentence(prov: Provenance, rows: Sequence[Row], short: bool) -> str:
    """``proofkit V (commit C), seed S, working precision N decimal digits (mpmath dps)`` (every distinct
    seed and precision of the rows)."""
    seeds = ", ".join(str(s) for s in sorted({r.seed for r in rows})) or "none"
    digits = ", ".join(str(d) for d in sorted({r.dps for r in rows})) or "none"
    return (f"proofkit {prov.version} ({prov.commit_text(short)}), seed {seeds}, working precision {digits} "
            "decimal digits (mpmath dps)")


_LEGEND = ("One row per claim, grouped by paper and theorem. Verdict: certified, proven over the stated "
           "domain; confirmed, holds wherever checked, not a proof; refuted, a counterexample; inconclusive, "
           "undecided. After refuted: erratum, false as the paper prints it; otherwise the reading of "
           "proofkit's that is refuted (not an erratum). Arith.: the arithmetic of the evidence (exact; "
           "ball, interval bounds; float64; dps N, sampled at N digits). A control is a deliberately false "
           "statement that must be refuted to show the check bites. Scope, errata, notes and record files: "
           "the Markdown, CSV and JSON forms of this report.")
_CITE_KEY = re.compile(r"[A-Za-z0-9:._+/-]+")


def _paper_heading(paper: str, bibkey: str) -> str:
    """The paper, then ``\\proofkitcite{KEY}{KEY as text}`` (a key \\cite cannot take: as text only)."""
    text = _breakable(paper)
    if bibkey and _CITE_KEY.fullmatch(bibkey):
        return text + rf" \proofkitcite{{{bibkey}}}{{{_breakable(bibkey)}}}"
    return text + (f" [{_breakable(bibkey)}]" if bibkey else "")


def _groups(rows: Sequence[Row]) -> list[tuple[tuple[str, str], list[list[Row]]]]:
    """Rows by (paper, BibTeX key) in order of first appearance, and within a paper by theorem."""
    papers: dict[tuple[str, str], dict[str, list[Row]]] = {}
    for row in rows:
        papers.setdefault((row.paper, row.bibkey), {}).setdefault(row.theorem, []).append(row)
    return [(key, list(theorems.values())) for key, theorems in papers.items()]


#: the tail of a column the table continues after: the rule, then blank space (at the foot of the column)
#: that xtab counts as the tail's height. xtab breaks a column when what is left is less than the tail and
#: the previous row; this space lets the next row be up to three lines taller than the previous one.
#: (``\\pkTailW``: three lines, fixed before the table: xtab measures the tail where \\baselineskip is 0)
_TAIL = r"\tabletail{\bottomrule\noalign{\vskip\pkTailW}}"


#: ``\\pkKeep``, after a theorem's heading row (ended by \\cr, where xtab does not look at the column's
#: end): count the heading's height as xtab counts a row's (its tallest cell and 1 pt), so that the heading
#: and its first claim row are kept together in one column and the column's account stays exact
_KEEP = (r"\makeatletter",
         r"\def\pkKeep{\noalign{\global\advance\ST@pageleft-\ST@pboxht\global\advance\ST@pageleft-1pt"
         r"\global\ST@pboxht\z@}}",
         r"\makeatother")


#: before a paper's table: end the column unless 18 lines are left (the head, the first theorem's heading,
#: a first row of up to five lines and the tail: xtab itself asks only for the head, one line and the
#: tail, and a taller first row then overruns the column); the test of the needspace package, inline
_NEED = (r"\penalty-100\begingroup\dimen0=\pagegoal\advance\dimen0-\pagetotal"
         r"\ifdim\dimen0<18\baselineskip\ifdim\dimen0>0pt\vfil\fi\penalty-10000\fi\endgroup")


def _latex_table(heading: str, theorems: Sequence[Sequence[Row]], spec: str) -> list[str]:
    """One paper's xtabular: heads with the paper (and "continued"), a heading row per theorem."""
    # the heads' rows end with \cr: a \\ there would let xtab end the column inside a head
    titles = " & ".join(rf"\textbf{{{latex_escape(t)}}}" for t in _LATEX_HEADERS) + r" \cr"
    lines = [r"\par\addvspace{\medskipamount}", _NEED,
             rf"\tablefirsthead{{\toprule {_WIDE}{{\bfseries {heading}}} \cr \midrule {titles} \midrule}}",
             rf"\tablehead{{\toprule {_WIDE}{{\bfseries {heading} (continued)}} \cr \midrule {titles}"
             r" \midrule}",
             _TAIL, r"\tablelasttail{\bottomrule}", rf"\begin{{xtabular}}{{{spec}}}"]
    body: list[str] = []
    for group in theorems:
        first = group[0]
        where = f" {_breakable(first.section)}" if first.section else ""
        if body:  # space above the theorem's heading, as ``\\[len]``: space xtab counts
            body[-1] = body[-1][: -len(r"\\")] + r"\\[3pt]"
        body.append(rf"{_WIDE}{{\textbf{{{_breakable(first.theorem)}}}{where}}} \cr\pkKeep")
        body += [" & ".join(_latex_cells(row)) + r" \\" for row in group]
    # the last row ends with \cr, not \\: xtab decides at every \\ whether to end the column, and ending
    # it after the last row would open the next column with a head and no row
    body[-1] = body[-1][: -len(r"\\")] + r"\cr"
    return lines + body + [r"\end{xtabular}"]


def to_latex(rows: Sequence[Row], prov: Provenance) -> str:
    """The LaTeX fragment (module docstring): comment block, lead paragraph, one xtabular per paper.

    ``\\xentrystretch{0}``: xtab adds 1 pt to its estimate of every row's height, on top of this factor
    (default 0.1), so 0 never underestimates a row (a column would overflow) and wastes less of a
    column than the default."""
    packages = ",".join(LATEX_PACKAGES)
    cells = [_latex_cells(r) for r in rows]
    lines = [r"% proofkit report: the verdict table, one row per claim, grouped by paper and theorem",
             f"% written by {_prov_sentence(prov, rows, short=False)}",
             rf"% needs \usepackage{{{packages}}}; \input it where the table starts, in one column of a",
             r"% two-column paper (or in one-column text: it is \linewidth wide); it breaks across columns.",
             r"% \proofkitcite{KEY}{TEXT} prints a paper's BibTeX key; to cite the papers instead, put",
             r"% \newcommand{\proofkitcite}[2]{\cite{#1}} before the \input.",
             r"% Scope, errata, notes and record files: the Markdown, CSV and JSON forms of this report.",
             r"\providecommand{\proofkitcite}[2]{[\texttt{#2}]}",
             r"\par\begingroup\footnotesize\raggedright\noindent",
             rf"\textbf{{Verdict table.}} Checked by {latex_escape(_prov_sentence(prov, rows, True))}. "
             rf"{latex_escape(_LEGEND)}\par",
             r"\scriptsize\setlength{\tabcolsep}{3pt}\xentrystretch{0}",
             _measure("pkVerdictW", [r"\textbf{Verdict}", "inconclusive"]
                      + [w for c in cells for w in c[1].split()]),
             _measure("pkArithW", [r"\textbf{Arith.}"] + [c[2] for c in cells]),
             r"\edef\pkClaimW{\the\dimexpr\linewidth-4\tabcolsep-\pkVerdictW-\pkArithW\relax}",
             r"\edef\pkTailW{\the\dimexpr3\baselineskip\relax}",
             *_KEEP]
    spec = rf"@{{}}{_HANGING}p{{\pkClaimW}}{_RAGGED}p{{\pkVerdictW}}{_RAGGED}p{{\pkArithW}}@{{}}"
    for (paper, bibkey), theorems in _groups(rows):
        lines += _latex_table(_paper_heading(paper, bibkey), theorems, spec)
    lines.append(r"\par\endgroup")
    return "\n".join(lines) + "\n"


def to_latex_document(rows: Sequence[Row], prov: Provenance) -> str:
    """A complete two-column document holding :func:`to_latex`'s fragment (``report --standalone``)."""
    return ("\\documentclass[twocolumn]{article}\n"
            f"\\usepackage{{{','.join(LATEX_PACKAGES)}}}\n"
            "\\begin{document}\n" + to_latex(rows, prov) + "\\end{document}\n")


_MD_SPECIAL = re.compile(r"([\\`*_|\[\]<>])")


def markdown_escape(text: str) -> str:
    """A Markdown table cell: one line, with ``\\ ` * _ | [ ] < >`` escaped."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(text.split()))


def _md_link(r: RecordLink) -> str:
    target = f"<{r.path}>" if re.search(r"[\s()<>]", r.path) else r.path
    return f"[{markdown_escape(r.label())}]({target})"


def to_markdown(rows: Sequence[Row], prov: Provenance) -> str:
    """A paragraph naming the software, seed and precision, then a pipe table, records as links."""
    lines = [markdown_escape(f"Verdict table written by {_prov_sentence(prov, rows, False)}; "
                             "one row per claim. Record links are relative to the folder the table was "
                             "written to (the current folder when it was printed)."), "",
             "| " + " | ".join(title for _, title in COLUMNS) + " |",
             "|" + "---|" * len(COLUMNS)]
    for row in rows:
        cells = [", ".join(_md_link(r) for r in row.records) if name == "records"
                 else markdown_escape(row.cell(name)) for name, _ in COLUMNS]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def to_csv(rows: Sequence[Row], prov: Provenance) -> str:
    """A header line and one line per row (records: paths, ``; ``-separated), the columns then
    :data:`EXTRA` (``dirty``: yes, no or unknown)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow([title for _, title in COLUMNS] + list(EXTRA))
    dirty = {True: "yes", False: "no", None: "unknown"}[prov.dirty]
    for row in rows:
        writer.writerow([row.cell(name) for name, _ in COLUMNS]
                        + [row.bibkey, row.seed, row.dps, prov.version, prov.commit, dirty])
    return buf.getvalue()


def to_json(rows: Sequence[Row], prov: Provenance) -> str:
    """A JSON list of row objects (:meth:`Row.as_dict` with the provenance)."""
    return json.dumps([r.as_dict(prov) for r in rows], indent=1, ensure_ascii=False) + "\n"


#: format name -> (writer, file extension)
FORMATS: dict[str, tuple[Callable[[Sequence[Row], Provenance], str], str]] = {
    "md": (to_markdown, "md"), "latex": (to_latex, "tex"), "csv": (to_csv, "csv"), "json": (to_json, "json"),
}
