from __future__ import annotations

import random
from pathlib import Path

import pytest
from rank_bm25 import BM25Okapi

from ragspine.errors import StoreError
from ragspine.retrieval.chunking.chunk_store import Chunk
from ragspine.retrieval.index import CorpusIndex
from ragspine.retrieval.index_files import current_build


def _chunk(i: int, text: str, sensitivity: str = "PUBLIC") -> Chunk:
    return Chunk(f"c{i}", "doc.md", i, f"para={i}", "", "", "", sensitivity, text)


def test_two_document_corpus_ranks_the_matching_one(tmp_path: Path) -> None:
    """BM25Okapi gives a term in half the corpus zero IDF; Lucene's IDF stays positive."""
    chunks = [_chunk(1, "门店关闭 拖累 收入"), _chunk(2, "线上 增长")]
    index = CorpusIndex.build(chunks, tmp_path / "idx", generation=1)
    (ranking,) = index.rank([["关闭"]], "PUBLIC", depth=5)
    assert [cid for cid, _ in ranking] == ["c1"]
    assert ranking[0][1] > 0
    okapi = BM25Okapi([["门店关闭", "拖累"], ["线上", "增长"]])
    assert okapi.get_scores(["拖累"])[0] <= 0  # the failure mode the index avoids


def test_single_term_rankings_agree_with_rank_bm25(tmp_path: Path) -> None:
    """rank-bm25 as an oracle: for one rare term both orderings are the same."""
    rng = random.Random(7)
    vocab = [f"w{i}" for i in range(400)]
    docs = [[rng.choice(vocab) for _ in range(rng.randint(5, 60))] for _ in range(300)]
    chunks = [_chunk(i, " ".join(d)) for i, d in enumerate(docs)]
    index = CorpusIndex.build(chunks, tmp_path / "idx", generation=1)
    oracle = BM25Okapi(docs, k1=1.5, b=0.75)
    for term in ("w3", "w77", "w150", "w399"):
        (ours,) = index.rank([[term]], "PUBLIC", depth=10)
        scores = oracle.get_scores([term])
        expected = sorted(
            (i for i in range(len(docs)) if scores[i] > 0), key=lambda i: (-scores[i], i)
        )
        assert [cid for cid, _ in ours] == [f"c{i}" for i in expected[:10]], term


def test_saved_index_loads_and_knows_its_generation(tmp_path: Path) -> None:
    CorpusIndex.build([_chunk(1, "alpha beta")], tmp_path / "idx", generation=3)
    loaded = CorpusIndex.load(tmp_path / "idx")
    assert loaded.is_current(3) and not loaded.is_current(4)
    assert loaded.rank([["alpha"]], "PUBLIC", 5)[0][0][0] == "c1"


def test_each_clearance_has_its_own_index_and_statistics(tmp_path: Path) -> None:
    """A RESTRICTED chunk is absent below RESTRICTED and does not shift other scores."""
    public = [_chunk(1, "alpha beta"), _chunk(2, "gamma")]
    secret = _chunk(3, "alpha alpha alpha", "RESTRICTED")
    with_secret = CorpusIndex.build([*public, secret], tmp_path / "a", generation=1)
    without = CorpusIndex.build(public, tmp_path / "b", generation=1)
    internal = with_secret.rank([["alpha"]], "INTERNAL", 10)[0]
    assert [c for c, _ in internal] == ["c1"]
    assert internal == without.rank([["alpha"]], "INTERNAL", 10)[0]
    assert [c for c, _ in with_secret.rank([["alpha"]], "RESTRICTED", 10)[0]] == ["c3", "c1"]


def test_a_level_with_no_chunks_returns_nothing(tmp_path: Path) -> None:
    index = CorpusIndex.build([_chunk(1, "alpha", "RESTRICTED")], tmp_path / "idx", generation=1)
    assert index.rank([["alpha"]], "PUBLIC", 5) == [[]]


def test_rebuilding_replaces_the_old_index(tmp_path: Path) -> None:
    CorpusIndex.build([_chunk(1, "alpha")], tmp_path / "idx", generation=1)
    CorpusIndex.build([_chunk(2, "beta")], tmp_path / "idx", generation=2)
    loaded = CorpusIndex.load(tmp_path / "idx")
    alpha, beta = loaded.rank([["alpha"], ["beta"]], "PUBLIC", 5)
    assert alpha == [] and [c for c, _ in beta] == ["c2"]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no leftovers


