"""Theorem 9's assumptions as compiler variants, and the search for the smallest string on which a compiled
network disagrees with the interpreter (HYB24.T9's dropped assumptions). Witnesses carry the program text
(data, parsed again on replay, never executed), so a record replays without the library folder."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Sequence
from typing import Any

from ...errors import InputError, one_of
from ...language.spec import WitnessOutcome
from ..language.ir import Program
from ..language.parser import parse
from ..semantics.interp import evaluate
from .checking import Mismatch, smallest_failure
from .compiler import compile_program
from .network import Network

#: variant -> (compiler knobs, arithmetic, positional offset)
VARIANTS: dict[str, tuple[dict[str, Any], str, int]] = {
    "none": ({}, "exact", 0),
    "no-log-scaling": ({"log_scaling": False}, "exact", 0),
    "ramp": ({"mlp_activation": "ramp", "robust_compare": False}, "exact", 0),
    "float64-naive": ({"robust_compare": False}, "float64", 0),
    "no-sos-mask": ({"sos_mask": False}, "exact", 0),
    "naive-periodic-offset": ({"periodic_encoding": "naive"}, "exact", 1),
}


def pumping_family(alphabet: Sequence[str], max_k: int = 40, tail: int = 3,
                   blocks: int = 20) -> list[tuple[str, ...]]:
    """Structured long words: a^k v (v any word of length tail, k <= max_k) and a^k b^j (k, j < blocks):
    failures that need length (fixed-base softmax decay, ramp slopes) live there, not in short words."""
    out = {tuple(a * k) + v for a in alphabet for k in range(max_k + 1)
           for v in itertools.product(alphabet, repeat=tail)}
    out |= {tuple(a * k) + tuple(b * j) for a in alphabet for b in alphabet for k in range(blocks)
            for j in range(blocks)}
    return sorted(out, key=lambda w: (len(w), [alphabet.index(s) for s in w]))


def reference(program: Program):  # noqa: ANN201 - a callable word -> prefix verdicts
    return lambda w: evaluate(program, list(w))[program.output]


def search(program: Program, variant: str, enum_len: int = 6) -> tuple[Mismatch | None, int]:
    """Smallest failing word of the compiled network under the variant: all words up to enum_len, then the
    pumping family. Returns (mismatch, words examined)."""
    if variant not in VARIANTS:
        raise one_of("variant", VARIANTS, variant)
    knobs, precision, offset = VARIANTS[variant]
    net = compile_program(program, **knobs)
    ref = reference(program)
    found = smallest_failure(net, ref, max_len=enum_len, precision=precision, offset=offset)
    examined = sum(len(program.alphabet) ** n for n in range(enum_len + 1))
    if found is None:
        family = [w for w in pumping_family(program.alphabet) if len(w) > enum_len]
        examined += len(family)
        found = smallest_failure(net, ref, precision=precision, offset=offset, family=family)
    return found, examined


CLAIM = "compiled network equals the program"


def certificate_data(net: Network, variant: str, text: str, found: Mismatch) -> dict[str, Any]:
    """The kernel's ``network-disagreement`` data (proofkit/kernel/crasp.py, docs/trust.md): the compiled
    weights as exact strings, how they are run under the variant (arithmetic, offset, softmax base), the
    program text, the word, the position and both verdicts; the kernel re-derives both verdicts itself."""
    obj = json.loads(net.to_json())
    layers = [{"heads": lay["heads"]} | ({"mlp": lay["mlp"]} if lay["mlp"] is not None else {})
              for lay in obj["layers"]]
    _, precision, offset = VARIANTS[variant]
    return {"kind": "network-disagreement", "variant": variant, "program": text, "word": " ".join(found.word),
            "position": found.position, "arithmetic": precision, "offset": offset,
            "base": "N" if net.base is None else str(net.base),
            "network": {"alphabet": obj["alphabet"], "width": len(obj["dims"]), "E": obj["E"],
                        "pos": obj["pos"], "layers": layers, "U": obj["U"]},
            "network_output": found.got, "program_output": found.expected}


class CompilerFalsifier:
    """The falsifier of HYB24.T9: search programs (texts) under the variant named by the parameters."""

    def __init__(self, programs: Iterable[tuple[str, str]], enum_len: int = 6) -> None:
        self.programs = list(programs)  # (name, text)
        self.enum_len = enum_len

    def search(self, params: dict[str, Any]) -> WitnessOutcome:
        variant = params["variant"]
        total, tried = 0, []
        for name, text in self.programs:
            program = parse(text, name)
            found, examined = search(program, variant, self.enum_len)
            total += examined
            tried.append(name)
            if found is not None:
                word = "".join(found.word)
                witness = {"variant": variant, "program_name": name, "program_text": text,
                           "word": " ".join(found.word), "position": str(found.position),
                           "expected": str(found.expected), "got": str(found.got)}
                how = (f"exact: the compiled network under '{variant}' says {found.got} where the "
                       f"interpreter says {found.expected}, on {word or 'the empty string'!r} "
                       f"(length {len(found.word)}) of {name}")
                net = compile_program(program, **VARIANTS[variant][0])
                return WitnessOutcome(True, f"{total} words over {len(tried)} programs", witness, how, True,
                                      CLAIM, certificate_data(net, variant, text, found))
        return WitnessOutcome(False, f"{total} words (all up to length {self.enum_len} plus pumping families "
                                     f"a^k v, a^k b^j) over {len(tried)} programs: {', '.join(tried)}", None,
                              f"no failing string under '{variant}'", False, CLAIM)

    def replay(self, witness: dict[str, str]) -> WitnessOutcome:
        for key in ("variant", "program_name", "program_text", "word", "expected", "got"):
            if not isinstance(witness.get(key), str):
                raise InputError(f"witness.{key}", "a string", witness.get(key))
        variant = witness["variant"]
        if variant not in VARIANTS:
            raise one_of("witness.variant", VARIANTS, variant)
        program = parse(witness["program_text"], witness["program_name"])
        word = tuple(witness["word"].split())
        bad = [s for s in word if s not in program.alphabet]
        if bad:
            raise InputError("witness.word", f"symbols of {list(program.alphabet)}", bad[0])
        knobs, precision, offset = VARIANTS[variant]
        net = compile_program(program, **knobs)
        mismatch = smallest_failure(net, reference(program), precision=precision, offset=offset,
                                    family=[word])
        ok = mismatch is not None and str(mismatch.got) == witness["got"]
        how = (f"replayed: {'the network still disagrees' if ok else 'NO disagreement'} on "
               f"{witness['word']!r} of {witness['program_name']} under '{variant}'")
        return WitnessOutcome(ok, "1 word", witness, how, ok, CLAIM)
