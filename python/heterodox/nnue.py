"""The engine's learned evaluation (NNUE) in PyTorch, for notebooks: the
recipe of ``heterodox nnue train`` (training/src/nnue/), step for step.

``heterodox.nnue_data(dir)`` reads a teacher directory (``heterodox teach
--value-only``) into the arrays ``heterodox nnue train`` trains on; this
module holds the same net in PyTorch, its loss, the same training loop and
``save``, which writes the net file the engine reads
(``Engine(variant, evaluation=PATH)``; docs/engine.md, "Learned
evaluation"), and ``load``, which reads one back:

>>> import heterodox, heterodox.nnue as nnue
>>> data = heterodox.nnue_data("runs/teach-chess")           # doctest: +SKIP
>>> net = nnue.Net(data["inputs"], hidden=128)               # doctest: +SKIP
>>> epochs = nnue.train(net, data, epochs=2)                 # doctest: +SKIP
>>> epochs[-1]["held_out_loss"]                              # doctest: +SKIP
>>> nnue.save(net, data, "chess.safetensors")                # doctest: +SKIP
>>> heterodox.Engine("chess", evaluation="chess.safetensors")  # doctest: +SKIP

The architecture is ``inputs -> 2 x hidden -> 1``: one feature
transformer (an embedding bag summing the active features' rows, plus a
bias) for each perspective, the side to act's first, a clipped ReLU (0 to
1), and a linear output whose value times 400 is centipawns (plus the
classical evaluation for a net on that base). The prediction is
``sigmoid(2 y)``, the teacher's scale (``tanh(cp / 400)``).

The recipe, the same as the Rust trainer's (training/src/nnue/):

* initialisation (``Net``): PyTorch's ``nn.Linear`` scheme, every weight
  and bias uniform in ``[-1/sqrt(fan_in), 1/sqrt(fan_in))``, fan-in
  ``inputs`` for the transformer and ``2 hidden`` for the output layer,
  whose bias starts at 0; on the classical base the output weights start
  at 0 too, so that the untrained net is the classical evaluation exactly;
* limits: after every step the transformer's weights and biases and the
  output weights are clamped to ``±WEIGHT_LIMIT`` (what the engine's
  quantization holds); the output bias is left free;
* target: ``(1 - result_weight) (value + 1) / 2 + result_weight (result +
  1) / 2`` (computed in float64, then float32); loss: the mean squared
  error of ``sigmoid(2 y)`` against it;
* optimiser: Adam, betas 0.9 and 0.999, eps 1e-8, no weight decay;
  learning rate ``lr`` for the first ``ceil(0.7 epochs)`` epochs, then
  ``0.3 lr`` (``learning_rate``);
* held out: every position of a game whose index is a multiple of 20
  (``HELD_OUT_EVERY``; game 0, 20, 40, ...), the same positions as the
  Rust trainer's on the same data (``split``); ``train`` returns and prints
  the held-out loss after each epoch, with the held-out loss of the
  teacher's value alone and of the classical evaluation alone at the start.

What differs is only what is random: the same seed draws other numbers
here (PyTorch's generator for the weights, NumPy's for each epoch's
order) than in Rust (ChaCha8). ``load`` starts a net from a net file, the
Rust trainer's step-0 weights (``OUT/initial.safetensors``) included;
from those and with one batch an epoch (a batch of at least the training
positions) both trainers take the same steps, which
python/tests/test_nnue.py checks.
"""

from __future__ import annotations

import math
import os
import time

import numpy as np
import torch
from torch import nn

from heterodox._atomic import write_file

#: Centipawns per unit of the net's output (the file's ``scale``).
SCALE = 400
#: The largest |w| the engine's quantization holds (network.rs), for every
#: weight and bias but the output bias.
WEIGHT_LIMIT = 31.0
#: The widest accumulator the engine reads (network.rs's ``MAX_HIDDEN``).
MAX_HIDDEN = 512
#: Every game whose index is a multiple of this is held out (batch.rs).
HELD_OUT_EVERY = 20
#: The learning rate after the first 70% of the epochs, as a fraction.
LATE_LR_FACTOR = 0.3
#: Adam's settings (adam.rs).
BETAS = (0.9, 0.999)
EPS = 1e-8
#: Positions per forward pass when measuring a loss.
EVAL_CHUNK = 1 << 14
FORMAT = "heterodox-nnue"
FORMAT_VERSION = 1


def init_bounds(inputs: int, hidden: int) -> tuple[float, float]:
    """The bounds of the initial weights, ``1/sqrt(fan_in)`` in float32 as
    the Rust trainer computes them: the transformer's (fan-in ``inputs``)
    and the output layer's (fan-in ``2 hidden``)."""
    one = np.float32(1.0)
    return (
        float(one / np.sqrt(np.float32(inputs))),
        float(one / np.sqrt(np.float32(2 * hidden))),
    )