def test_a_chunk_matching_only_the_querys_figures_is_not_ranked(tmp_path: Path) -> None:
    """ "2019 email" on a report: the year is on every table of the year; only the chunk with the
    word ranks, and the year still orders the ones that have the word."""
    chunks = [
        _chunk(1, "email 2019"),
        _chunk(2, "email 2018"),
        *(_chunk(i, "2019 2019 限售") for i in range(3, 9)),
    ]
    index = CorpusIndex.build(chunks, tmp_path / "idx", generation=1)
    (ranking,) = index.rank([["email", "2019"]], "PUBLIC", depth=5)
    assert [cid for cid, _ in ranking] == ["c1", "c2"]


def _random_corpus(seed: int, n: int, vocab_size: int = 300) -> list[list[str]]:
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(vocab_size)]
    weights = [1 / (r + 1) for r in range(vocab_size)]  # Zipf-like: a few common words
    return [rng.choices(vocab, weights, k=rng.randint(3, 80)) for _ in range(n)]


def test_scores_and_order_equal_bm25s_on_the_same_tokens(tmp_path: Path) -> None:
    """bm25s (Lucene) as the oracle: every query's top 20, scores and order, ties included."""
    import bm25s
    import numpy as np

    docs = _random_corpus(11, 500)
    chunks = [_chunk(i, " ".join(d)) for i, d in enumerate(docs)]
    index = CorpusIndex.build(chunks, tmp_path / "idx", generation=1)
    oracle = bm25s.BM25(method="lucene", k1=1.5, b=0.75)
    oracle.index(docs, show_progress=False)
    rng = random.Random(5)
    for _ in range(60):
        query = rng.choices([f"w{i}" for i in range(320)], k=rng.randint(1, 12))  # some unknown
        (ours,) = index.rank([query], "PUBLIC", depth=20)
        known = [t for t in query if t in oracle.vocab_dict]
        scores = oracle.get_scores(known) if known else np.zeros(len(docs))
        expected = sorted(np.flatnonzero(scores > 0), key=lambda i: (-scores[i], i))[:20]
        assert [c for c, _ in ours] == [f"c{i}" for i in expected], query
        assert [s for _, s in ours] == pytest.approx([scores[i] for i in expected], rel=1e-5)


def test_tokenising_in_worker_processes_builds_the_same_index(tmp_path: Path) -> None:
    """The process pool (used for large corpora) and the in-process path write equal arrays."""
    import json

    import numpy as np

    docs = _random_corpus(3, 700)
    levels = ["PUBLIC", "INTERNAL", "RESTRICTED"]
    chunks = [_chunk(i, "收入 " + " ".join(d), levels[i % 3]) for i, d in enumerate(docs)]
    said: list[str] = []
    CorpusIndex.build(chunks, tmp_path / "one", generation=1, workers=0, progress=said.append)
    CorpusIndex.build(chunks, tmp_path / "pool", generation=1, workers=2, progress=said.append)
    assert [m for m in said if m.startswith("tokenised")] == [
        "tokenised 700 chunks in this process",
        "tokenised 700 chunks in 2 worker processes",
    ]
    one, pool = current_build(tmp_path / "one"), current_build(tmp_path / "pool")
    files = sorted(p.relative_to(one) for p in one.rglob("*.*"))
    assert len(files) == 3 + 4 * 3  # manifest, vocabulary, chunk ids; four arrays per level
    for rel in files:
        a, b = one / rel, pool / rel
        if rel.suffix == ".npy":
            assert np.array_equal(np.load(a), np.load(b)), rel
        elif rel.name == "manifest.json":  # equal but for the build's own id
            in_one, in_pool = json.loads(a.read_text()), json.loads(b.read_text())
            assert in_one.pop("build") != in_pool.pop("build") and in_one == in_pool
        else:
            assert a.read_bytes() == b.read_bytes(), rel


