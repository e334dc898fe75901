"""Declarative, validated theorem parameters (the knobs a researcher varies with --set)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import InputError, did_you_mean

_INT = re.compile(r"[+-]?[0-9]{1,40}")
#: bits of the largest integer a parameter takes from any input (10^40 < 2^133: the 40 digits of --set)
MAX_INT_BITS = 133
_FLOAT = re.compile(r"[+-]?([0-9]{1,40}(\.[0-9]{0,40})?|\.[0-9]{1,40})([eE][+-]?[0-9]{1,4})?")


def ascii_int(text: str) -> int | None:
    """An integer written with ASCII digits (optional sign, at most 40 digits), or None: int() alone also
    takes Arabic-Indic or fullwidth digits and underscores, which no value here is written with."""
    s = text.strip()
    return int(s) if _INT.fullmatch(s) else None


def ascii_float(text: str) -> float | None:
    """A finite decimal number written with ASCII digits (no nan, inf, underscores), or None."""
    s = text.strip()
    return float(s) if _FLOAT.fullmatch(s) else None

ACTIVATIONS = ("sigmoid", "tanh", "softplus", "relu", "identity")
SUPERVISION = ("ALL", "ONLY")


@dataclass(frozen=True)
class Param:
    """One parameter: its type, allowed values or range, and default. ``follows``: the parameter whose
    value this one takes when it is not set itself (a learned dimension that equals the token dimension
    n unless set on its own), so ``--set n=3`` moves both and ``--set learned_dim=3`` alone still
    breaks the equality on purpose."""

    name: str
    type: type
    default: Any
    help: str = ""
    choices: Sequence[Any] | None = None
    min: float | None = None
    max: float | None = None
    follows: str | None = None

    def __post_init__(self) -> None:
        """The default is a value the parameter allows (``Param("n", int, 7, max=3)`` is the theorem
        file's slip: it fails where the file is imported, one line naming file and line)."""
        try:
            self.validate(self.default)
        except ValueError as exc:  # InputError is a ValueError
            raise ValueError(f"parameter {self.name}: its default {self.default!r} is not allowed: "
                             f"{exc}") from None

    def allowed(self) -> str:
        if self.choices is not None:
            return "one of " + ", ".join(str(c) for c in self.choices)
        if self.type is bool:
            return "true or false"
        lo = "-inf" if self.min is None else self.min
        hi = "inf" if self.max is None else self.max
        return f"{self.type.__name__} in [{lo}, {hi}]"

    def parse(self, text: str) -> Any:
        """Parse a command-line string; never evaluates it. Errors name ``--set NAME``."""
        try:
            return self._parse(text)
        except InputError as exc:
            raise InputError(f"--set {self.name}", exc.expected, exc.got) from None

    def _parse(self, text: str) -> Any:
        where = f"--set {self.name}"
        if self.type is bool:
            low = text.strip().lower()
            if low in ("true", "1", "yes"):
                return self.validate(True)
            if low in ("false", "0", "no"):
                return self.validate(False)
            raise InputError(where, self.allowed(), text)
        if self.type is int:
            value: Any = ascii_int(text)
            if value is None:
                raise InputError(where, self.allowed(), text)
            return self.validate(value)
        if self.type is float:
            value = ascii_float(text)
            if value is None and text.strip().lower().lstrip("+-") in ("nan", "inf", "infinity"):
                value = float(text)  # validate names what is wrong with it: not finite
            if value is None:
                raise InputError(where, self.allowed(), text)
            return self.validate(value)
        return self.validate(text.strip())

    def validate(self, value: Any) -> Any:
        where = f"parameter {self.name}"
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > MAX_INT_BITS:
            # bounded before any conversion: float() of a 309-digit integer overflows, and no parameter
            # needs more digits than --set accepts
            raise InputError(where, f"{self.allowed()}, at most 40 digits", f"an integer of "
                             f"{value.bit_length()} bits")
        if self.type is str and not isinstance(value, str):
            raise InputError(where, self.allowed() if self.choices else "a string", value)
        if self.type is bool and not isinstance(value, bool):
            raise InputError(where, self.allowed(), value)
        if self.type is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise InputError(where, self.allowed(), value)
        if self.type is float:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise InputError(where, self.allowed(), value)
            value = float(value)
            if value != value or value in (float("inf"), float("-inf")):
                raise InputError(where, "a finite number", value)
        if self.choices is not None and value not in self.choices:
            raise InputError(where, self.allowed() + did_you_mean(value, self.choices), value)
        if self.min is not None and value < self.min:
            raise InputError(where, self.allowed(), value)
        if self.max is not None and value > self.max:
            raise InputError(where, self.allowed(), value)
        return value


@dataclass(frozen=True)
class ParamSpace:
    """The parameters of one theorem, with defaults; resolves overrides into a full dict."""

    params: tuple[Param, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        """A ``follows`` names another parameter of this space that follows none, with the same default
        (so the defaults are what :meth:`resolve` gives without overrides): a theorem file's slip, not
        bad input."""
        by_name = {p.name: p for p in self.params}
        for p in self.params:
            if p.follows is None:
                continue
            leader = by_name.get(p.follows)
            if leader is None or leader is p or leader.follows is not None:
                raise ValueError(f"parameter {p.name}: follows must name another parameter that follows "
                                 f"none, got {p.follows!r}")
            if leader.default != p.default:
                raise ValueError(f"parameter {p.name} follows {leader.name}: expected the same default, "
                                 f"got {p.default!r} and {leader.default!r}")

    def names(self) -> list[str]:
        return [p.name for p in self.params]

    def get(self, name: str, field: str = "--set") -> Param:
        """The parameter called ``name``; bad input naming ``field`` (where the name was read), with the
        closest name, otherwise."""
        for p in self.params:
            if p.name == name:
                return p
        raise InputError(field, "a parameter of this theorem" + did_you_mean(name, self.names()) + ": "
                         + ", ".join(self.names()), name)

    def defaults(self) -> dict[str, Any]:
        return {p.name: p.default for p in self.params}

    def with_defaults(self, **values: Any) -> ParamSpace:
        """The same space with new defaults (each checked against its parameter's type and range), e.g. a
        corrected statement's own setting of a theorem's parameters."""
        for name, value in values.items():
            self.get(name).validate(value)
        return ParamSpace(tuple(replace(p, default=values[p.name]) if p.name in values else p
                                for p in self.params))

    def resolve(self, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Every parameter's value: the overrides, then for each parameter that follows another and is
        not overridden the other's value, then the defaults. A followed value this parameter does not
        allow is bad input naming both parameters (set the follower too, or choose another value)."""
        given = dict(overrides or {})
        values = self.defaults()
        for name, value in given.items():
            values[name] = self.get(name).validate(value)
        for p in self.params:
            if p.follows is not None and p.name not in given:
                try:
                    values[p.name] = p.validate(values[p.follows])
                except InputError:
                    raise InputError(
                        f"--set {p.follows}",
                        f"a value {p.name} can follow ({p.name} moves with {p.follows} unless set itself "
                        f"and allows {p.allowed()}): set {p.name} too, or another {p.follows}",
                        values[p.follows]) from None
        return values

    def parse_sets(self, items: Sequence[str]) -> dict[str, Any]:
        """Parse ['key=value', ...] from the command line; the combination is checked here (see
        :meth:`resolve`), before any work starts."""
        out: dict[str, Any] = {}
        for item in items:
            if "=" not in item:
                raise InputError("--set", "key=value", item)
            key, text = item.split("=", 1)
            out[key.strip()] = self.get(key.strip()).parse(text)
        self.resolve(out)
        return out


def param_T(default: int = 2, minimum: int = 1) -> Param:
    """The training length T (labels at lengths up to T), an integer in [minimum, 50]."""
    return Param("T", int, default, "training length (labels up to this length)", min=minimum, max=50)


def param_activation(default: str = "sigmoid") -> Param:
    """The readout activation, one of ACTIVATIONS (sigmoid, tanh, softplus, relu, identity)."""
    return Param("activation", str, default, "readout activation", choices=ACTIVATIONS)


def param_supervision(default: str = "ALL") -> Param:
    """Where the labels are: ALL (every length 1..T) or ONLY (length T alone)."""
    return Param(
        "supervision", str, default, "ALL: labels at lengths 1..T; ONLY: at T alone",
        choices=SUPERVISION,
    )
