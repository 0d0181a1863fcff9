"""The synthetic corpus of the retrieval benchmark: deterministic, shaped like real reports.

Text is drawn from the demo corpus's real words and the glossary with a Zipf-like frequency, so
term statistics look like prose, not uniform noise; 80/15/5 % of documents are
PUBLIC/INTERNAL/RESTRICTED, some traditional Chinese, some English, some mixed.
"""

from __future__ import annotations

import random
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import Any

SEED = 20240630
ROOT = Path(__file__).resolve().parents[1]

_GENERIC_ZH = (
    "管理层 经营 业绩 同比 环比 增长 下降 改善 提升 优化 调整 计划 目标 措施 风险 机会 市场 "
    "客流 客单价 库存 周转 采购 供应商 成本 费用 租金 人工 利润 现金流 资本开支 投资 门店 "
    "商品 品类 自有品牌 数字化 系统 流程 培训 员工 顾客 服务 体验 投诉 质量 安全 审计 报告 "
    "季度 年度 区域 城市 商圈 购物中心 社区 渠道 平台 合作 推广 营销 活动 节日 旺季 淡季 "
    "冷链 损耗 能耗 照明 制冷 光伏 回收 评估 审批 授权 数据 系统 权限 备份 合同 租约 续约"
)
_GENERIC_EN = (
    "management performance growth decline improvement target initiative risk opportunity "
    "market traffic basket inventory turnover procurement supplier cost expense rent labour "
    "profit cash capex investment store product category private label digital system process "
    "training staff customer service experience complaint quality safety audit report quarter "
    "annual region city mall community channel platform partnership marketing campaign holiday "
    "peak season cold chain shrinkage energy lighting refrigeration solar recycling review "
    "approval access data backup contract lease renewal"
)
_HEADINGS = (
    "经营概况",
    "收入分析",
    "成本与费用",
    "门店网络",
    "线上业务",
    "风险因素",
    "展望",
    "Overview",
    "Outlook",
    "Key risks",
    "Operations",
    "附录",
)
_TOPICS = ("经营回顾", "管理层讨论与分析", "门店运营报告", "Strategy Update", "Board Paper")
_ENTITIES = ("ACME_GROUP", "ACME_CN", "ACME_HK", "ACME_TW", "ACME_SEA")


@dataclass(frozen=True)
class Vocab:
    """Words with Zipf cumulative weights, so a few words are common and most are rare."""

    zh: list[str]
    zh_cw: list[float]
    en: list[str]
    en_cw: list[float]


def _zipf(words: set[str], rng: random.Random) -> tuple[list[str], list[float]]:
    ordered = sorted(words)
    rng.shuffle(ordered)  # which word is frequent is arbitrary but seeded
    return ordered, list(accumulate(1.0 / (rank + 1) for rank in range(len(ordered))))


def build_vocab(rng: random.Random) -> Vocab:
    """Real words: the demo corpus segmented by rjieba, glossary aliases, generic business terms."""
    import rjieba

    from ragspine.profile import default_profile

    zh: set[str] = set(_GENERIC_ZH.split())
    en: set[str] = set(_GENERIC_EN.split())
    corpus = ROOT / "ragspine" / "demo" / "corpus"
    for path in sorted(corpus.glob("*.*")) if corpus.is_dir() else []:
        text = path.read_text("utf-8")
        for run in re.findall(r"[\u4e00-\u9fff]+", text):
            zh.update(w for w in rjieba.cut(run) if len(w) >= 2)
        en.update(w.lower() for w in re.findall(r"[A-Za-z][A-Za-z-]{2,}", text))
    profile = default_profile()
    groups = [i.aliases for i in (*profile.metrics, *profile.entities, *profile.channels)]
    for alias in (a for g in [*groups, *profile.synonyms] for a in g):
        (en if alias.isascii() else zh).add(alias)
    zh_words, zh_cw = _zipf(zh, rng)
    en_words, en_cw = _zipf(en, rng)
    return Vocab(zh_words, zh_cw, en_words, en_cw)