def test_a_damaged_level_is_a_store_error_naming_the_file(tmp_path: Path) -> None:
    CorpusIndex.build([_chunk(1, "alpha")], tmp_path / "idx", generation=1)
    (current_build(tmp_path / "idx") / "PUBLIC" / "data.npy").write_bytes(b"not an array")
    with pytest.raises(StoreError, match="PUBLIC"):
        CorpusIndex.load(tmp_path / "idx").rank([["alpha"]], "PUBLIC", 5)


def _two_builds(tmp_path: Path) -> tuple[Path, Path]:
    a = [_chunk(i, f"alpha w{i}") for i in range(6)]
    b = [_chunk(i, f"beta gamma v{i} u{i}", "INTERNAL") for i in range(9)]
    CorpusIndex.build(a, tmp_path / "a", generation=1)
    CorpusIndex.build(b, tmp_path / "b", generation=2)
    return tmp_path / "a", tmp_path / "b"


def test_an_index_rebuilt_before_its_first_search_is_read_whole_from_the_new_build(
    tmp_path: Path,
) -> None:
    """Term numbers mean other words in another build: what a search reads is all one build."""
    CorpusIndex.build([_chunk(1, "alpha")], tmp_path / "idx", generation=1)
    index = CorpusIndex.load(tmp_path / "idx")  # the manifest only
    CorpusIndex.build([_chunk(7, "beta alpha"), _chunk(8, "beta")], tmp_path / "idx", generation=2)
    assert [c for c, _ in index.rank([["alpha"]], "PUBLIC", 5)[0]] == ["c7"]
    assert index.generation == 2  # the manifest of what it read


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        # a level from another build: its term count does not fit this vocabulary
        ("mix", "terms for a vocabulary"),
        # chunk ids cut short
        ("ids", "rows outside the chunk ids"),
        # an array of the wrong type, which the compiled loops would misread
        ("dtype", "docs is float64"),
        # posting offsets scrambled
        ("indptr", "posting offsets go backwards"),
        # a vocabulary that is not a list of words
        ("vocab", "not a list of strings"),
    ],
)
def test_a_damaged_or_mixed_index_is_a_store_error(
    tmp_path: Path, damage: str, message: str
) -> None:
    import json
    import shutil

    import numpy as np

    index, other = _two_builds(tmp_path)
    a, b = current_build(index), current_build(other)  # the builds' own folders
    level = a / "PUBLIC"
    if damage == "mix":
        shutil.rmtree(level)
        shutil.copytree(b / "PUBLIC", level)
    elif damage == "ids":
        (a / "chunk_ids.json").write_text(json.dumps(["c0"]))
    elif damage == "dtype":
        np.save(level / "docs.npy", np.load(level / "docs.npy").astype(np.float64))
    elif damage == "indptr":
        ptr = np.load(level / "indptr.npy")
        ptr[1] = ptr[-1] + 5
        np.save(level / "indptr.npy", ptr)
    else:
        (a / "vocabulary.json").write_text(json.dumps({"alpha": 0}))
    with pytest.raises(StoreError, match=message):
        CorpusIndex.load(index).rank([["alpha"]], "PUBLIC", 5)


def test_threads_searching_first_at_once_all_get_the_answer(tmp_path: Path) -> None:
    """The service's threads share one index: its first load happens once, for all of them."""
    from concurrent.futures import ThreadPoolExecutor

    chunks = [_chunk(i, " ".join(d)) for i, d in enumerate(_random_corpus(2, 300))]
    CorpusIndex.build(chunks, tmp_path / "idx", generation=1)
    expected = CorpusIndex.load(tmp_path / "idx").rank([["w1", "w7"]], "INTERNAL", 5)
    index = CorpusIndex.load(tmp_path / "idx")
    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(lambda _: index.rank([["w1", "w7"]], "INTERNAL", 5), range(32)))
    assert got == [expected] * 32


def test_the_number_of_tokenising_processes_can_be_set_and_a_bad_one_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ragspine.retrieval.postings import default_workers

    monkeypatch.setenv("RAGSPINE_INDEX_WORKERS", "0")
    assert default_workers(10**6) == 0
    monkeypatch.setenv("RAGSPINE_INDEX_WORKERS", "many")
    with pytest.raises(StoreError, match="RAGSPINE_INDEX_WORKERS='many'"):
        default_workers(10**6)
