"""The BibTeX entries of the papers the theorems cite: ``<paper>.bib`` files beside the theorem files, one
entry per key over the whole theorem set, found through each theorem's ``PaperRef.bibkey``.

The parser reads the subset those files use, by hand: no BibTeX parser is among proofkit's dependencies,
and the subset is small (``@type{key, name = {value} | "value" | word, ...}`` with balanced braces;
``@comment``, ``@string`` and ``@preamble`` blocks and text between entries are skipped, as BibTeX skips
them). Files are read through the bounded reader of :mod:`proofkit.storage.safejson`; nothing in them is
evaluated. An entry keeps its text exactly as written, which is what ``proofkit cite`` prints.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..language import registry
from ..storage import safejson

#: byte cap of one .bib file (the shipped ones are under 1 kB each)
MAX_BIB_BYTES = 1 << 20
_HEAD = re.compile(r"@\s*([A-Za-z]+)\s*\{", re.ASCII)
_KEY = re.compile(r"\s*([^\s,{}()\"'=#%~\\]+)\s*,", re.ASCII)
_FIELD = re.compile(r"\s*([A-Za-z][A-Za-z0-9_.:+-]*)\s*=\s*", re.ASCII)
_WORD = re.compile(r"[A-Za-z0-9_.:+-]+", re.ASCII)
#: block types that are not entries
_SKIPPED = ("comment", "string", "preamble")


@dataclass(frozen=True)
class Entry:
    """One BibTeX entry: its type, key, fields (names lower-cased, values as written without their outer
    braces or quotes), the entry's text as written, and the file it came from."""

    type: str
    key: str
    fields: dict[str, str]
    text: str
    path: Path


def _closing(text: str, start: int, where: str) -> int:
    """Index just past the brace that closes the ``{`` at ``start``."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    raise InputError(where, "balanced braces", "an unclosed '{'")


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _value(body: str, pos: int, where: str) -> tuple[str, int]:
    """One field value starting at ``pos``: ``{...}``, ``"..."`` or a bare word (a number or a macro);
    returns (value, position after it)."""
    if pos < len(body) and body[pos] == "{":
        end = _closing(body, pos, where)
        return body[pos + 1:end - 1], end
    if pos < len(body) and body[pos] == '"':
        end = body.find('"', pos + 1)
        if end < 0:
            raise InputError(where, "a closing '\"'", "none")
        return body[pos + 1:end], end + 1
    word = _WORD.match(body, pos)
    if word is None:
        raise InputError(where, "a field value: {...}, \"...\" or a number", body[pos:pos + 20])
    return word.group(0), word.end()


def _fields(body: str, where: str) -> dict[str, str]:
    """``name = value, ...`` of an entry body (after its key), names lower-cased, each name once."""
    out: dict[str, str] = {}
    pos = 0
    while body[pos:].strip():
        m = _FIELD.match(body, pos)
        if m is None:
            raise InputError(where, "name = value", body[pos:pos + 30].strip())
        name = m.group(1).lower()
        if name in out:
            raise InputError(where, f"each field once (field {name!r} twice)")
        out[name], pos = _value(body, m.end(), f"{where} field {name}")
        rest = body[pos:].lstrip()
        if rest and not rest.startswith(","):
            raise InputError(where, f"',' after field {name!r}", rest[:20])
        pos = len(body) - len(rest) + (1 if rest else 0)
    return out


def parse(text: str, path: Path) -> list[Entry]:
    """The entries of a .bib text (see the module docstring for the subset read)."""
    entries = []
    pos = 0
    while (m := _HEAD.search(text, pos)) is not None:
        where = f"{path}:{_line(text, m.start())}"
        end = _closing(text, m.end() - 1, where)
        kind = m.group(1).lower()
        pos = end
        if kind in _SKIPPED:
            continue
        key = _KEY.match(text, m.end(), end - 1)
        if key is None:
            raise InputError(where, "@type{key, ...} with a key of letters, digits or :-_./",
                             text[m.start():m.start() + 40])
        entries.append(Entry(kind, key.group(1), _fields(text[key.end():end - 1], where),
                             text[m.start():end], path))
    return entries


def load(path: Path) -> list[Entry]:
    """The entries of one .bib file (bounded read, UTF-8)."""
    return parse(safejson.read_text(path, str(path), MAX_BIB_BYTES), path)


def theorem_folder(theorem_id: str) -> Path:
    """The folder of the file that defines a registered theorem, whatever discovered it."""
    return registry.where(theorem_id)[0].parent


def bib_files() -> list[Path]:
    """Every ``*.bib`` file in a folder that holds a registered theorem's file, sorted."""
    folders = {theorem_folder(tid) for tid in registry.load_all()}
    return sorted(p for f in folders for p in f.glob("*.bib") if p.is_file())


def index() -> dict[str, list[Entry]]:
    """Every entry of :func:`bib_files`, by key (a key in two places appears twice: see :func:`entry`)."""
    out: dict[str, list[Entry]] = {}
    for path in bib_files():
        for e in load(path):
            out.setdefault(e.key, []).append(e)
    return out


def entry(bibkey: str) -> Entry | None:
    """The one entry with this key, None when no .bib beside the theorem files has it; a key defined
    twice is bad input naming both places (a citation must not depend on which file is read first)."""
    found = index().get(bibkey, [])
    if len(found) > 1:
        raise InputError(f"bibkey {bibkey}", "one BibTeX entry per key",
                         " and ".join(str(e.path) for e in found))
    return found[0] if found else None
