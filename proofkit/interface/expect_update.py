"""Rewrite a theorem file's ``expect={...}`` to the verdicts a run computed (the pytest plugin's
``--proofkit-update``), surgically: the ``Theorem(...)`` call of the id (written as a literal) is found
with :mod:`ast`, then its ``expect=`` dict literal, and only the changed values are replaced (the
``CERTIFIED`` of ``Verdict.CERTIFIED``, or an alias name such as ``C`` where the module binds
``C = Verdict.CERTIFIED``), entries for claims the dict lacks are added after its last entry, and
entries naming no claim of the theorem any more are removed. Everything else in the file (comments,
formatting, other code) is left byte for byte. A key is read from the text (a string literal, or a name
bound once to one) or, where the text cannot say (an f-string), from the run's expect keys when the dict
has as many entries; entries behind ``**`` unpacking are left alone.

A file that cannot be rewritten safely raises :class:`Unsafe` with the reason, and nothing is written:
``expect`` built by code (a name, a comprehension), an entry to change whose value is code or whose key
is hidden, no or several ``Theorem(...)`` calls with that id, a file in an installed location
(site-packages), a file that is not UTF-8. The result is re-parsed and its entries compared with the
intended ones before anything is written; the write is atomic (:func:`proofkit.storage.atomic.
write_file`). Errored claims (no verdict) are never written as expectations: their entries stay as they
are. Paper-agnostic: it knows theorem files only through ``Theorem(id=..., expect=...)``.
"""

from __future__ import annotations

import ast
import difflib
import json
import site
import sysconfig
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..language.verdict import Verdict
from ..storage.atomic import write_file

_NAMES = {v.name for v in Verdict}


#: an inline dict grows on its line up to this many characters, then one added entry a line
INLINE_WIDTH = 110


class Unsafe(Exception):
    """The file cannot be rewritten safely; the message says why (one line)."""


@dataclass
class Wanted:
    """What one theorem's run says its expect should be: ``verdicts`` maps each claim with a verdict
    (errored claims left out) to it; ``claims`` names every claim of the theorem (other expect entries
    are stale); ``current`` the expectation each claim had in the run."""

    theorem_id: str
    verdicts: Mapping[str, Verdict]
    claims: Sequence[str] = field(default_factory=tuple)
    #: the expectation each claim had in the run (None: none), for entries written as code
    current: Mapping[str, Verdict | None] = field(default_factory=dict)
    #: the keys of the theorem's expect in the run, in order (they name entries whose key is code)
    expect_keys: Sequence[str] = field(default_factory=tuple)


def installed_location(path: Path) -> bool:
    """The file lies in an installed location (site-packages, dist-packages): never rewritten there."""
    if any(part in ("site-packages", "dist-packages") for part in path.parts):
        return True
    roots = {sysconfig.get_paths().get(k) for k in ("purelib", "platlib")}
    try:
        roots.update(site.getsitepackages())
        roots.add(site.getusersitepackages())
    except AttributeError:  # a virtualenv's old site module
        pass
    resolved = path.resolve()
    return any(r and resolved.is_relative_to(Path(r).resolve()) for r in roots)


def _offsets(source: bytes) -> list[int]:
    """The byte offset where each line starts (index 0 is line 1)."""
    starts, pos = [], 0
    for line in source.splitlines(keepends=True):
        starts.append(pos)
        pos += len(line)
    starts.append(pos)
    return starts


def _theorem_call(tree: ast.Module, theorem_id: str) -> ast.Call:
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        if not name.endswith("Theorem"):
            continue
        ids = [k.value for k in node.keywords if k.arg == "id"] + node.args[:1]
        if ids and isinstance(ids[0], ast.Constant) and ids[0].value == theorem_id:
            found.append(node)
    if len(found) != 1:
        raise Unsafe(f"{'no' if not found else len(found)} Theorem(id={theorem_id!r}, ...) call(s) with the "
                     f"id written as a literal (a theorem made by code is not rewritten)")
    return found[0]


