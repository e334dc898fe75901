"""The published JSON formats: one JSON Schema (draft 2020-12) per document proofkit reads or writes, shipped
as package data in ``proofkit/schemas/<kind>.schema.json`` and enforced here (docs/formats.md).

Why: a counterexample record, a Limit Transformer's weights or a ``--json`` output is read by other programs
and by later versions of proofkit; the schema is the contract they can rely on, and its version says when it
changed. Each schema's ``$id`` is ``https://proofkit.dev/schemas/<kind>/<version>.json`` (an identifier, not
a download address), and each document carries its version: the formats proofkit stores in their own field
(``"format": "proofkit-counterexample/1"``), the ``--json`` outputs as ``"schema": "<kind>/<version>"``.

:func:`validate` raises :class:`~proofkit.errors.InputError` naming the JSON path of the first error
(``learned_params[3]``, ``layers[0].heads``), what the schema wanted and a short echo of what was there; the
CLI prints it as one line and exits 2. The schema is the structural contract only: the bounded loader's caps
(``proofkit.storage.safejson``) and each loader's semantic checks (decimal magnitudes, hashes, matrix shapes)
stay where they are. Validation is stricter than a generic validator in one respect: a JSON integer is an
integer literal, never ``60.0`` or ``true``.

``python -m proofkit.storage.formats validate KIND FILE`` validates a file yourself; ``python -m
proofkit.storage.formats kinds`` lists the formats.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ..errors import InputError, cap_text, one_of
from . import safejson

#: the prefix of every schema's ``$id``: ``<BASE><kind>/<version>.json``
BASE = "https://proofkit.dev/schemas/"
#: JSON Schema dialect of every schema file
DIALECT = "https://json-schema.org/draft/2020-12/schema"
#: the key a ``--json`` output carries its version in (``"schema": "check/2"``)
OUTPUT_KEY = "schema"
#: byte cap of a file given to ``validate`` when its kind has none of its own (outputs, sweep files)
DEFAULT_MAX_BYTES = 64 << 20


@dataclass(frozen=True)
class Format:
    """One published format: its kind (the schema file's stem), version, where the document carries the
    version (``marker``: field and value; None where the document has no such field), whether proofkit
    reads it (an input, validated on load) and the byte cap of a file of it."""

    kind: str
    version: int
    what: str
    marker: tuple[str, Any] | None
    read: bool = False
    max_bytes: int = DEFAULT_MAX_BYTES

    @property
    def tag(self) -> str:
        """``<kind>/<version>``: the tail of the schema's ``$id``, and an output's ``schema`` field."""
        return f"{self.kind}/{self.version}"

    @property
    def id(self) -> str:
        """The schema's ``$id``: ``https://proofkit.dev/schemas/<kind>/<version>.json``."""
        return f"{BASE}{self.tag}.json"

    @property
    def file(self) -> str:
        """The schema's file name in ``proofkit/schemas/``."""
        return f"{self.kind}.schema.json"


def _output(kind: str, what: str, array: bool = False, version: int = 1) -> Format:
    """A ``--json`` output: version in its ``schema`` field (an array has none: its schema's is its own)."""
    return Format(kind, version, what, None if array else (OUTPUT_KEY, f"{kind}/{version}"))


FORMATS: dict[str, Format] = {f.kind: f for f in (
    Format("record", 1, "counterexample record (falsify, scan --out, sweep)",
           ("format", "proofkit-counterexample/1"), read=True, max_bytes=1 << 20),
    Format("limit-weights", 1, "Limit Transformer weights (crasp compile --out)",
           ("format", "proofkit-limit-transformer-1"), read=True, max_bytes=8 << 20),
    Format("dfa", 1, "DFA ground truth (crasp check --against FILE)", None, read=True, max_bytes=5_000_000),
    Format("sweep-manifest", 1, "a sweep folder's sweep.json", ("format", "proofkit-sweep/1"), read=True),
    Format("sweep-point", 1, "a sweep folder's points/<key>.json", ("format", "proofkit-sweep-point/1"),
           read=True),
    Format("bench", 1, "benchmark result (bench --json, benchmarks/results/*.json)", ("schema", 1),
           read=True),
    Format("bundle", 2, "evidence bundle (bundle --out, read by verify-bundle)",
           ("format", "proofkit-bundle/2"), read=True, max_bytes=32 << 20),
    Format("sweep-spec", 1, "sweep spec (the input of sweep)", None, read=True, max_bytes=256 * 1024),
    _output("list", "list --json", array=True),
    _output("show", "show --json"),
    _output("check", "check --json (one line per theorem with --all)", version=2),
    _output("falsify", "falsify --json"),
    _output("scan", "scan --json"),
    _output("replay", "replay --json"),
    _output("report", "report --format json (the verdict table)", array=True, version=2),
    _output("report-tables", "report --tables --json (the paper tables)", array=True),
    _output("cite", "cite --json"),
    _output("verify-bundle", "verify-bundle --json", version=2),
    _output("sweep", "sweep --json (the summary)"),
    _output("crasp-info", "crasp info --json"),
    _output("crasp-eval", "crasp eval --json"),
    _output("crasp-check", "crasp check --json"),
    _output("crasp-compile", "crasp compile --json"),
    _output("crasp-rows", "crasp rows --json"),
    _output("inconclusive", "any --json command whose engine could not evaluate the theorem"),
)}


def get(kind: str) -> Format:
    """The format named ``kind``; InputError listing the kinds otherwise."""
    try:
        return FORMATS[kind]
    except (KeyError, TypeError):
        raise one_of("KIND", FORMATS, kind) from None


@functools.cache
def _schema_text(kind: str) -> str:
    return resources.files("proofkit").joinpath("schemas", get(kind).file).read_text(encoding="utf-8")


def schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of ``kind`` (a fresh copy, from the package data)."""
    return json.loads(_schema_text(kind))


@functools.cache
def _validator(kind: str) -> Any:
    """A draft 2020-12 validator of ``kind`` whose ``integer`` is an integer literal (not 60.0, not true)."""
    from jsonschema import Draft202012Validator, validators

    checker = Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _, x: isinstance(x, int) and not isinstance(x, bool))
    strict = validators.extend(Draft202012Validator, type_checker=checker,
                               validators={"uniqueItems": _unique_items})
    return strict(schema(kind))


def _unique_items(validator: Any, unique: bool, instance: Any, schema: Any) -> Any:
    """``uniqueItems`` in linear time. Why by hand: jsonschema compares items pairwise when an array mixes
    types, which is quadratic (an 8 000-state DFA took 100 s); here each item gets a hashable key that
    is equal exactly when JSON Schema calls two items equal (1 == 1.0, true != 1, objects unordered)."""
    from jsonschema.exceptions import ValidationError

    if not unique or not validator.is_type(instance, "array"):
        return
    seen: set[Any] = set()
    for i, item in enumerate(instance):
        key = _json_key(item)
        if key in seen:
            yield ValidationError(f"item {i} repeats an earlier item")
            return
        seen.add(key)


def _json_key(item: Any) -> Any:
    """A hashable key of a parsed JSON value under JSON Schema equality (depth is bounded by the
    loader's nesting cap)."""
    if isinstance(item, bool) or item is None:
        return ("c", item)
    if isinstance(item, (int, float)):
        return ("n", item)
    if isinstance(item, str):
        return ("s", item)
    if isinstance(item, list):
        return ("l", tuple(_json_key(x) for x in item))
    if isinstance(item, dict):
        return ("d", frozenset((k, _json_key(v)) for k, v in item.items()))
    return ("o", id(item))


def prepare() -> None:
    """Build every validator now. jsonschema builds its validator classes with attrs, which generates
    and compiles their methods: a process that audits code execution on its input paths (the loader
    fuzz tests) builds them before any input arrives."""
    for kind in FORMATS:
        _validator(kind)


def validate(kind: str, obj: Any, document: str | None = None, within: str | None = None) -> None:
    """Refuse ``obj`` unless it conforms to the schema of ``kind``: InputError naming the JSON path of the
    first error (the shallowest; among equals the first the schema reports), ``document`` (default: the
    kind) when the document itself is wrong. ``within``: the document's name, also put before every path
    (``bundle check.seed``, ``sweep spec grid.n``), as a loader whose own field checks name fields so
    says them."""
    errors = _validator(kind).iter_errors(obj)
    first = min(errors, key=lambda e: len(e.absolute_path), default=None)
    if first is None:
        return
    exc = _input_error(first, within or document or kind)
    if within is not None and exc.field != within:
        raise InputError(f"{within} {exc.field}", exc.expected, exc.got)
    raise exc


def stamp(kind: str, obj: Any) -> Any:
    """An output object with its version first (``{"schema": "check/2", ...}``); arrays as they are."""
    if not isinstance(obj, dict):
        return obj
    return {OUTPUT_KEY: get(kind).tag, **{k: v for k, v in obj.items() if k != OUTPUT_KEY}}


# ----------------------------------------------------------------------------------------------- messages
_JSON_TYPES = {"object": "a JSON object", "array": "a JSON array", "string": "a string",
               "integer": "an integer", "number": "a number", "boolean": "true or false", "null": "null"}


def path_name(parts: Iterable[Any], document: str) -> str:
    """A JSON path as proofkit names fields: ``witness[1][0]``, ``layers[0].heads``, ``meta.'a b'``."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + safejson.key_name(part)
    return out or document


def _input_error(error: Any, document: str) -> InputError:
    """One line: the field, what the schema wanted, what was there."""
    parts, inst, sub, value = list(error.absolute_path), error.instance, error.schema, error.validator_value
    keyword = error.validator
    field = path_name(parts, document)
    if keyword == "required":
        missing = next((k for k in value if k not in inst), value[0])
        return InputError(path_name([*parts, missing], document), f"a field of {_whose(sub)} (missing)")
    if keyword == "additionalProperties":
        extra = sorted(k for k in inst if k not in sub.get("properties", {}))
        known = ", ".join(sub.get("properties", {}))
        return InputError(path_name([*parts, extra[0]], document),
                          f"only the fields of {_whose(sub)}: {known}")
    if "propertyNames" in error.schema_path:
        return InputError(path_name([*parts, inst], document), f"keys that are {_title(sub)}", inst)
    if keyword == "type":
        return InputError(field, _title(sub) if sub.get("title") else _types(value), type(inst).__name__)
    return InputError(field, _expected(keyword, value, sub, error.message), inst)


def _whose(sub: dict[str, Any]) -> str:
    return str(sub.get("title") or "this object")


def _types(value: str | Sequence[str]) -> str:
    names = [value] if isinstance(value, str) else list(value)
    return " or ".join(_JSON_TYPES.get(n, n) for n in names)


def _title(sub: dict[str, Any]) -> str:
    return str(sub.get("title") or _types(sub.get("type", "value")))


def _expected(keyword: str, value: Any, sub: dict[str, Any], message: str) -> str:
    """What the schema keyword that failed wants, in words (the title where a pattern says it)."""
    if keyword == "const":
        return repr(value)
    if keyword == "enum":
        return "one of " + ", ".join(map(repr, value))
    if keyword in ("minimum", "maximum") and "minimum" in sub and "maximum" in sub:
        return f"{_types(sub.get('type', 'number'))} in [{sub['minimum']}, {sub['maximum']}]"
    words = {"minimum": "at least {}", "maximum": "at most {}", "exclusiveMinimum": "more than {}",
             "exclusiveMaximum": "less than {}", "minItems": "at least {} items",
             "maxItems": "at most {} items", "minLength": "at least {} characters",
             "maxLength": "at most {} characters", "minProperties": "at least {} fields",
             "maxProperties": "at most {} fields"}
    if keyword in words:
        return (f"{sub['title']}: " if sub.get("title") else "") + words[keyword].format(value)
    if keyword == "pattern":
        return str(sub.get("title") or f"a string matching {value}")
    if keyword == "uniqueItems":
        return f"distinct items ({message})"
    return cap_text(message, 200)


# ----------------------------------------------------------------------------------------------- files
def read(kind: str, path: str) -> bytes:
    """The bytes of a file (``-``: standard input) of at most the kind's byte cap; InputError (bad input)
    when it cannot be read."""
    cap = get(kind).max_bytes
    if path != "-":
        return safejson.read_bytes(path, "FILE", cap)
    data = sys.stdin.buffer.read(cap + 1)
    if len(data) > cap:
        raise InputError("FILE", f"at most {cap} bytes on standard input", f"more than {cap} bytes")
    return data


def validate_bytes(kind: str, data: bytes, lines: bool = False) -> int:
    """Parse ``data`` with the bounded loader and validate it as ``kind``: the number of documents checked
    (``lines``: one per non-empty line, as ``check --all --json`` prints them); InputError at the first
    that is not JSON or does not conform."""
    cap = get(kind).max_bytes
    if not lines:
        validate(kind, safejson.loads(data, "document", max_bytes=cap), "document")
        return 1
    count = 0
    for number, line in enumerate(safejson.decode(data, "document").splitlines(), 1):
        if not line.strip():
            continue
        try:
            validate(kind, safejson.loads(line, "document", max_bytes=cap))
        except InputError as exc:
            raise InputError(f"{exc.field} (line {number})", exc.expected, exc.got) from None
        count += 1
    return count


def configure(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``validate`` (shared by ``python -m proofkit.storage.formats`` and ``proofkit
    validate``)."""
    parser.add_argument("kind", metavar="KIND", help="the format: " + ", ".join(FORMATS))
    parser.add_argument("files", metavar="FILE", nargs="+", help="a JSON file, or - for standard input")
    parser.add_argument("--lines", action="store_true",
                        help="one document per line (JSON lines, as check --all --json prints)")


def run_validate(args: argparse.Namespace) -> int:
    """Exit 0 when every file conforms, 1 at the first that does not (one line on stderr), 2 when a file
    cannot be read or the kind is unknown (InputError, raised)."""
    fmt = get(args.kind)
    for path in args.files:
        data = read(fmt.kind, path)
        try:
            count = validate_bytes(fmt.kind, data, args.lines)
        except InputError as exc:
            print(f"{path}: does not conform to {fmt.tag} ({fmt.id}): {exc}", file=sys.stderr)
            return 1
        print(f"{path}: conforms to {fmt.tag}" + (f" ({count} documents)" if args.lines else ""))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m proofkit.storage.formats validate KIND FILE... | kinds``."""
    parser = argparse.ArgumentParser(prog="python -m proofkit.storage.formats",
                                     description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    configure(sub.add_parser("validate", help="check files against a published schema"))
    sub.add_parser("kinds", help="the formats, their versions and schema files")
    args = parser.parse_args(argv)
    if args.cmd == "kinds":
        for f in FORMATS.values():
            where = f"{f.marker[0]}: {f.marker[1]!r}" if f.marker else "no version field"
            use = "validated on load" if f.read else "output"
            print(f"{f.tag:18s} {f.what} ({use}); {where}; proofkit/schemas/{f.file}")
        return 0
    try:
        return run_validate(args)
    except InputError as exc:
        print(f"proofkit: bad input: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