def _number(rng: random.Random) -> str:
    kind = rng.randrange(5)
    if kind == 0:
        return f"{rng.randint(2019, 2025)}年"
    if kind == 1:
        return f"FY{rng.randint(2019, 2025)}"
    if kind == 2:
        return f"{rng.uniform(-15, 40):.1f}%"
    if kind == 3:
        return f"{rng.randint(3, 2500)}家"
    return f"{rng.randint(10, 9000)}百万美元"


def _sentence(rng: random.Random, v: Vocab, english: bool) -> str:
    if english:
        words = rng.choices(v.en, cum_weights=v.en_cw, k=rng.randint(6, 16))
        if rng.random() < 0.3:
            words.insert(rng.randrange(len(words)), _number(rng).rstrip("年家"))
        return " ".join(words).capitalize() + ". "
    words = rng.choices(v.zh, cum_weights=v.zh_cw, k=rng.randint(4, 12))
    if rng.random() < 0.5:
        words.insert(rng.randrange(len(words)), _number(rng))
    if rng.random() < 0.2:
        words.insert(rng.randrange(len(words)), rng.choice(v.en))
    cut = rng.randrange(1, len(words))
    return "".join(words[:cut]) + "，" + "".join(words[cut:]) + "。"


def synthetic_chunks(count: int, seed: int = SEED) -> Iterator[Any]:
    """``count`` Chunks in documents of 5-40; 80/15/5 % PUBLIC/INTERNAL/RESTRICTED by document."""
    import opencc

    from ragspine.retrieval.chunking.chunk_store import Chunk

    rng = random.Random(seed)
    vocab = build_vocab(rng)
    s2t = opencc.OpenCC("s2t")
    made = doc_no = 0
    while made < count:
        doc_no += 1
        r = rng.random()
        sensitivity = "PUBLIC" if r < 0.80 else "INTERNAL" if r < 0.95 else "RESTRICTED"
        entity = rng.choice(_ENTITIES)
        period = f"FY{rng.randint(2019, 2025)}"
        traditional = entity in ("ACME_HK", "ACME_TW") and rng.random() < 0.5
        english_share = rng.choice((0.0, 0.1, 0.3, 0.9))
        title = f"{entity} {period} {rng.choice(_TOPICS)}"
        doc_id = f"SYN_{doc_no:07d}.md"
        for ord_ in range(min(rng.randint(5, 40), count - made)):
            target = rng.randint(80, 250)
            text = ""
            while len(text) < target - 15:
                text += _sentence(rng, vocab, rng.random() < english_share)
            text = text[:250].strip()
            if traditional:
                text = s2t.convert(text)
            heading = rng.choice(_HEADINGS)
            yield Chunk(
                chunk_id=f"c_{made:09d}",
                doc_id=doc_id,
                ord=ord_,
                source_locator=f"§{ord_ + 1}",
                title=f"{title} › {heading}",
                entity=entity,
                period=period,
                sensitivity=sensitivity,
                text=text,
            )
            made += 1


def write_store(path: Path, chunks: list[Any], generation: int) -> None:
    """Fill a ChunkStore by plain parameterised INSERTs: replace_document wants files, not rows."""
    from ragspine.retrieval.chunking.chunk_store import ChunkStore

    with ChunkStore(path) as store:
        store.init_schema()
    docs: dict[str, tuple[str, ...]] = {}
    for c in chunks:
        docs.setdefault(
            c.doc_id, (c.doc_id, c.title.split(" › ")[0], c.sensitivity, c.entity, c.period)
        )
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA synchronous = OFF")
        with conn:
            conn.executemany(
                "INSERT INTO document (doc_id, title, sensitivity, language, entity, period,"
                " content_hash, source_path) VALUES (?, ?, ?, 'zh', ?, ?, 'syn', 'synthetic')",
                docs.values(),
            )
            conn.executemany(
                "INSERT INTO chunk (chunk_id, doc_id, ord, source_locator, title, entity, period,"
                " sensitivity, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    (
                        c.chunk_id,
                        c.doc_id,
                        c.ord,
                        c.source_locator,
                        c.title,
                        c.entity,
                        c.period,
                        c.sensitivity,
                        c.text,
                    )
                    for c in chunks
                ),
            )
            conn.execute("UPDATE corpus_state SET generation = ? WHERE id = 1", (generation,))
    finally:
        conn.close()