def _expect_dict(call: ast.Call, theorem_id: str) -> ast.Dict:
    kws = [k for k in call.keywords if k.arg == "expect"]
    if not kws:
        raise Unsafe(f"Theorem {theorem_id} has no expect= (add expect={{}} for the update to fill)")
    value = kws[0].value
    if not isinstance(value, ast.Dict):
        raise Unsafe(f"the expect of {theorem_id} is built by code ({type(value).__name__}), not a dict "
                     f"literal")
    return value


def _module_names(tree: ast.Module) -> dict[str, ast.expr]:
    """Module-level names bound exactly once, by ``NAME = expr`` or ``A, B = x, y``, to their expression
    (a name bound any other way, or twice, is left out: its value is not known from the text)."""
    bound: dict[str, list[ast.expr | None]] = {}
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.setdefault(node.name, []).append(None)
            continue
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
            if isinstance(target, ast.Name):
                bound.setdefault(target.id, []).append(value)
                continue
            if (isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List))
                    and len(target.elts) == len(value.elts)
                    and all(isinstance(t, ast.Name) for t in target.elts)):
                for t, v in zip(target.elts, value.elts):
                    bound.setdefault(t.id, []).append(v)  # type: ignore[attr-defined]
                continue
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            bound.setdefault(node.target.id, []).append(node.value)
            continue
        for sub in ast.walk(node):  # any other binding makes the name unknown
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                bound.setdefault(sub.id, []).append(None)
            elif isinstance(sub, ast.alias):
                bound.setdefault((sub.asname or sub.name).split(".")[0], []).append(None)
        todo.extend(n for n in ast.iter_child_nodes(node) if isinstance(n, ast.stmt))
    return {k: v[0] for k, v in bound.items() if len(v) == 1 and v[0] is not None}


def _key_of(node: ast.expr | None, names: Mapping[str, ast.expr]) -> str | None:
    """The key a dict entry's key expression names, when the text says: a string literal or a name
    bound once to one; None otherwise (an f-string, a call, ``**`` unpacking)."""
    if isinstance(node, ast.Name):
        node = names.get(node.id)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _aliases(names: Mapping[str, ast.expr]) -> dict[str, str]:
    """Module names bound to a verdict (``C = Verdict.CERTIFIED``): name -> verdict name."""
    return {k: v.attr for k, v in names.items() if isinstance(v, ast.Attribute) and v.attr in _NAMES}


def _verdict_of(node: ast.expr, aliases: Mapping[str, str]) -> str | None:
    """``VERDICT`` of a value written ``<name>.VERDICT`` or as a name bound to one, else None."""
    if isinstance(node, ast.Attribute) and node.attr in _NAMES:
        return node.attr
    if isinstance(node, ast.Name):
        return aliases.get(node.id)
    return None


def _keys(d: ast.Dict, names: Mapping[str, ast.expr], wanted: Wanted) -> list[str | None]:
    """The key of each entry: from the text, else, when the dict has no ``**`` and as many entries as
    the theorem's expect had in the run (in the same order, agreeing where the text says), from there."""
    keys = [_key_of(k, names) for k in d.keys]
    run = list(wanted.expect_keys)
    if None not in d.keys and len(run) == len(keys) and all(k in (None, r) for k, r in zip(keys, run)):
        keys = run
    known = [k for k in keys if k is not None]
    dup = sorted({k for k in known if known.count(k) > 1})
    if dup:
        raise Unsafe(f"the expect of {wanted.theorem_id} names {dup[0]!r} twice")
    return keys


def _prefix(src: bytes, at: list[int], d: ast.Dict, tree: ast.Module) -> str:
    """How this file writes the Verdict enum: as its expect's entries do, else the imported name."""
    for v in d.values:
        if isinstance(v, ast.Attribute) and v.attr in _NAMES:
            return _segment(src, at, v.value).decode()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name == "Verdict":
                    return alias.asname or alias.name
    raise Unsafe("the file imports no Verdict to write new entries with (from proofkit import Verdict)")


def _spelling(verdict: Verdict, prefix: str, aliases: Mapping[str, str], d: ast.Dict) -> str:
    """A verdict as this dict writes them: by its alias when the dict's values are aliases, else
    ``prefix.NAME``."""
    if any(isinstance(v, ast.Name) and v.id in aliases for v in d.values):
        for name, what in sorted(aliases.items()):
            if what == verdict.name:
                return name
    return f"{prefix}.{verdict.name}"


