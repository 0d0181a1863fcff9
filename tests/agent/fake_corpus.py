"""A retriever seam for the narrative judges' tests: the passages a query would find."""

from __future__ import annotations

from collections.abc import Callable, Sequence


def corpus(*texts: str) -> Callable[[str], Sequence[str]]:
    """Every passage holding any word of the query, as written (lower case)."""

    def passages(query: str) -> Sequence[str]:
        return [t for t in texts if any(w in t.lower() for w in query.lower().split())]

    return passages
