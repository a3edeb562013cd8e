"""The Rust trainer's residual network in pure PyTorch, and its checkpoints.

``ResNet`` is models/src/resnet.rs layer for layer, with the same parameter
and buffer names (``stem.conv.weight``, ``tower.0.conv1.bn.running_mean``,
``policy.flat.fc.weight``, ``value.fc2.bias``, ...), so the weights move
between the two trainers as they are::

    import heterodox.torch as hx
    net = hx.load("runs/hostage-1/last")            # a tch checkpoint
    ...                                             # train it with torch.optim
    hx.save(net, "checkpoints/py-0001")             # `heterodox selfplay --net` plays it

A checkpoint is a directory of three files (models/src/checkpoint.rs):
``config.json`` (the tower's shapes), ``model.safetensors`` (every tensor,
float32, batch-norm running statistics included, so evaluation-mode outputs
survive the trip exactly) and ``spec.json`` (the encoding the network reads
and writes: variant, rules, version, history, planes, actions). Loading
refuses a checkpoint whose files do not fit (a missing or unexpected
tensor, a wrong shape, another encoding than the one asked for) before any
weight is read into the network.

Needs ``torch`` and ``safetensors`` (``pip install heterodox[torch]``); the
native module itself never links libtorch.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import torch
from torch import nn

from heterodox._atomic import publish_dir
from heterodox._core import encoding_spec, parse_agent, zoo_agents, zoo_network_dir

try:
    from safetensors.torch import load_file as _load_safetensors
    from safetensors.torch import save_file as _save_safetensors
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(
        "heterodox.torch reads and writes checkpoints with the safetensors "
        "package: pip install safetensors"
    ) from error

CONFIG_FILE = "config.json"
WEIGHTS_FILE = "model.safetensors"
SPEC_FILE = "spec.json"
CHECKPOINT_FILES = (CONFIG_FILE, WEIGHTS_FILE, SPEC_FILE)

#: The config fields, in the order config.json lists them.
CONFIG_FIELDS = (
    "input_channels",
    "board_height",
    "board_width",
    "blocks",
    "channels",
    "policy_planes",
    "policy_flat",
    "value_hidden",
)
#: The default tower (models/src/config.rs: DEFAULT_BLOCKS, DEFAULT_CHANNELS).
DEFAULT_BLOCKS = 4
DEFAULT_CHANNELS = 64
DEFAULT_VALUE_HIDDEN = 128
#: Planes of the flat policy head's 1x1 convolution (FLAT_POLICY_CHANNELS).
FLAT_POLICY_CHANNELS = 2
#: Batch-norm settings of tch's defaults, which PyTorch shares.
BN_EPS = 1e-5
BN_MOMENTUM = 0.1


class ConvBn(nn.Module):
    """Convolution without bias (the norm's shift makes one redundant),
    then batch norm; the caller applies the activation."""

    def __init__(self, in_channels: int, out_channels: int, kernel: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel, padding=kernel // 2, bias=False)
        self.bn = nn.BatchNorm2d(out_channels, eps=BN_EPS, momentum=BN_MOMENTUM)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.bn(self.conv(x))


class ResBlock(nn.Module):
    """Two 3x3 conv + BN layers with an identity skip connection."""

    def __init__(self, channels: int):
        super().__init__()
        self.conv1 = ConvBn(channels, channels, 3)
        self.conv2 = ConvBn(channels, channels, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.conv1(x))
        return torch.relu(self.conv2(y) + x)


class FlatPolicy(ConvBn):
    """The logits that belong to no square (Traitor's selections, Mad
    Scientist's discards): conv1x1 C->2, BN, ReLU, flatten, fc 2*H*W->F."""

    def __init__(self, channels: int, squares: int, logits: int):
        super().__init__(channels, FLAT_POLICY_CHANNELS, 1)
        self.fc = nn.Linear(FLAT_POLICY_CHANNELS * squares, logits)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(torch.relu(super().forward(x)).flatten(1))


class PolicyHead(nn.Module):
    """Square-indexed logits from a 1x1 convolution (plane * 64 + square),
    then the flat ones, concatenated: a legal action's index is its
    logit's index."""

    def __init__(self, channels: int, planes: int, squares: int, flat: int):
        super().__init__()
        self.conv = nn.Conv2d(channels, planes, 1)
        self.flat = FlatPolicy(channels, squares, flat) if flat > 0 else None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        planes = self.conv(x).flatten(1)
        if self.flat is None:
            return planes
        return torch.cat([planes, self.flat(x)], 1)


class ScalarHead(ConvBn):
    """conv1x1 C->1, BN, ReLU, flatten, fc H*W->V, ReLU, fc V->1, then
    tanh (``squash``) or nothing: the value head and the auxiliary heads."""

    def __init__(self, channels: int, squares: int, hidden: int, squash: bool = True):
        super().__init__(channels, 1, 1)
        self.fc1 = nn.Linear(squares, hidden)
        self.fc2 = nn.Linear(hidden, 1)
        self.squash = squash

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(super().forward(x)).flatten(1)
        y = self.fc2(torch.relu(self.fc1(y))).squeeze(1)
        return torch.tanh(y) if self.squash else y


class ResNet(nn.Module):
    """The AlphaZero-style residual network of models/src/resnet.rs.

    ``forward(x)`` takes observations ``[N, input_channels, 8, 8]`` and
    returns ``(logits [N, A], value [N])``: unnormalised policy logits (mask
    the illegal actions, then softmax) and a tanh value for the player to
    act. ``config`` is the dict of config.json; ``spec`` the encoding spec
    (spec.json) the network was made for, saved with it.

    With ``auxiliary_heads`` in the config, two more heads (trained, not
    used in play) sit beside them: ``forward_all(x)`` returns ``(logits,
    value, moves_left, material)``, the last two None without the heads.
    """

    def __init__(self, config: dict, spec: dict | None = None):
        super().__init__()
        missing = [field for field in CONFIG_FIELDS if field not in config and field != "policy_flat"]
        if missing:
            raise ValueError(f"network config lacks {', '.join(missing)}")
        self.config = {field: int(config.get(field, 0)) for field in CONFIG_FIELDS}
        if config.get("auxiliary_heads", False):
            # Only when true, as the Rust side writes it.
            self.config["auxiliary_heads"] = True
        self.spec = spec
        c = self.config
        squares = c["board_height"] * c["board_width"]
        self.stem = ConvBn(c["input_channels"], c["channels"], 3)
        self.tower = nn.ModuleList(ResBlock(c["channels"]) for _ in range(c["blocks"]))
        self.policy = PolicyHead(c["channels"], c["policy_planes"], squares, c["policy_flat"])
        self.value = ScalarHead(c["channels"], squares, c["value_hidden"])
        self.moves_left = self.material = None
        if c.get("auxiliary_heads"):
            self.moves_left = ScalarHead(c["channels"], squares, c["value_hidden"], squash=False)
            self.material = ScalarHead(c["channels"], squares, c["value_hidden"])

    @classmethod
    def for_spec(
        cls,
        spec: dict | str,
        blocks: int = DEFAULT_BLOCKS,
        channels: int = DEFAULT_CHANNELS,
        value_hidden: int = DEFAULT_VALUE_HIDDEN,
        auxiliary_heads: bool = False,
    ) -> "ResNet":
        """A fresh network for an encoding spec (a dict or the JSON of
        ``heterodox.encoding_spec``): its shapes from the spec, only the
        tower chosen, as NetConfig::for_spec."""
        spec = json.loads(spec) if isinstance(spec, str) else spec
        planes = spec["board_action_planes"]
        config = {
            "input_channels": len(spec["channel_names"]),
            "board_height": 8,
            "board_width": 8,
            "blocks": blocks,
            "channels": channels,
            "policy_planes": planes,
            "policy_flat": spec["num_actions"] - planes * 64,
            "value_hidden": value_hidden,
            "auxiliary_heads": auxiliary_heads,
        }
        return cls(config, spec)

    @classmethod
    def for_variant(cls, variant: str, history: int = 1, rules: dict | None = None, **tower) -> "ResNet":
        """A fresh network for a variant under its rules (``rules``: the
        rule options), with ``tower`` the keywords of ``for_spec``."""
        return cls.for_spec(encoding_spec(variant, history=history, rules=rules), **tower)

    def _trunk(self, x: torch.Tensor) -> torch.Tensor:
        trunk = torch.relu(self.stem(x))
        for block in self.tower:
            trunk = block(trunk)
        return trunk

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        trunk = self._trunk(x)
        return self.policy(trunk), self.value(trunk)

    def forward_all(
        self, x: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor | None, torch.Tensor | None]:
        """``(logits, value, moves_left, material)``: every head's output,
        the auxiliary ones None when the network has none (what training
        needs; play needs only ``forward``)."""
        trunk = self._trunk(x)
        if self.moves_left is None:
            return self.policy(trunk), self.value(trunk), None, None
        return self.policy(trunk), self.value(trunk), self.moves_left(trunk), self.material(trunk)


def _tensors(model: ResNet) -> dict[str, torch.Tensor]:
    """The tensors a checkpoint holds: every parameter and the batch-norm
    running statistics (PyTorch's ``num_batches_tracked`` counters have no
    counterpart in tch and are left out)."""
    return {
        name: tensor.detach().to("cpu", torch.float32).contiguous()
        for name, tensor in model.state_dict().items()
        if not name.endswith("num_batches_tracked")
    }


def _check_spec(found: dict | None, expected: dict | str | None, directory: Path) -> None:
    if expected is None:
        return
    expected = json.loads(expected) if isinstance(expected, str) else expected
    if found is None:
        raise ValueError(f"checkpoint {directory} has no {SPEC_FILE}: its encoding cannot be checked")
    for key in ("variant", "options", "version", "history", "channel_names", "num_actions", "board_action_planes"):
        if found.get(key) != expected.get(key):
            raise ValueError(
                f"checkpoint {directory} was made for another encoding: {key} is "
                f"{found.get(key)!r}, expected {expected.get(key)!r}"
            )


def load(directory: str | os.PathLike, expected_spec: dict | str | None = None, device="cpu") -> ResNet:
    """Loads a checkpoint directory (tch-made or ``save``-made) into a new
    ``ResNet`` in evaluation mode on ``device``. With ``expected_spec`` (a
    dict or JSON of ``heterodox.encoding_spec``) a checkpoint of another
    variant, rule set, encoding version or history is refused. Every tensor
    must be present with its shape and none may be unknown; a ValueError
    names the first that is not."""
    directory = Path(directory)
    config = json.loads((directory / CONFIG_FILE).read_text(encoding="utf-8"))
    spec_path = directory / SPEC_FILE
    spec = json.loads(spec_path.read_text(encoding="utf-8")) if spec_path.exists() else None
    _check_spec(spec, expected_spec, directory)
    model = ResNet(config, spec)
    tensors = _load_safetensors(str(directory / WEIGHTS_FILE))
    wanted = _tensors(model)
    unknown = sorted(set(tensors) - set(wanted))
    if unknown:
        raise ValueError(f"checkpoint {directory}: unknown tensor {unknown[0]} (and {len(unknown) - 1} more)")
    for name, tensor in wanted.items():
        if name not in tensors:
            raise ValueError(f"checkpoint {directory}: tensor {name} is missing")
        if tuple(tensors[name].shape) != tuple(tensor.shape):
            raise ValueError(
                f"checkpoint {directory}: tensor {name} has shape {tuple(tensors[name].shape)}, "
                f"the config wants {tuple(tensor.shape)}"
            )
    model.load_state_dict(tensors, strict=False)
    return model.to(device).eval()


#: Simulations of a ``zoo:`` agent string that names none (the arena's).
ZOO_SIMULATIONS = 64


def zoo(agent: str, device="cpu") -> tuple[ResNet, int]:
    """A shipped agent by its string, as the CLI names it (``zoo:hostage@64``,
    or just ``hostage``): its network, loaded and checked against today's
    encoding of its variant, and its simulations per move (64 when the
    string names none). Its card, ``agents/NAME/README.md``, states how it
    was made and how strong it is, searched as the CLI searches it: with
    ``Search(..., root_policy="gumbel", immediate_wins=True,
    avoid_losses_in_one=True)``. The CLI's search options after the
    simulations (``/puct``, ``/nolosses``, ``/nowins``) are
    accepted and left to those keywords. Raises
    ValueError for a bad string or an unknown name (listing the shipped
    ones)."""
    # The command line's grammar reads the string (AgentError, a
    # ValueError, says what is wrong); a plain name is a zoo name.
    info = parse_agent(agent if agent.startswith("zoo:") else f"zoo:{agent}")
    if info["kind"] != "zoo":
        raise ValueError(f"bad agent {agent!r}: zoo() loads a shipped agent, zoo:NAME@SIMS")
    name, simulations = info["network"], info["simulations"]
    # The catalogue built into the extension (or $HETERODOX_ZOO's): no
    # checkout needed, the files checked against their checksums.
    shipped = [a["name"] for a in zoo_agents() if a["network"] is not None]
    if name not in shipped:
        raise ValueError(f"no shipped agent {name!r} (shipped: {', '.join(shipped)})")
    directory = zoo_network_dir(name)
    spec = json.loads((directory / SPEC_FILE).read_text(encoding="utf-8"))
    today = encoding_spec(spec["variant"], spec["history"], rules=spec["options"])
    return load(directory, today, device), simulations


def save(model: ResNet, directory: str | os.PathLike) -> None:
    """Saves ``model`` as a checkpoint directory the Rust side loads
    (``heterodox selfplay --net DIR``), atomically as the Rust side does:
    the files are written and synced in a sibling staging directory that
    is renamed into place, so a killed process leaves the old checkpoint
    or the new one, never a mix. An existing directory holding anything but
    checkpoint files is never replaced."""
    def write(staging: Path) -> None:
        _save_safetensors(_tensors(model), str(staging / WEIGHTS_FILE))
        (staging / CONFIG_FILE).write_text(json.dumps(model.config, indent=2), encoding="utf-8")
        if model.spec is not None:
            (staging / SPEC_FILE).write_text(json.dumps(model.spec, indent=2), encoding="utf-8")

    publish_dir(directory, CHECKPOINT_FILES, write)


def evaluator(model: ResNet, device=None):
    """A search evaluator (``Search.run``, ``Search.apply``, ``self_play``)
    over ``model`` in evaluation mode: one forward pass per round, the
    softmax of the logits over each leaf's legal actions (only those leave
    the device), values as the network gives them."""
    device = device or next(model.parameters()).device
    model.eval()

    @torch.inference_mode()
    def evaluate(requests: dict) -> tuple[np.ndarray, np.ndarray]:
        x = torch.from_numpy(requests["observations"]).to(device)
        mask = torch.from_numpy(requests["mask"]).to(device)
        logits, values = model(x)
        priors = logits.masked_fill(~mask, float("-inf")).softmax(-1)
        leaf = torch.from_numpy(requests["leaf"]).to(device)
        legal = torch.from_numpy(requests["legal"]).to(device)
        flat = priors[leaf, legal]
        return flat.float().cpu().numpy(), values.float().cpu().numpy()

    return evaluate