def _pos(at: list[int], line: int, col: int) -> int:
    return at[line - 1] + col


def _segment(src: bytes, at: list[int], node: ast.AST) -> bytes:
    return src[_pos(at, node.lineno, node.col_offset):_pos(at, node.end_lineno, node.end_col_offset)]


def _start(src: bytes, at: list[int], d: ast.Dict, i: int) -> int:
    """Where entry ``i`` of the dict starts: its key, or the ``**`` before an unpacked value."""
    key = d.keys[i]
    if key is not None:
        return _pos(at, key.lineno, key.col_offset)
    pos = _pos(at, d.values[i].lineno, d.values[i].col_offset)
    back = pos
    while back > 0 and src[back - 1:back] in (b" ", b"\t", b"\n", b"\r", b"("):
        back -= 1
    return back - 2 if src[back - 2:back] == b"**" else pos


def _entry_end(src: bytes, at: list[int], d: ast.Dict, i: int) -> int:
    """Where entry ``i`` of the dict ends: past its value and the parentheses closing around it (the
    value node ends inside them), before any comma or comment."""
    value = d.values[i]
    pos = last = _pos(at, value.end_lineno, value.end_col_offset)
    limit = (_start(src, at, d, i + 1) if i + 1 < len(d.keys)
             else _pos(at, d.end_lineno, d.end_col_offset) - 1)
    while pos < limit:
        ch = src[pos:pos + 1]
        if ch == b"#":
            nl = src.find(b"\n", pos)
            pos = limit if nl < 0 else nl
        elif ch == b")":
            last = pos = pos + 1
        elif ch.isspace() or ch == b"\\":
            pos += 1
        else:
            break
    return last


def _line_end(src: bytes, pos: int) -> int:
    """The offset just past the newline of the line holding ``pos``."""
    nl = src.find(b"\n", pos)
    return len(src) if nl < 0 else nl + 1


def _only_trailer(text: bytes) -> bool:
    """``text`` (after an entry, to the end of its line) is an optional comma and an optional comment."""
    rest = text.strip()
    if rest.startswith(b","):
        rest = rest[1:].lstrip()
    return not rest or rest.startswith(b"#")


def _has_comma(text: bytes) -> bool:
    """A comma in ``text`` outside comments (the text between an entry and the closing brace)."""
    for line in text.split(b"\n"):
        if b"," in line.split(b"#", 1)[0]:
            return True
    return False


def _quote(name: str, style: bytes) -> str:
    return repr(name) if style == b"'" else json.dumps(name, ensure_ascii=False)


def rewrite(text: str, wanted: Wanted) -> str:
    """``text`` (a theorem file) with the expect of ``wanted.theorem_id`` brought to ``wanted``; Unsafe
    when that cannot be done safely. The same text when nothing changes."""
    src = text.encode("utf-8")
    try:
        tree = ast.parse(src)
    except SyntaxError as exc:
        raise Unsafe(f"the file does not parse ({exc.msg}, line {exc.lineno})") from None
    at = _offsets(src)
    tid = wanted.theorem_id
    d = _expect_dict(_theorem_call(tree, tid), tid)
    names = _module_names(tree)
    aliases = _aliases(names)
    keys = _keys(d, names, wanted)
    opaque = None in keys
    claims = set(wanted.claims) | set(wanted.verdicts)
    edits: list[tuple[int, int, bytes]] = []
    spell = lambda v: _spelling(v, _prefix(src, at, d, tree), aliases, d)  # noqa: E731
    for key, value in zip(keys, d.values):
        want = wanted.verdicts.get(key) if key is not None else None
        if want is None:
            continue
        have = _verdict_of(value, aliases)
        if have is None and wanted.current.get(key) == want:
            continue  # written as code, already right: left as it is
        if have is None:
            raise Unsafe(f"the expect entry {key!r} of {tid} is code ({ast.unparse(value)[:60]}), not "
                         f"Verdict.<NAME>")
        if have == want.name:
            continue
        end = _pos(at, value.end_lineno, value.end_col_offset)
        if isinstance(value, ast.Attribute):
            edits.append((end - len(value.attr), end, want.name.encode()))
        else:
            edits.append((_pos(at, value.lineno, value.col_offset), end, spell(want).encode()))
    stale = [i for i, key in enumerate(keys) if key is not None and key not in claims]
    for i in stale:
        edits.append(_removal(src, at, d, i))
    new = []
    for name, want in wanted.verdicts.items():
        if name in keys:
            continue
        if opaque and wanted.current.get(name) is not None:  # in the dict, under a key the text hides
            if wanted.current[name] != want:
                raise Unsafe(f"the expect entry of {name!r} ({tid}) is not written with a literal key "
                             f"(an f-string or ** unpacking)")
            continue
        new.append(name)
    if new:
        first = next((k for k in d.keys if isinstance(k, ast.Constant)), None)
        style = _segment(src, at, first)[:1] if first is not None else b'"'
        entries = [f"{_quote(n, style)}: {spell(wanted.verdicts[n])}" for n in new]
        kept = [i for i in range(len(keys)) if i not in stale]
        edits += _additions(src, at, d, kept, entries)
    out = src
    for start, end, repl in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        out = out[:start] + repl + out[end:]
    result = out.decode("utf-8")
    _verify(src, d, result, wanted, keys, stale, new)
    return result


