"""Build tests/families/authors_am24_fixture.json: the AM24 authors' model code run on fixed weights.

How to run (needs torch and the mirror of the authors' repository; proofkit itself never imports torch):

    python -m venv /tmp/authors_venv && /tmp/authors_venv/bin/pip install torch==2.13.0 numpy
    /tmp/authors_venv/bin/python benchmarks/authors_am24/make_fixture.py \
        [--mirror /work/.mirror/facebookresearch+Length-and-Compositional-Generalization/repo]

What it does. The authors' model files (facebookresearch/Length-and-Compositional-Generalization at commit
5a77eb1; ``src/models/modules/*.py`` and ``src/datamodules/base.py``) are read out of the bare git mirror with
``git show`` into a temporary folder and imported unchanged; the packages they import but never use in the
forward passes (hydra, omegaconf, pytorch_lightning, src.utils.general) are replaced by stubs (``hydra.utils
.instantiate`` returns the module it is handed, so ``SetDecoderLayer`` takes pre-built modules and then
re-initialises them with the authors' own ``init_weights``). Everything runs in float64
(``torch.set_default_dtype``); the authors' float32 constants stay float32 (the 1/sqrt(d) of the attention
scores, ``attention.py`` l. 55, ``softmax_attention.py`` l. 27).

For each of the five architectures (deepset, attention, softmax_attention, ssm, rnn), x_dim = phi_dim = y_dim
= 3, 12 sequences of lengths 1..6 (two each) zero-padded to 6 (``set.py`` l. 146-151: padding, mask), seed 0:
the learner's forward (``set_decoder.py`` ``<X>Set._forward``) and the truth's (``base.py`` ``<x>_mixing``) on
the same modules (asserted identical), the weights after the authors' initialisation with every bias then
redrawn N(0, 0.3^2) (the authors' biases start at 0; non-zero ones exercise the bias paths), outputs and the
hidden tensor the authors' R^2 reads. For the SSM also: the readout with ``n_hidden_layers = 0``, and one
teacher / learner pair (lengths 2..6) with the authors' loss (``SetDecoder.forward``), its autograd gradients
and the parameters after 3 ``torch.optim.AdamW`` steps with the yaml's settings (lr 1e-3, wd 0.01, betas
(0.9, 0.95), eps 1e-8), which checks proofkit's numpy re-implementation of the authors' SSM training.

Numbers are written with ``repr`` (shortest round-trip decimal strings), keys sorted: the file is
deterministic for a given torch version (the weights come from torch's RNG).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MIRROR = "/work/.mirror/facebookresearch+Length-and-Compositional-Generalization/repo"
COMMIT = "5a77eb14d7b378bce0d0c6c69716fea8a038de05"
FILES = ["src/models/modules/attention.py", "src/models/modules/mlp.py", "src/models/modules/rnn_fwd.py",
         "src/models/modules/set_decoder.py", "src/models/modules/softmax_attention.py",
         "src/models/modules/ssm_fwd.py", "src/datamodules/base.py"]
N, T, BIAS_STD = 3, 6, 0.3
LENGTHS = [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]


def extract(mirror: str, dest: Path) -> None:
    for f in FILES:
        text = subprocess.run(["git", f"--git-dir={mirror}", "show", f"{COMMIT}:{f}"], check=True,
                              capture_output=True, text=True).stdout
        (dest / f).parent.mkdir(parents=True, exist_ok=True)
        (dest / f).write_text(text)


def stubs() -> None:
    """Modules the forward passes never use, replaced so that the authors' files import unchanged."""
    hydra = types.ModuleType("hydra")
    hydra.utils = types.SimpleNamespace(instantiate=lambda cfg: cfg)
    sys.modules["hydra"] = hydra
    omegaconf = types.ModuleType("omegaconf")
    omegaconf.OmegaConf = object
    sys.modules["omegaconf"] = omegaconf
    pl = types.ModuleType("pytorch_lightning")
    pl.LightningDataModule = type("LightningDataModule", (), {})
    sys.modules["pytorch_lightning"] = pl
    general = types.ModuleType("src.utils.general")
    import logging

    general.get_pylogger = logging.getLogger
    sys.modules["src.utils.general"] = general


def floats(t) -> list:
    """A tensor as nested lists of repr strings."""
    import torch

    if isinstance(t, torch.Tensor):
        t = t.detach().tolist()
    if isinstance(t, list):
        return [floats(v) for v in t]
    return repr(float(t))


