"""A seeded screen of a compiled network on long strings (``proofkit crasp compile --sample-len L``).

``crasp compile --check-len`` enumerates every string up to a short length (at most 16); failures that need
length (float64 rounding of counts stored as C(i)/(i + 1), softmax weights at base N = n + 1) live beyond
it. This screen draws ``samples`` strings of one length uniformly over the alphabet (``numpy`` generator
seeded with ``seed``), runs each through the compiled network in the chosen arithmetic (``float64`` or
``exact``), and compares its verdict at every position with the vectorized interpreter's (exact integers).

What it decides: a disagreement found is a real one (the string, the position and both verdicts are
reported, and replay with the same seed). No disagreement says nothing about strings that were not drawn:
it is a screen, never a proof. Limits: length at most :data:`MAX_SAMPLE_LEN`, at most :data:`MAX_SAMPLES`
strings, the lengths at which the program's counts fit in int64
(:func:`proofkit.crasp.semantics.vector.max_length`),
and the work cap (:mod:`proofkit.runtime.workguard`): the estimate, made before anything runs, is
samples x (L + 1) positions x (non-zero weights + heads x (L + 1)) forward-step units (the heads term counts
the heads whose attention is not uniform: a uniform head keeps a running sum), plus the interpreter's cells.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import InputError
from ...runtime import progress, workguard
from ..language.ir import Program
from ..semantics.vector import accepts_prefixes, max_length
from .checking import network_size
from .forward import prepare, run
from .network import Network

MAX_SAMPLE_LEN = 100_000
MAX_SAMPLES = 10_000
MAX_SEED = 2**32


@dataclass(frozen=True)
class LongMismatch:
    """The first position at which the network and the interpreter disagree on one drawn string."""

    sample: int  # index of the string in the seeded draw (0-based)
    string: tuple[str, ...]
    position: int  # prefix length: the network's verdict at this position of the whole string
    interpreter: bool
    network: bool


@dataclass(frozen=True)
class Screen:
    """The screen's parameters and its earliest disagreement (None: none among the drawn strings)."""

    precision: str
    length: int
    samples: int
    seed: int
    mismatch: LongMismatch | None

    def text(self) -> str:
        """One line for the command line."""
        what = (f"{self.precision} screen: {self.samples} seeded strings (seed {self.seed}) of length "
                f"{self.length}, uniform over the alphabet")
        m = self.mismatch
        if m is None:
            return (f"{what}: the network agrees with the interpreter at every prefix (a screen: strings "
                    f"not drawn are not covered)")
        shown = "".join(m.string) if len(m.string) <= 60 else "".join(m.string[:57]) + "..."
        verdict = {True: "accepts", False: "rejects"}
        return (f"{what}: MISMATCH on string #{m.sample} at position {m.position}: interpreter "
                f"{verdict[m.interpreter]}, network {verdict[m.network]} (string {shown!r})")

    def as_dict(self, alphabet: tuple[str, ...]) -> dict[str, object]:
        """JSON-ready: the parameters and the mismatch (its whole string, symbols joined by spaces when
        a symbol is longer than one character)."""
        m = self.mismatch
        sep = "" if all(len(s) == 1 for s in alphabet) else " "
        return {"precision": self.precision, "length": self.length, "samples": self.samples,
                "seed": self.seed, "agrees": m is None,
                "mismatch": None if m is None else {"sample": m.sample, "position": m.position,
                                                    "interpreter": m.interpreter, "network": m.network,
                                                    "string": sep.join(m.string)}}


def screen_work(program: Program, net: Network, length: int, samples: int) -> workguard.Work:
    """The estimated work of :func:`screen` (module docstring)."""
    nonzeros, _ = network_size(net)
    heads = sum(not h.uniform for lay in net.layers for h in lay.heads)  # uniform heads keep running sums
    per_step = nonzeros if net.length_independent() else nonzeros + heads * (length + 1)
    units = samples * (length + 1) * (per_step * workguard.NETWORK_STEP + len(program.ops) + 1)
    attention = "" if net.length_independent() else f" + {heads} attending heads x {length + 1} positions"
    return workguard.Work(units, f"{samples} strings x {length + 1} positions x ({nonzeros} weights"
                                 f"{attention}) x {workguard.NETWORK_STEP} + the interpreter")


def screen(program: Program, net: Network, length: int, samples: int, seed: int = 0,
           precision: str = "float64") -> Screen:
    """Draw, run and compare (module docstring); errors name the options of ``crasp compile``
    (``--sample-len``, ``--samples``, ``--seed``)."""
    if not 1 <= length <= MAX_SAMPLE_LEN:
        raise InputError("--sample-len", f"an integer in [1, {MAX_SAMPLE_LEN}]", length)
    if not 1 <= samples <= MAX_SAMPLES:
        raise InputError("--samples", f"an integer in [1, {MAX_SAMPLES}]", samples)
    if not 0 <= seed < MAX_SEED:
        raise InputError("--seed", "an integer in [0, 2^32)", seed)
    longest = max_length(program)
    if longest is not None and length > longest:
        raise InputError("--sample-len", f"at most {max(longest, 0)} for this program (a count could leave "
                         f"int64 on longer strings)", length)
    workguard.guard("--sample-len", screen_work(program, net, length, samples),
                    lower="--sample-len or --samples")
    rng = np.random.default_rng(seed)
    X = rng.integers(0, len(program.alphabet), size=(samples, length), dtype=np.int64)
    expected = accepts_prefixes(program, X)
    best: LongMismatch | None = None
    weights = prepare(net, precision)
    for i, row in enumerate(X.tolist()):
        progress.stage(f"crasp compile: long string {i + 1} of {samples} ({precision})")
        got_all = run(net, row, precision, prepared=weights)
        for k, (got, want) in enumerate(zip(got_all, expected[i].tolist())):
            if got != want:
                if best is None or k < best.position:
                    best = LongMismatch(i, tuple(program.alphabet[t] for t in row), k, want, got)
                break
    return Screen(precision, length, samples, seed, best)