def _removal(src: bytes, at: list[int], d: ast.Dict, i: int) -> tuple[int, int, bytes]:
    """The edit that removes entry ``i``: its whole line(s) when it has them to itself, else the entry
    and one comma beside it."""
    start = _start(src, at, d, i)
    end = _entry_end(src, at, d, i)
    line_start = src.rfind(b"\n", 0, start) + 1
    line_end = _line_end(src, end)
    if not src[line_start:start].strip() and _only_trailer(src[end:line_end]):
        return line_start, line_end, b""
    if i + 1 < len(d.keys):
        return start, _start(src, at, d, i + 1), b""
    if i > 0:
        return _entry_end(src, at, d, i - 1), end, b""
    after = src[end:_pos(at, d.end_lineno, d.end_col_offset) - 1]
    comma = after.find(b",")
    return start, end + (comma + 1 if comma >= 0 and not after[:comma].strip() else 0), b""


def _additions(src: bytes, at: list[int], d: ast.Dict, kept: list[int],
               entries: list[str]) -> list[tuple[int, int, bytes]]:
    """The edits that add ``entries`` after the last kept entry: one line each when the dict closes on a
    line of its own (the indentation of its first entry), else inline."""
    close = _pos(at, d.end_lineno, d.end_col_offset) - 1  # the "}"
    open_ = _pos(at, d.lineno, d.col_offset) + 1  # just past the "{"
    close_line = at[d.end_lineno - 1]
    own_line = d.end_lineno > d.lineno and not src[close_line:close].strip()
    indent_of_dict = src[at[d.lineno - 1]:].split(b"\n", 1)[0]
    base = indent_of_dict[:len(indent_of_dict) - len(indent_of_dict.lstrip())]
    if not d.keys:
        inner = src[open_:close]
        ind = (base + b"    ").decode()
        block = "".join(f"\n{ind}{e}," for e in entries).encode()
        if not inner.strip():
            return [(open_, close, block + b"\n" + base)]
        return [(open_, open_, block)]
    if own_line:
        first = _start(src, at, d, kept[0] if kept else 0)
        line = src[src.rfind(b"\n", 0, first) + 1:first]
        ind = line if not line.strip() else base + b"    "
        edits = [(close_line, close_line, b"".join(ind + e.encode() + b",\n" for e in entries))]
        last = len(d.keys) - 1
        if kept and kept[-1] == last:
            end = _entry_end(src, at, d, last)
            if not _has_comma(src[end:close]):
                edits.append((end, end, b","))
        return edits
    if not kept:
        return [(open_, open_, (", ".join(entries) + ", ").encode())]
    end = _entry_end(src, at, d, kept[-1])
    line = src[src.rfind(b"\n", 0, end) + 1:_line_end(src, end)]
    if len(line) + sum(len(e) + 2 for e in entries) <= INLINE_WIDTH:
        return [(end, end, "".join(f", {e}" for e in entries).encode())]
    # too long for the dict's one line: each new entry on a line of its own, under the first entry
    col = " " * (d.col_offset + 1)
    return [(end, end, "".join(f",\n{col}{e}" for e in entries).encode())]


