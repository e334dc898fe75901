"""Declarative, validated theorem parameters (the knobs a researcher varies with --set)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import InputError

_INT = re.compile(r"[+-]?[0-9]{1,40}")
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
    """One parameter: its type, allowed values or range, and default."""

    name: str
    type: type
    default: Any
    help: str = ""
    choices: Sequence[Any] | None = None
    min: float | None = None
    max: float | None = None

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
            raise InputError(where, self.allowed(), value)
        if self.min is not None and value < self.min:
            raise InputError(where, self.allowed(), value)
        if self.max is not None and value > self.max:
            raise InputError(where, self.allowed(), value)
        return value


@dataclass(frozen=True)
class ParamSpace:
    """The parameters of one theorem, with defaults; resolves overrides into a full dict."""

    params: tuple[Param, ...] = field(default_factory=tuple)

    def names(self) -> list[str]:
        return [p.name for p in self.params]

    def get(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise InputError("--set", "a parameter of this theorem: " + ", ".join(self.names()), name)

    def defaults(self) -> dict[str, Any]:
        return {p.name: p.default for p in self.params}

    def resolve(self, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        values = self.defaults()
        for name, value in (overrides or {}).items():
            values[name] = self.get(name).validate(value)
        return values

    def parse_sets(self, items: Sequence[str]) -> dict[str, Any]:
        """Parse ['key=value', ...] from the command line."""
        out: dict[str, Any] = {}
        for item in items:
            if "=" not in item:
                raise InputError("--set", "key=value", item)
            key, text = item.split("=", 1)
            out[key.strip()] = self.get(key.strip()).parse(text)
        return out


def param_T(default: int = 2, minimum: int = 1) -> Param:
    return Param("T", int, default, "training length (labels up to this length)", min=minimum, max=50)


def param_activation(default: str = "sigmoid") -> Param:
    return Param("activation", str, default, "readout activation", choices=ACTIVATIONS)


def param_supervision(default: str = "ALL") -> Param:
    return Param(
        "supervision", str, default, "ALL: labels at lengths 1..T; ONLY: at T alone",
        choices=SUPERVISION,
    )