class Net(nn.Module):
    """The engine's net: ``Net(inputs, hidden)``; ``forward(us, us_offsets,
    them, them_offsets)`` takes each perspective's flat feature indices and
    their bag offsets (torch.long) and returns the output ``y`` (one per
    position, centipawns / 400, the classical evaluation not added).

    The initial weights are drawn from ``seed`` as the module docstring
    says (the scheme of the Rust trainer, other numbers)."""

    def __init__(self, inputs: int, hidden: int = 128, seed: int = 0, base: str = "none"):
        super().__init__()
        if base not in ("none", "classical"):
            raise ValueError(f"base must be 'none' or 'classical', not {base!r}")
        if not 1 <= hidden <= MAX_HIDDEN:
            raise ValueError(f"nnue setting hidden = {hidden} is out of range (1 to {MAX_HIDDEN})")
        #: What the output is added to: nothing, or the classical evaluation
        #: (the data's ``classical`` column; the file's ``base``).
        self.base = base
        generator = torch.Generator().manual_seed(seed)
        self.ft = nn.EmbeddingBag(inputs, hidden, mode="sum")
        self.ft_bias = nn.Parameter(torch.zeros(hidden))
        self.out = nn.Linear(2 * hidden, 1)
        ft_bound, out_bound = init_bounds(inputs, hidden)
        with torch.no_grad():
            self.ft.weight.uniform_(-ft_bound, ft_bound, generator=generator)
            self.ft_bias.uniform_(-ft_bound, ft_bound, generator=generator)
            if base == "classical":
                self.out.weight.zero_()
            else:
                self.out.weight.uniform_(-out_bound, out_bound, generator=generator)
            self.out.bias.zero_()

    def forward(self, us, us_offsets, them, them_offsets):
        a = torch.clamp(self.ft(us, us_offsets) + self.ft_bias, 0.0, 1.0)
        b = torch.clamp(self.ft(them, them_offsets) + self.ft_bias, 0.0, 1.0)
        return self.out(torch.cat([a, b], dim=1)).squeeze(1)

    def clamp_weights(self) -> None:
        """Keeps the weights the engine quantizes to 16 bits inside
        ``±WEIGHT_LIMIT`` (the output bias, 32 bits there, is left free),
        as the Rust trainer does after every step."""
        with torch.no_grad():
            for p in (self.ft.weight, self.ft_bias, self.out.weight):
                p.clamp_(-WEIGHT_LIMIT, WEIGHT_LIMIT)

    def parameter_count(self) -> int:
        return sum(p.numel() for p in self.parameters())


def _bags(features: np.ndarray, starts: np.ndarray, ends: np.ndarray):
    """The features of ``[starts[k], ends[k])`` for every k, flat, and each
    bag's offset in the flat array (EmbeddingBag's inputs)."""
    lengths = (ends - starts).astype(np.int64)
    offsets = np.zeros(len(lengths), dtype=np.int64)
    np.cumsum(lengths[:-1], out=offsets[1:])
    positions = np.repeat(starts.astype(np.int64) - offsets, lengths) + np.arange(lengths.sum())
    return (
        torch.from_numpy(features[positions].astype(np.int64)),
        torch.from_numpy(offsets),
    )


def batch(data: dict, index: np.ndarray):
    """The net's inputs for positions ``index`` of ``data``
    (``heterodox.nnue_data``): (us, us_offsets, them, them_offsets)."""
    features, offsets = data["features"], data["offsets"]
    index = np.asarray(index, dtype=np.int64)
    us, us_offsets = _bags(features, offsets[2 * index], offsets[2 * index + 1])
    them, them_offsets = _bags(features, offsets[2 * index + 1], offsets[2 * index + 2])
    return us, us_offsets, them, them_offsets


def split(data: dict) -> tuple[np.ndarray, np.ndarray]:
    """The positions of ``data`` split by game, each in data order: the
    training ones and the held-out ones (those of every game whose index
    is a multiple of ``HELD_OUT_EVERY``), as the Rust trainer splits
    them."""
    held = np.asarray(data["games"]) % HELD_OUT_EVERY == 0
    return np.flatnonzero(~held), np.flatnonzero(held)


def learning_rate(lr: float, epochs: int, epoch: int) -> float:
    """The learning rate of ``epoch`` (from 1) of a run of ``epochs``:
    ``lr`` for the first ``ceil(0.7 epochs)``, then ``0.3 lr``."""
    return lr if epoch <= (7 * epochs + 9) // 10 else lr * LATE_LR_FACTOR


def _blend(value: np.ndarray, result: np.ndarray, result_weight: float) -> np.ndarray:
    """The target in float64, the Rust trainer's formula (batch.rs's
    ``target``) operation for operation."""
    w = float(result_weight)
    value = np.asarray(value, dtype=np.float64)
    result = np.asarray(result, dtype=np.float64)
    return (1.0 - w) * (value + 1.0) / 2.0 + w * (result + 1.0) / 2.0


