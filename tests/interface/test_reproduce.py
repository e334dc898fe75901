"""Reproduce lines parse back, through the CLI's own parser and the theorem's --set parser, to the same
command, theorem, parameters, seed and precision."""

from __future__ import annotations

import shlex

from proofkit.interface.cli import build_parser
from proofkit.language import registry
from proofkit.numerics import arrays
from proofkit.render import reproduce


def test_line_round_trips_through_the_parser():
    thm = registry.get("AM24.T4")
    sets = {"T": 1, "activation": "tanh"}
    text = reproduce.line("check", thm.id, sets=sets, seed=7, dps=80)
    argv = shlex.split(text)
    assert argv[0] == "proofkit"
    args = build_parser().parse_args(argv[1:])
    assert (args.cmd, args.id, args.seed, args.dps) == ("check", "AM24.T4", 7, 80)
    assert thm.params.parse_sets(args.set) == sets


def test_line_quotes_drops_and_carries_folders(tmp_path):
    with registry.using([str(tmp_path)]), arrays.using("array-api-strict"):  # not a CLI backend: left out
        text = reproduce.line("falsify", "AM24.T4", drops=["T>=2"], seed=0, dps=60)
    argv = shlex.split(text)
    assert argv[1:3] == ["--theorems", str(tmp_path.resolve())] and "'T>=2'" in text
    assert "--backend" not in argv
    args = build_parser().parse_args(argv[1:])
    assert (args.cmd, args.drop, args.theorems) == ("falsify", ["T>=2"], [str(tmp_path.resolve())])