def state(module) -> dict:
    return {k: floats(v) for k, v in sorted(module.state_dict().items())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mirror", default=MIRROR)
    ap.add_argument("--out", default=str(ROOT / "tests/families/authors_am24_fixture.json"))
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="authors_src_"))
    extract(args.mirror, tmp)
    sys.path.insert(0, str(tmp))
    stubs()
    import torch

    torch.set_default_dtype(torch.float64)
    from src.datamodules.base import BaseStreamingDataset
    from src.models.modules import set_decoder as sd
    from src.models.modules.attention import Attention
    from src.models.modules.mlp import MLP
    from src.models.modules.rnn_fwd import RNNFwd
    from src.models.modules.softmax_attention import SoftmaxAttention
    from src.models.modules.ssm_fwd import SSMFwd

    torch.manual_seed(0)
    sig = torch.nn.Sigmoid()

    def mlp(d_in, d_out, hidden=1):
        return MLP(x_dim=d_in, hid_dim=N, y_dim=d_out, n_hidden_layers=hidden, activation=sig)

    def data(lengths):
        """Padded U[0,1] tokens and the authors' mask (set.py l. 143-151)."""
        lens = torch.tensor(lengths)
        X = torch.rand(len(lengths), T, N)
        seq = torch.arange(T).unsqueeze(0) < lens.unsqueeze(-1)
        X[~seq.unsqueeze(-1).expand(-1, -1, N)] = 0
        mask = seq.unsqueeze(-1) * torch.tril(torch.ones(T, T)).unsqueeze(0)
        return X, mask

    def redraw_biases(*mods):
        with torch.no_grad():
            for mod in mods:
                for name, prm in mod.named_parameters():
                    if name.endswith("bias"):
                        prm.copy_(BIAS_STD * torch.randn_like(prm))

    archs = {
        "deepset": (sd.DeepSet, lambda: mlp(N, N), lambda: mlp(N, N), "deepset_mixing", 0.6),
        "attention": (sd.AttentionSet, lambda: Attention(x_dim=N, phi_dim=N, attention_fn="linear"),
                      lambda: mlp(N, N), "attention_mixing", 0.6),
        "softmax_attention": (sd.SoftmaxAttentionSet, lambda: SoftmaxAttention(x_dim=N, phi_dim=N),
                              lambda: mlp(N, N), "softmax_attention_mixing", 0.6),
        "ssm": (sd.SSMSet, lambda: SSMFwd(x_dim=N, phi_dim=N), lambda: mlp(N, N), "ssm_mixing", 0.6),
        "rnn": (sd.RNNSet, lambda: RNNFwd(x_dim=N, phi_dim=N, activation=sig), lambda: mlp(N, N),
                "rnn_mixing", 0.6),
    }
    out = {"source": f"facebookresearch/Length-and-Compositional-Generalization@{COMMIT}",
           "torch": torch.__version__, "dims": {"x_dim": N, "phi_dim": N, "y_dim": N},
           "lengths": LENGTHS, "bias_std": BIAS_STD, "dtype": "float64", "architectures": {}}
    for name, (cls, ind, agg, mixing, std) in archs.items():
        cfg = {"name": name, "phi_individual": ind(), "phi_aggregate": agg(), "init_mean": 0.0,
               "init_std": std, "n_layers": 1}
        model = cls(decoder_config=cfg, x_dim=N, phi_dim=N, y_dim=N)
        layer = model.layers[0]
        redraw_biases(layer.phi_individual, layer.phi_aggregate)
        X, mask = data(LENGTHS)
        with torch.no_grad():
            y, hidden = model._forward(X, mask)
            ds = BaseStreamingDataset.__new__(BaseStreamingDataset)
            ds.phi_individual, ds.phi_aggregate, ds.phi_dim = layer.phi_individual, layer.phi_aggregate, N
            y_truth, hidden_truth = getattr(ds, mixing)(X, mask)
        assert torch.equal(y, y_truth) and torch.equal(hidden, hidden_truth), name
        rec = {"phi_individual": state(layer.phi_individual), "phi_aggregate": state(layer.phi_aggregate),
               "X": floats(X), "y": floats(y), "hidden": floats(hidden),
               "truth_forward_identical": True}
        if name == "ssm":
            flat = mlp(N, N, hidden=0)
            redraw_biases(flat)
            with torch.no_grad():
                rec["readout0"] = {"phi_aggregate": state(flat), "y": floats(flat(hidden))}
            rec["training"] = ssm_training(sd, SSMFwd, mlp, data, redraw_biases)
        out["architectures"][name] = rec
    Path(args.out).write_text(json.dumps(out, sort_keys=True, indent=None, separators=(",", ":")) + "\n")
    print(f"wrote {args.out}")


def ssm_training(sd, SSMFwd, mlp, data, redraw_biases) -> dict:
    """Teacher and learner SSMSet, lengths 2..6, the authors' loss, its gradients and 3 AdamW steps."""
    import torch

    def make():
        cfg = {"name": "ssm", "phi_individual": SSMFwd(x_dim=N, phi_dim=N), "phi_aggregate": mlp(N, N),
               "init_mean": 0.0, "init_std": 0.6, "n_layers": 1}
        m = sd.SSMSet(decoder_config=cfg, x_dim=N, phi_dim=N, y_dim=N)
        redraw_biases(m.layers[0].phi_aggregate)
        return m

    teacher, learner = make(), make()
    X, mask = data([2, 3, 4, 5, 6, 6, 2, 3])
    with torch.no_grad():
        Y, _ = teacher._forward(X, mask)
    rec = {"X": floats(X), "lengths": [2, 3, 4, 5, 6, 6, 2, 3], "Y": floats(Y),
           "teacher": state(teacher), "learner": state(learner)}
    res = learner(X, mask, Y)
    res["loss"].backward()
    rec["loss"] = repr(res["loss"].item())
    rec["grads"] = {k: (None if p.grad is None else floats(p.grad)) for k, p in
                    sorted(learner.named_parameters())}
    opt = torch.optim.AdamW([p for p in learner.parameters() if p.requires_grad], lr=0.001,
                            weight_decay=0.01, eps=1e-08, betas=[0.9, 0.95])
    losses = []
    opt.zero_grad()
    for _ in range(3):
        loss = learner(X, mask, Y)["loss"]
        loss.backward()
        opt.step()
        opt.zero_grad()
        losses.append(repr(loss.item()))
    rec["adamw"] = {"lr": 0.001, "weight_decay": 0.01, "eps": 1e-08, "betas": [0.9, 0.95], "steps": 3,
                    "losses": losses, "after": state(learner)}
    return rec


if __name__ == "__main__":
    main()
