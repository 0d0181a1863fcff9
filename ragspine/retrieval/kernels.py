"""The loops of BM25 that numpy cannot vectorise well, compiled by numba and cached on disk.

Scoring a query is a scatter-add over posting lists, then a top-k over every document; numpy
spends its time in temporaries there (``np.add.at``, a partition over all positive scores). A
compiled loop does each in one pass. Compilation happens once per machine: ``cache=True`` keeps
the machine code beside this file (or in ``NUMBA_CACHE_DIR``, or the user's cache folder), so a
new process loads it; where none is writable, each process compiles them once instead.
``nogil`` lets the service's threads score in parallel.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit


def _compiled(**options: Any) -> Callable[[Any], Any]:
    def wrap(fn: Any) -> Any:
        try:
            return njit(cache=True, **options)(fn)
        except RuntimeError:  # "cannot cache function …: no locator available"
            return njit(cache=False, **options)(fn)

    return wrap


@_compiled(nogil=True)
def score_top(indptr, indices, data, terms, n_words, n_docs, depth):  # type: ignore[no-untyped-def]
    """The ``depth`` best documents for the query ``terms``, best first.

    The first ``n_words`` terms score; the rest (figures) only add to a document a word already
    matched. Equal scores keep document order, so results are deterministic.
    """
    scores = np.zeros(n_docs, np.float32)
    for j in range(terms.size):
        t = terms[j]
        if j < n_words:
            for p in range(indptr[t], indptr[t + 1]):
                scores[indices[p]] += data[p]
        else:
            for p in range(indptr[t], indptr[t + 1]):
                d = indices[p]
                if scores[d] > 0:
                    scores[d] += data[p]
    top_d = np.empty(depth, np.int64)
    top_s = np.empty(depth, np.float32)
    n = 0
    floor = np.float32(0.0)  # what a document must beat: 0 until the list is full
    for d in range(n_docs):
        s = scores[d]
        if s <= floor:  # one well-predicted branch for nearly every document
            continue
        if n < depth:
            n += 1
        i = n - 1
        while i > 0 and top_s[i - 1] < s:  # strictly: an earlier equal score stays ahead
            top_s[i] = top_s[i - 1]
            top_d[i] = top_d[i - 1]
            i -= 1
        top_s[i] = s
        top_d[i] = d
        if n == depth:
            floor = top_s[depth - 1]
    return top_d[:n], top_s[:n]


@_compiled()
def transpose(doc_ptr, terms, tfs, n_terms):  # type: ignore[no-untyped-def]
    """Document-major postings (per document: term ids and counts) to term-major ones.

    Each term's postings come out in document order: a counting sort, one pass over the input.
    """
    indptr = np.zeros(n_terms + 1, np.int64)
    for p in range(terms.size):
        indptr[terms[p] + 1] += 1
    for t in range(n_terms):
        indptr[t + 1] += indptr[t]
    fill = indptr[:-1].copy()
    docs = np.empty(terms.size, np.int32)
    counts = np.empty(terms.size, np.float32)
    for d in range(doc_ptr.size - 1):
        for p in range(doc_ptr[d], doc_ptr[d + 1]):
            t = terms[p]
            q = fill[t]
            docs[q] = d
            counts[q] = tfs[p]
            fill[t] = q + 1
    return indptr, docs, counts


@_compiled()
def level_weights(indptr, docs, counts, keep, lengths, k1, b):  # type: ignore[no-untyped-def]
    """One clearance level's postings and their BM25 (Lucene) weights.

    Only the documents in ``keep`` count, in the postings and in the statistics (document count,
    average length, document frequency), so a document outside the level cannot move a score.
    Documents are renumbered 0..n-1 in their order among the kept ones.
    """
    n_terms = indptr.size - 1
    local = np.full(keep.size, -1, np.int32)
    n_docs = 0
    total = 0.0
    for d in range(keep.size):
        if keep[d]:
            local[d] = n_docs
            n_docs += 1
            total += lengths[d]
    avg = total / n_docs if n_docs else 1.0
    out_ptr = np.zeros(n_terms + 1, np.int64)
    for t in range(n_terms):
        df = 0
        for p in range(indptr[t], indptr[t + 1]):
            if keep[docs[p]]:
                df += 1
        out_ptr[t + 1] = out_ptr[t] + df
    out_docs = np.empty(out_ptr[n_terms], np.int32)
    out_data = np.empty(out_ptr[n_terms], np.float32)
    for t in range(n_terms):
        df = out_ptr[t + 1] - out_ptr[t]
        if df == 0:
            continue
        idf = np.log(1.0 + (n_docs - df + 0.5) / (df + 0.5))
        q = out_ptr[t]
        for p in range(indptr[t], indptr[t + 1]):
            d = docs[p]
            if keep[d]:
                tf = counts[p]
                norm = k1 * ((1.0 - b) + b * lengths[d] / avg)
                out_docs[q] = local[d]
                out_data[q] = np.float32(idf * (tf / (norm + tf)))
                q += 1
    return out_ptr, out_docs, out_data, n_docs, avg
