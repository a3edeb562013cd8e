"""Training data from self-play shards, for numpy and PyTorch.

``Loader`` (native) is the Rust trainer's loader: it replays each recorded
game once through the rules, then rebuilds and encodes sampled positions in
Rust, so Python trains on exactly the tensors the Rust trainer sees::

    loader = heterodox.Loader("runs/p1/games", history=1)
    batch = loader.sample(256)      # observations, masks, policies, values

``ShardDataset`` wraps it as a ``torch.utils.data.IterableDataset`` of
ready-made batches (tensors), for a ``DataLoader(dataset, batch_size=None)``
training loop. It exists only when PyTorch can be imported.
"""

from __future__ import annotations

from heterodox._core import Loader

try:
    import torch
    from torch.utils.data import IterableDataset
except ImportError:  # PyTorch is optional: the numpy loader needs none.
    torch = None
    IterableDataset = object


class ShardDataset(IterableDataset):
    """Batches of ``batch_size`` positions sampled uniformly from shards,
    as dicts of tensors ('observations' float32 [B, C, 8, 8], 'masks' bool
    [B, A], 'policies' float32 [B, A], 'values' float32 [B]).

    One pass yields ``batches`` batches (default: as many as hold the
    positions once). ``paths``, ``history``, ``z_weight`` and ``seed`` are
    the ``Loader``'s; with ``DataLoader`` workers, each worker samples with
    its own seed (``seed + worker id``), so they do not repeat each other.
    """

    def __init__(self, paths, batch_size: int, batches: int | None = None, history: int = 1,
                 z_weight: float = 1.0, seed: int = 0):
        if torch is None:
            raise ImportError("ShardDataset needs PyTorch (pip install torch)")
        self.paths = paths
        self.batch_size = batch_size
        self.history = history
        self.z_weight = z_weight
        self.seed = seed
        self.loader = Loader(paths, history=history, z_weight=z_weight, seed=seed)
        positions = self.loader.num_positions
        self.batches = batches if batches is not None else max(1, -(-positions // batch_size))

    def __len__(self) -> int:
        return self.batches

    def __iter__(self):
        loader = self.loader
        info = torch.utils.data.get_worker_info()
        if info is not None:
            # Each worker process has its own copy; reseed it.
            loader = Loader(self.paths, history=self.history, z_weight=self.z_weight,
                            seed=self.seed + info.id)
        count = self.batches if info is None else -(-self.batches // info.num_workers)
        for _ in range(count):
            yield {key: torch.from_numpy(array) for key, array in loader.sample(self.batch_size).items()}
