"""``proofkit cite ID``: what to cite for a checked theorem. The paper's BibTeX entry (from the .bib
beside the theorem files), proofkit's own citation as a BibTeX ``@software`` entry (the fields of the
top-level ``CITATION.cff``, this version and the git commit when run from a checkout), and the SHA-256 of
the theorem's evidence bundle at its defaults, which names exactly the evidence the citation refers to.

The CITATION.cff fields are kept here as well, so an installed package (which has no CITATION.cff)
cites itself the same way; tests/publish/test_publish_cite.py keeps the two equal.
"""

from __future__ import annotations

from typing import Any

from .. import __version__
from ..language.spec import Theorem
from ..language.tolerances import MIN_DPS
from ..render import reproduce
from . import bib, env

#: the fields of CITATION.cff that the @software entry uses (kept equal to the file by a test)
SOFTWARE = {"title": "proofkit", "author": "proofkit developers", "license": "MIT",
            "date-released": "2026-11-24"}


def software_bibtex() -> str:
    """proofkit's @software entry: title, the authors as one entity, version, year, license, commit."""
    commit = env.git()["commit"]
    note = commit if commit == env.UNKNOWN_COMMIT else f"git commit {commit}" + \
        (" (with uncommitted changes)" if env.git()["dirty"] else "")
    fields = [("title", SOFTWARE["title"]), ("author", "{" + SOFTWARE["author"] + "}"),
              ("version", __version__), ("year", SOFTWARE["date-released"][:4]),
              ("license", SOFTWARE["license"]), ("note", note)]
    width = max(len(k) for k, _ in fields)
    body = ",\n".join(f"  {k.ljust(width)} = {{{v}}}" for k, v in fields)
    return f"@software{{proofkit,\n{body}\n}}"


def citation(thm: Theorem, bundle_sha256: str | None) -> dict[str, Any]:
    """The three parts of a citation, JSON-ready (``bundle_sha256`` None: not computed)."""
    entry = bib.entry(thm.paper.bibkey) if thm.paper.bibkey else None
    why = ("" if entry is not None else "the theorem names no BibTeX key" if not thm.paper.bibkey else
           f"no .bib beside the theorem files has the key {thm.paper.bibkey}")
    return {
        "id": thm.id, "title": thm.title, "paper": str(thm.paper), "bibkey": thm.paper.bibkey,
        "paper_bibtex": None if entry is None else entry.text, "paper_bibtex_missing": why,
        "bib_file": None if entry is None else str(entry.path),
        "software_bibtex": software_bibtex(),
        "proofkit": {"version": __version__, **env.git()},
        "bundle_sha256": bundle_sha256,
        "bundle": reproduce.line("bundle", thm.id, extra=["--out", f"{thm.id}.bundle.json"]),
    }


def text(c: dict[str, Any]) -> str:
    """The citation as a reader copies it: comments, then BibTeX."""
    out = [f"% {c['id']}: {c['title']}", f"% paper: {c['paper']}"]
    out.append(c["paper_bibtex"] if c["paper_bibtex"] else f"% no BibTeX entry: {c['paper_bibtex_missing']}")
    out += ["", f"% proofkit {c['proofkit']['version']}, {c['proofkit']['commit']}", c["software_bibtex"], ""]
    if c["bundle_sha256"] is None:
        out.append("% evidence bundle: not computed (--no-bundle)")
    else:
        out.append(f"% evidence bundle of {c['id']} at its defaults (seed 0, dps {MIN_DPS}): sha256 "
                   f"{c['bundle_sha256']}")
    out.append(f"% write it: {c['bundle']}")
    return "\n".join(out)