def _entries(src: bytes, d: ast.Dict, aliases: Mapping[str, str]) -> list[tuple[bytes, str | None]]:
    """(key text, verdict name or None) of each entry (``**`` and the value's text for unpacking)."""
    at = _offsets(src)
    return [(_segment(src, at, k) if k is not None else b"**" + _segment(src, at, v),
             _verdict_of(v, aliases) if k is not None else None) for k, v in zip(d.keys, d.values)]


def _verify(src: bytes, d: ast.Dict, text: str, wanted: Wanted, keys: list[str | None], stale: list[int],
            new: list[str]) -> None:
    """The rewritten text parses and its expect holds exactly the intended entries: the old ones but
    the stale, in their order, with the wanted verdicts, then the new ones."""
    try:
        tree = ast.parse(text)
        got_d = _expect_dict(_theorem_call(tree, wanted.theorem_id), wanted.theorem_id)
    except (SyntaxError, Unsafe) as exc:
        raise Unsafe(f"the rewrite would not parse back ({exc}); nothing written") from None
    aliases = _aliases(_module_names(tree))
    got = _entries(text.encode("utf-8"), got_d, aliases)
    old = _entries(src, d, aliases)
    want: list[tuple[bytes, str | None]] = []
    for i, (seg, have) in enumerate(old):
        if i in stale:
            continue
        key = keys[i]
        verdict = wanted.verdicts.get(key) if key is not None and have is not None else None
        want.append((seg, verdict.name if verdict is not None else have))
    want += [(b"", wanted.verdicts[n].name) for n in new]
    ok = len(got) == len(want) and all(
        g[1] == w[1] and (g[0] == w[0] or (not w[0] and _key_of(k, {}) == n))
        for g, w, k, n in zip(got, want, got_d.keys, [None] * (len(want) - len(new)) + new))
    if not ok:
        raise Unsafe("the rewrite did not give the intended expect (an unusual layout); nothing written")


def plan(path: Path, theorems: Sequence[Wanted]) -> tuple[str, str]:
    """(the file's text, the text with every theorem's expect rewritten); Unsafe naming why not."""
    if installed_location(path):
        raise Unsafe("an installed file (site-packages); change the package's source instead")
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise Unsafe("not UTF-8 text") from None
    except OSError as exc:
        raise Unsafe(f"cannot read it ({exc.strerror or type(exc).__name__})") from None
    new = text
    for wanted in theorems:
        new = rewrite(new, wanted)
    return text, new


def diff(path: Path, old: str, new: str) -> list[str]:
    """The unified diff of one file's rewrite (lines without newlines); ``a/``, ``b/`` name a path under
    the working directory relative to it, as ``git diff`` (``patch -p1`` applies it)."""
    try:
        rel = path.resolve().relative_to(Path.cwd().resolve()).as_posix()
        before, after = f"a/{rel}", f"b/{rel}"
    except ValueError:
        before = after = str(path)
    return [line.rstrip("\n") for line in difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), before, after)]


def save(path: Path, new: str) -> None:
    """Replace the file atomically (a WriteError, one line, when it cannot be)."""
    write_file(path, new.encode("utf-8"), "--proofkit-update")


def wanted_from(data: Mapping[str, object]) -> tuple[Wanted, list[str]]:
    """The Wanted of one theorem test's data (the plugin's report payload: id, file, claims as [name,
    verdict name, errored, expected name or None], the expect's keys in order) and the names of its
    errored claims."""
    claims = list(data["claims"])  # type: ignore[call-overload]
    verdicts = {name: Verdict[v] for name, v, err, _ in claims if not err}
    current = {name: None if exp is None else Verdict[exp] for name, _, _, exp in claims}
    errored = [name for name, _, err, _ in claims if err]
    keys = [str(k) for k in data.get("expect", ())]  # type: ignore[attr-defined]
    return Wanted(str(data["id"]), verdicts, [c[0] for c in claims], current, keys), errored