def targets(data: dict, index: np.ndarray, result_weight: float = 0.25) -> torch.Tensor:
    """The training target of positions ``index``: the teacher's value and
    the game's result, each as a probability of winning, blended."""
    blend = _blend(data["values"][index], data["results"][index], result_weight)
    return torch.from_numpy(blend.astype(np.float32))


def loss(net: Net, data: dict, index: np.ndarray, result_weight: float = 0.25) -> torch.Tensor:
    """Mean squared error of ``sigmoid(2 y)`` against the blended target
    (``y`` plus the classical evaluation / 400 for a net on that base)."""
    y = net(*batch(data, index))
    if net.base == "classical":
        y = y + torch.from_numpy(data["classical"][index].astype(np.float32)) / SCALE
    prediction = torch.sigmoid(2.0 * y)
    return torch.mean((prediction - targets(data, index, result_weight)) ** 2)


def mean_loss(net: Net, data: dict, positions: np.ndarray, result_weight: float = 0.25) -> float:
    """The loss over ``positions`` (0 for none), in chunks, without
    gradients: the held-out loss on the held-out positions."""
    positions = np.asarray(positions, dtype=np.int64)
    if len(positions) == 0:
        return 0.0
    total = 0.0
    with torch.no_grad():
        for start in range(0, len(positions), EVAL_CHUNK):
            chunk = positions[start : start + EVAL_CHUNK]
            total += float(loss(net, data, chunk, result_weight)) * len(chunk)
    return total / len(positions)


def _reference_loss(data: dict, positions: np.ndarray, result_weight: float, p: np.ndarray) -> float:
    if len(positions) == 0:
        return 0.0
    t = _blend(data["values"][positions], data["results"][positions], result_weight)
    return float(np.mean((p - t) ** 2))


def teacher_loss(data: dict, positions: np.ndarray, result_weight: float = 0.25) -> float:
    """The loss of the teacher's value alone, ``(value + 1) / 2``, on
    ``positions``: the floor a net's held-out loss is read against."""
    p = (data["values"][positions].astype(np.float64) + 1.0) / 2.0
    return _reference_loss(data, positions, result_weight, p)


def classical_loss(data: dict, positions: np.ndarray, result_weight: float = 0.25) -> float:
    """The loss of the tuned classical evaluation alone, ``sigmoid(2 cp /
    400)``, on ``positions``: what a net on the classical base starts
    from."""
    cp = data["classical"][positions].astype(np.float64)
    p = 1.0 / (1.0 + np.exp(-2.0 * cp / SCALE))
    return _reference_loss(data, positions, result_weight, p)


def _check_settings(epochs: int, batch_size: int, lr: float, result_weight: float) -> None:
    """Refuses a setting out of the Rust trainer's range (config.rs), by
    name."""
    for name, value, ok, expected in [
        ("epochs", epochs, 1 <= epochs <= 10_000, "1 to 10000"),
        ("batch", batch_size, 1 <= batch_size <= 1 << 20, "1 to 2^20"),
        ("lr", lr, math.isfinite(lr) and 0.0 < lr <= 1.0, "a number above 0, at most 1"),
        ("result_weight", result_weight, 0.0 <= result_weight <= 1.0, "0 to 1"),
    ]:
        if not ok:
            raise ValueError(f"nnue setting {name} = {value} is out of range ({expected})")


