"""A bounded memo of readings: the audit reads the same lines, passages and facts over and over
across a run's cases (a template's answer, a repeat, a cited passage), and a reading is a pure
function of its text and the lexicon, so it is kept, least recently used out first."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Memo(Generic[V]):
    """At most ``size`` readings, by key; the least recently used goes when it is full."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._held: OrderedDict[Hashable, V] = OrderedDict()

    def get(self, key: Hashable, make: Callable[[], V]) -> V:
        held = self._held
        if key in held:
            held.move_to_end(key)
            return held[key]
        value = make()
        held[key] = value
        if len(held) > self.size:
            held.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._held)
