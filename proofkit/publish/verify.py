"""``verify-bundle``: recompute an evidence bundle here and say, claim by claim, whether it reproduces.

Steps: the hash over the canonical form (a bundle whose content no longer matches its hash is reported
as altered, and nothing else is run); the theorem must be registered here; the check is re-run at the
bundle's overrides, seed and working precision, and its resolved parameters must equal the bundle's
(the theorem's defaults may have changed); every claim's verdict and the theorem's verdict are compared;
every record the bundle carries is replayed (:func:`proofkit.replay.replay`, from a temporary copy).
The bundle reproduces when all of that agrees. Environment differences (another numpy, another commit)
are listed, never counted as failures: the verdicts are what must agree.
"""

from __future__ import annotations

import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .. import record, registry, reproduce
from ..errors import InputError
from . import bundle as bundles
from . import env

REPRODUCES, DIFFERS = "reproduces", "DIFFERS"


@dataclass(frozen=True)
class ClaimCheck:
    """One claim's verdict in the bundle and now (None: the claim is missing on that side)."""

    name: str
    stored: str | None
    now: str | None

    @property
    def reproduces(self) -> bool:
        return self.stored == self.now


@dataclass(frozen=True)
class RecordCheck:
    """One carried record's replay."""

    file: str
    reproduces: bool
    how: str


@dataclass
class Verification:
    """Everything verify-bundle found; ``status`` is ``ok``, ``altered`` (hash) or ``unregistered``."""

    file: str
    theorem: str
    sha256: str
    status: str = "ok"
    seed: int = 0
    dps: int = 0
    overrides: dict[str, Any] = field(default_factory=dict)
    params_differ: list[str] = field(default_factory=list)
    verdict: ClaimCheck | None = None
    claims: list[ClaimCheck] = field(default_factory=list)
    records: list[RecordCheck] = field(default_factory=list)
    environment: list[str] = field(default_factory=list)

    @property
    def reproduces(self) -> bool:
        return (self.status == "ok" and not self.params_differ and self.verdict is not None
                and self.verdict.reproduces and all(c.reproduces for c in self.claims)
                and all(r.reproduces for r in self.records))

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready (the ``--json`` output)."""
        out = asdict(self)
        out["reproduces"] = self.reproduces
        out["claims"] = [dict(asdict(c), reproduces=c.reproduces) for c in self.claims]
        if self.verdict is not None:
            out["verdict"] = dict(asdict(self.verdict), reproduces=self.verdict.reproduces)
        return out

    def text(self) -> str:
        """What a reader needs: per claim and record whether it reproduces, and why not."""
        if self.status == "altered":
            return (f"{self.file}: ALTERED: its content does not match its sha256 {self.sha256} (edited or "
                    "damaged after it was written); nothing was re-run")
        if self.status == "unregistered":
            return (f"{self.file}: theorem {self.theorem} is not registered here (add its folder with "
                    "--theorems DIR or install its package); nothing was re-run")
        sets = ", ".join(f"{k}={v}" for k, v in self.overrides.items()) or "none"
        out = [f"{self.file}: sha256 ok ({self.sha256}); {self.theorem} re-checked at seed {self.seed}, "
               f"dps {self.dps}, overrides {sets}"]
        out += [f"  parameters differ (the theorem's defaults changed): {d}" for d in self.params_differ]
        if self.verdict is not None:
            out.append(f"  [{REPRODUCES if self.verdict.reproduces else DIFFERS}] theorem verdict: "
                       + _pair(self.verdict))
        out += [f"  [{REPRODUCES if c.reproduces else DIFFERS}] {c.name}: {_pair(c)}" for c in self.claims]
        out += [f"  [{REPRODUCES if r.reproduces else DIFFERS}] record {r.file}: {r.how}"
                for r in self.records]
        if self.environment:
            out.append("  environment differences (reported, not failures): " + "; ".join(self.environment))
        bad = sum(not c.reproduces for c in self.claims) + sum(not r.reproduces for r in self.records)
        out.append("every verdict and record reproduces" if self.reproduces else
                   f"does NOT reproduce: {bad} of {len(self.claims) + len(self.records)} claims and records "
                   "differ" + ("; parameters differ" if self.params_differ else ""))
        out.append("re-run: " + reproduce.line("check", self.theorem, sets=self.overrides, seed=self.seed,
                                               dps=self.dps))
        return "\n".join(out)


def _pair(c: ClaimCheck) -> str:
    if c.reproduces:
        return str(c.now)
    return f"{c.stored or 'absent'} in the bundle, {c.now or 'absent'} now"


def _claims(stored: list[dict[str, Any]], now: list[dict[str, Any]]) -> list[ClaimCheck]:
    """Claims of both sides by name, the bundle's order first."""
    before = {c["name"]: c["verdict"] for c in stored}
    after = {c["name"]: c["verdict"] for c in now}
    names = list(dict.fromkeys([*before, *after]))
    return [ClaimCheck(n, before.get(n), after.get(n)) for n in names]


def _replay(entry: dict[str, Any], folder: Path, i: int) -> RecordCheck:
    """Replay one carried record from a temporary copy; a record that no longer replays (a stored field
    disagrees, or it does not load) does not reproduce, with the reason."""
    from ..replay import replay

    path = folder / f"record{i}.json"
    path.write_text(record.canonical(entry["record"]), encoding="utf-8")
    try:
        res = replay(path)
    except InputError as exc:
        return RecordCheck(entry["file"], False, f"does not replay: {exc}")
    how = f"{'reproduces' if res.reproduces else 'does NOT reproduce'} " \
          f"({'certified' if res.certified else 'not certified'})"
    return RecordCheck(entry["file"], res.reproduces, how)


def verify(data: dict[str, Any], file: str) -> Verification:
    """Verify a loaded bundle (:func:`proofkit.publish.bundle.load`) named ``file`` in messages."""
    from ..check import check

    tid = data["theorem"]["id"]
    out = Verification(file, tid, data["sha256"])
    if bundles.digest(data) != data["sha256"]:
        out.status = "altered"
        return out
    if tid not in registry.load_all():
        out.status = "unregistered"
        return out
    inputs = data["check"]
    out.seed, out.dps, out.overrides = inputs["seed"], inputs["dps"], dict(inputs["overrides"])
    res = check(registry.get(tid), out.overrides, dps=out.dps, seed=out.seed)
    params = bundles.jsonable(res.params)
    out.params_differ = [f"{k}: {inputs['params'].get(k, 'absent')} in the bundle, {params.get(k, 'absent')} "
                         f"now" for k in sorted(set(params) | set(inputs["params"]))
                         if params.get(k) != inputs["params"].get(k)]
    now = bundles.verdict_json(res)
    out.verdict = ClaimCheck("theorem", data["verdict"]["verdict"], now["verdict"])
    out.claims = _claims(data["verdict"]["claims"], now["claims"])
    with tempfile.TemporaryDirectory(prefix="proofkit-bundle-") as tmp:
        out.records = [_replay(entry, Path(tmp), i) for i, entry in enumerate(data["records"])]
    out.environment = env.differences(data["environment"], env.environment())
    return out