def train(
    net: Net,
    data: dict,
    epochs: int = 10,
    batch_size: int = 4096,
    lr: float = 1e-3,
    result_weight: float = 0.25,
    seed: int = 0,
    quiet: bool = False,
) -> list[dict]:
    """Trains ``net`` on the training positions of ``data`` (``split``):
    each epoch the training positions in a fresh order (NumPy, from
    ``seed``) in batches of ``batch_size``, one Adam step each
    (``learning_rate``), the weights clamped after each step; then the
    loss on the held-out positions.

    Returns one dict per epoch, as the Rust trainer's ``training.json``:
    ``epoch`` (from 1), ``train_loss`` (the mean loss of the epoch's
    batches as they were trained), ``held_out_loss`` (after the epoch),
    ``learning_rate`` and ``seconds``. Unless ``quiet``, prints a line at
    the start (the positions, the held-out loss of the teacher's value
    alone and of the classical evaluation alone) and one per epoch, as
    ``heterodox nnue train`` does. Raises ValueError for a setting out of
    range or data whose positions are all held out, FloatingPointError if
    a loss is not finite."""
    _check_settings(epochs, batch_size, lr, result_weight)
    train_positions, held_out = split(data)
    if len(train_positions) == 0:
        raise ValueError(
            f"training data: {len(held_out)} positions, all of held-out games (every game whose "
            f"index is a multiple of {HELD_OUT_EVERY}, from game 0): at least two games are needed"
        )
    if not quiet:
        print(
            f"{data.get('variant', '?')} ({data.get('feature_set', '?')}): "
            f"{len(train_positions)} training positions, {len(held_out)} held out; a net of "
            f"{net.parameter_count()} parameters, {epochs} epochs; held-out loss of the "
            f"teacher's value alone {teacher_loss(data, held_out, result_weight):.6f}, of the "
            f"classical evaluation alone {classical_loss(data, held_out, result_weight):.6f}",
            flush=True,
        )
    rng = np.random.default_rng(seed)
    optimizer = torch.optim.Adam(net.parameters(), lr=lr, betas=BETAS, eps=EPS, weight_decay=0.0)
    lines = []
    for epoch in range(1, epochs + 1):
        started = time.perf_counter()
        rate = learning_rate(lr, epochs, epoch)
        for group in optimizer.param_groups:
            group["lr"] = rate
        order = train_positions[rng.permutation(len(train_positions))]
        total = 0.0
        for k, start in enumerate(range(0, len(order), batch_size)):
            index = order[start : start + batch_size]
            optimizer.zero_grad()
            value = loss(net, data, index, result_weight)
            number = float(value.detach())
            if not math.isfinite(number):
                raise FloatingPointError(
                    f"training diverged in epoch {epoch}, batch {k + 1}: loss {number}"
                )
            value.backward()
            optimizer.step()
            net.clamp_weights()
            total += number * len(index)
        line = {
            "epoch": epoch,
            "train_loss": total / len(train_positions),
            "held_out_loss": mean_loss(net, data, held_out, result_weight),
            "learning_rate": rate,
            "seconds": time.perf_counter() - started,
        }
        lines.append(line)
        if not quiet:
            print(
                f"epoch {epoch:>3}/{epochs}: train loss {line['train_loss']:.6f}, held-out loss "
                f"{line['held_out_loss']:.6f} (lr {rate}, {line['seconds']:.1f}s)",
                flush=True,
            )
    return lines


def load(path: str | os.PathLike) -> Net:
    """The net of a net file (one ``save`` or ``heterodox nnue train``
    wrote, its ``initial.safetensors`` too), on the file's base, to train
    on or evaluate with."""
    from safetensors import safe_open

    with safe_open(str(path), framework="pt") as f:
        metadata = f.metadata() or {}
        if metadata.get("format") != FORMAT:
            raise ValueError(f"{path}: format {metadata.get('format')!r}, not {FORMAT!r}")
        tensors = {name: f.get_tensor(name) for name in f.keys()}
    inputs, hidden = int(metadata["inputs"]), int(metadata["hidden"])
    net = Net(inputs, hidden, base=metadata.get("base", "none"))
    shapes = {
        "ft.weight": (inputs, hidden),
        "ft.bias": (hidden,),
        "out.weight": (2 * hidden,),
        "out.bias": (1,),
    }
    for name, shape in shapes.items():
        if name not in tensors or tuple(tensors[name].shape) != shape:
            found = tuple(tensors[name].shape) if name in tensors else None
            raise ValueError(f"{path}: tensor {name} of shape {found}, not {shape}")
    with torch.no_grad():
        net.ft.weight.copy_(tensors["ft.weight"].float())
        net.ft_bias.copy_(tensors["ft.bias"].float())
        net.out.weight.copy_(tensors["out.weight"].float().reshape(1, -1))
        net.out.bias.copy_(tensors["out.bias"].float())
    return net


def save(net: Net, data: dict, path: str | os.PathLike, producer: str = "heterodox.nnue") -> None:
    """Writes the net file the engine reads, with the metadata of the data
    it was trained on (variant, rules, feature set and versions)."""
    from safetensors.torch import save_file

    hidden = net.ft_bias.shape[0]
    tensors = {
        "ft.weight": net.ft.weight.detach().float().contiguous(),
        "ft.bias": net.ft_bias.detach().float().contiguous(),
        "out.weight": net.out.weight.detach().float().reshape(-1).contiguous(),
        "out.bias": net.out.bias.detach().float().reshape(1).contiguous(),
    }
    metadata = {
        "format": FORMAT,
        "format_version": str(FORMAT_VERSION),
        "variant": data["variant"],
        "rules": data["rules"],
        "feature_set": data["feature_set"],
        "feature_version": str(data["feature_version"]),
        "encoding_version": str(data["encoding_version"]),
        "inputs": str(data["inputs"]),
        "hidden": str(hidden),
        "scale": str(SCALE),
        "base": net.base,
        "producer": producer,
    }
    write_file(path, lambda temporary: save_file(tensors, str(temporary), metadata=metadata))
