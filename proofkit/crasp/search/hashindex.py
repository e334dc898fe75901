"""A uint64 -> int64 map looked up and filled a whole batch at a time (open addressing, linear probing).

Why by hand: the enumeration's deduplication (:class:`proofkit.crasp.search.samples.BehaviourStore`) looks up
millions of row hashes in batches of a few hundred; a ``dict`` costs one interpreter round trip per key
(about a third of HYB24.NEG's time), and neither numpy nor the standard library has a vectorized hash map.
Keys must already be well mixed (the store's splitmix64 hashes): the slot is the key's low bits. Entries
are never removed, so a probe sequence ends at the first empty slot.
"""

from __future__ import annotations

import numpy as np

EMPTY = -1  # the value of an empty slot (stored values are >= 0)


class HashIndex:
    """Map from uint64 keys to non-negative int64 values; load factor kept at most 1/2."""

    def __init__(self, capacity: int = 512) -> None:
        size = 1 << max(10, (2 * max(capacity, 1) - 1).bit_length())
        self.keys = np.zeros(size, dtype=np.uint64)
        self.vals = np.full(size, EMPTY, dtype=np.int64)
        self.n = 0

    def __len__(self) -> int:
        return self.n

    def get(self, keys: np.ndarray) -> np.ndarray:
        """The value of every key, EMPTY where it is absent."""
        keys = np.asarray(keys, dtype=np.uint64)
        mask = len(self.keys) - 1
        out = np.full(len(keys), EMPTY, dtype=np.int64)
        slot = (keys & np.uint64(mask)).astype(np.intp)
        todo = np.arange(len(keys))
        while todo.size:
            s = slot[todo]
            v = self.vals[s]
            occupied = v != EMPTY
            hit = occupied & (self.keys[s] == keys[todo])
            out[todo[hit]] = v[hit]
            todo = todo[occupied & ~hit]
            slot[todo] = (slot[todo] + 1) & mask
        return out

    def put(self, keys: np.ndarray, vals: np.ndarray) -> None:
        """Insert keys that are distinct and absent (the caller has looked them up) with values >= 0."""
        keys = np.asarray(keys, dtype=np.uint64)
        vals = np.asarray(vals, dtype=np.int64)
        if 2 * (self.n + len(keys)) > len(self.keys):
            self._resize(2 * (self.n + len(keys)))
        self._place(keys, vals)
        self.n += len(keys)

    def _place(self, keys: np.ndarray, vals: np.ndarray) -> None:
        mask = len(self.keys) - 1
        slot = (keys & np.uint64(mask)).astype(np.intp)
        todo = np.arange(len(keys))
        while todo.size:
            s = slot[todo]
            free = self.vals[s] == EMPTY
            cand, cs = todo[free], s[free]
            self.vals[cs] = cand  # one key per free slot wins it this round (which one does not matter)
            won = self.vals[cs] == cand
            win, ws = cand[won], cs[won]
            self.keys[ws], self.vals[ws] = keys[win], vals[win]
            placed = np.zeros(len(keys), dtype=bool)
            placed[win] = True
            todo = todo[~placed[todo]]
            slot[todo] = (slot[todo] + 1) & mask  # the slot tried is occupied now in every case

    def _resize(self, capacity: int) -> None:
        live = self.vals != EMPTY
        keys, vals = self.keys[live], self.vals[live]
        size = 1 << (2 * capacity - 1).bit_length()
        self.keys = np.zeros(size, dtype=np.uint64)
        self.vals = np.full(size, EMPTY, dtype=np.int64)
        self._place(keys, vals)
