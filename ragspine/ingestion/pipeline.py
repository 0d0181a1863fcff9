"""One file at a time: read it, map its tables to facts, cut its text into chunks, then write.

A file's facts take its sensitivity (``--sensitivity``, or what the file says of itself), as its
chunks do; the same file given again at another level is a change, never skipped as unchanged.

Everything is read and mapped before anything is written, and the write is one transaction over
both SQLite files (the chunk store attached to the fact store's connection), so a file that fails,
or a process killed mid-write, leaves both stores as they were. A file whose content hash is
unchanged in both stores is skipped; a changed one replaces its own facts (the old ones kept in the
fact history) and its own chunks.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ragspine.errors import DatabaseError, IngestError, StoreError
from ragspine.ingestion.cache import DocumentCache
from ragspine.ingestion.cache import file_digest as file_hash
from ragspine.ingestion.doc_period import cover_period
from ragspine.ingestion.drops import STATED_ELSEWHERE, Conflict, Reading, Unmapped
from ragspine.ingestion.isolated import read_file, read_here
from ragspine.ingestion.limits import FileLimits
from ragspine.ingestion.tables import TableMapper
from ragspine.ingestion.text import reader_for
from ragspine.profile import DomainProfile
from ragspine.profile.periods import Period
from ragspine.readers import FileContent
from ragspine.retrieval.chunking.chunk_store import ChunkStore
from ragspine.retrieval.chunking.chunker import CHUNKER_VERSION, ChunkDraft, split_long
from ragspine.retrieval.doc_periods import as_period
from ragspine.retrieval.documents import Document, DocumentMeta
from ragspine.sensitivity import DEFAULT_CLEARANCE, check_level
from ragspine.storage.fact_store import Fact, FactStore
from ragspine.text import fold

ADDED, REPLACED, UNCHANGED = "added", "replaced", "unchanged"

Progress = Callable[[str, int, int], None]  # (file, done, total) pages or slides
# Files read for their tables: one without any is refused, not ingested as text alone.
TABLE_SOURCES = {".xlsx": "sheets", ".pptx": "slides"}


@dataclass
class FileReport:
    doc_id: str
    outcome: str
    chunks: int = 0
    facts: int = 0
    superseded: int = 0
    unmapped: list[Unmapped] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    period: str = ""  # the document's period label (FY2020), or "" when it names none


@dataclass
class Extracted:
    document: Document
    drafts: list[ChunkDraft]
    content: FileContent


def extract(
    path: Path,
    *,
    sensitivity: str | None = None,
    progress: Progress | None = None,
    limits: FileLimits | None = None,
    period: str | None = None,
    cache: DocumentCache | None = None,
) -> Extracted:
    """Read any supported file: its chunks (text blocks) and its tables, nothing written.
    With ``limits`` it is read in a child process under them (``ingestion.isolated``), or taken
    from ``cache`` if its bytes were read before; either way, anything the parser raises is a
    ReadError in one line. Its period: ``period`` (a label), else what its front matter says,
    else what its cover names (``doc_period``)."""
    reader = reader_for(path)
    if reader is None:
        raise IngestError(f"{path}: no reader for {path.suffix or 'files without a suffix'}")
    pages = None if progress is None else lambda done, total: progress(path.name, done, total)
    if limits is None:
        content = read_here(path, reader, pages)
    else:
        content = read_file(path, reader, limits, pages, cache)
    if not content.blocks and not content.tables:
        what = "no text layer (a scanned PDF?)" if path.suffix.lower() == ".pdf" else "no text"
        raise IngestError(f"{path}: nothing to ingest: {what} and no tables")
    if path.suffix.lower() in TABLE_SOURCES and not content.tables:
        raise IngestError(
            f"{path}: no tables in {content.units} {TABLE_SOURCES[path.suffix.lower()]}: a "
            "deck or workbook is ingested for its tables' figures (put prose in .docx, .md or .pdf)"
        )
    meta = DocumentMeta.model_validate(
        {"title": path.stem, "sensitivity": DEFAULT_CLEARANCE} | content.meta
    )
    if sensitivity is not None:
        meta = meta.model_copy(update={"sensitivity": sensitivity})
    if period is not None or not meta.period:
        cover = cover_period(content)
        meta = meta.model_copy(update={"period": period or (cover.label if cover else "")})
    markdown = path.suffix.lower() in (".md", ".markdown")
    document = Document(path.name, path, meta, "", chunks_hash(file_hash(path)), markdown=markdown)
    return Extracted(document, drafts_of(content), content)


def drafts_of(content: FileContent) -> list[ChunkDraft]:
    """A chunk per text block; a block longer than a chunk is split at sentences (part=N)."""
    drafts: list[ChunkDraft] = []
    for block in content.blocks:
        pieces = split_long(block.text)
        for i, piece in enumerate(pieces, start=1):
            locator = block.locator if len(pieces) == 1 else f"{block.locator},part={i}"
            drafts.append(ChunkDraft(locator, block.heading, piece))
    return drafts


_COMPANY_CODE = re.compile(r"(?:公司代码|股票代码|证券代码)\s*[:：]\s*(\d{6})")
_COMPANY_NAME = re.compile(r"(?:公司简称|股票简称|证券简称)\s*[:：]\s*(\S+)")


def _check_company(path: Path, content: FileContent, profile: DomainProfile) -> None:
    """A report that names its company (公司代码：603339 公司简称：四方科技) must name the
    profile's: its figures are never filed under the home company's name."""
    from ragspine.profile.glossary import glossary_for

    glossary = glossary_for(profile)

    def known(name: str) -> bool:  # a short name may run into the next words: 四方科技四方科技集团…
        found = glossary.entities.find_all(fold(name))
        return glossary.normalize_entity(name) is not None or bool(found and found[0].start == 0)

    for block in content.blocks[:20]:
        for pattern in (_COMPANY_CODE, _COMPANY_NAME):
            m = pattern.search(block.text)
            if m and not known(m.group(1)):
                raise IngestError(
                    f"{path}: {block.locator}: the document is about 「{m.group(1)}」, which the "
                    f"profile does not know; its figures are not {profile.home_company_name}'s "
                    "(use that company's profile)"
                )


def chunks_hash(digest: str) -> str:
    """What the chunk store records: the file, and the chunker that cut it."""
    return f"sha256:{digest}/chunker-{CHUNKER_VERSION}"


def ingest_file(
    path: Path,
    *,
    chunks: ChunkStore | None,
    facts: FactStore | None,
    profile: DomainProfile,
    sensitivity: str | None = None,
    progress: Progress | None = None,
    limits: FileLimits | None = None,
    period: str | None = None,
    cache: DocumentCache | None = None,
) -> FileReport:
    """Ingest one file into both stores (or the one given), in one transaction over both; a
    file both stores already hold at this content hash is skipped. ``limits``: see
    ``ingestion.limits`` (None: a trusted file, read in this process without limits).
    ``period``: the document's period label, over what it says of itself (``extract``)."""
    if limits is not None:
        limits.check(path)  # before its bytes are even hashed
    digest = file_hash(path) if path.is_file() else ""
    held = [s.content_hash(path.name) == chunks_hash(digest) for s in (chunks,) if s is not None]
    held += [s.source_hash(path.name) == digest for s in (facts,) if s is not None]
    if sensitivity is not None:  # the same file at another level is a change: its facts follow
        held += [s.document_levels().get(path.name) == sensitivity for s in (chunks,) if s]
        held += [s.levels_of(path.name) <= {sensitivity} for s in (facts,) if s is not None]
    if period is not None:  # so is the same file given another period
        held += [s.document_periods().get(path.name) == period for s in (chunks,) if s]
    if digest and all(held):
        known = chunks.document_periods().get(path.name, "") if chunks is not None else ""
        return FileReport(path.name, UNCHANGED, period=known)
    previous = (chunks.content_hash(path.name) if chunks is not None else None) or (
        facts.source_hash(path.name) if facts is not None else None
    )
    extracted = extract(
        path,
        sensitivity=sensitivity,
        progress=progress,
        limits=limits,
        period=period,
        cache=cache,
    )
    doc = extracted.document
    report = FileReport(doc.doc_id, ADDED if previous is None else REPLACED, period=doc.meta.period)
    own: list[Fact] = []
    if facts is not None:
        _check_company(path, extracted.content, profile)
        mapper = TableMapper(
            profile,
            doc.doc_id,
            digest,
            profile.home_entity_code,
            report_year=_year_of(doc.meta.period),
            mapping_version=mapping_version(profile),
        )
        mapped = mapper.map(extracted.content.tables)
        level = doc.meta.sensitivity  # a figure is as sensitive as the file that states it
        leveled = [replace(f, sensitivity=level) for f in mapped.facts]
        own, elsewhere = _stated_elsewhere(facts, doc.doc_id, leveled)
        report.unmapped = mapped.unmapped
        report.conflicts = elsewhere + mapped.conflicts  # with another file first
    if facts is not None and chunks is not None:
        try:
            with facts.joined(chunks) as conn, conn:  # both files change together or neither
                report.facts, report.superseded = facts.replace_source_in(
                    conn, doc.doc_id, own, file_hash=digest
                )
                report.chunks = chunks.replace_document_in(conn, doc, extracted.drafts)
        except DatabaseError as exc:
            # each place once: on PostgreSQL both stores are one database
            where = ", ".join(dict.fromkeys(str(p) for p in (facts.path, chunks.path)))
            raise StoreError(f"{path}: not written ({where}): {exc}") from exc
    elif facts is not None:
        report.facts, report.superseded = facts.replace_source(doc.doc_id, own, file_hash=digest)
    elif chunks is not None:
        report.chunks = chunks.replace_document(doc, extracted.drafts)
    return report


def _year_of(label: str) -> int | None:
    """The year a report's 本期 / 上期 columns count from: its period's."""
    period = as_period(label)
    return period.year if period is not None else None


def report_year(content: FileContent) -> int | None:
    """``_year_of`` a file read without ``--period`` (``profile check``/``draft`` map its tables
    as ``ingest`` does): its front matter's period, else its cover's."""
    stated = as_period(str(content.meta.get("period") or "")) or cover_period(content)
    return stated.year if stated is not None else None


def _stated_elsewhere(
    store: FactStore, doc_id: str, mapped: list[Fact]
) -> tuple[list[Fact], list[Conflict]]:
    """A fact another file already states stays that file's: the same value is left as it is;
    another value is reported with both readings, never stored over it."""
    own: list[Fact] = []
    conflicts: list[Conflict] = []
    for fact in mapped:
        other = store.lookup(
            metric_code=fact.metric_code,
            entity=fact.entity,
            period_type=fact.period_type,
            period=fact.period,
            channel=fact.channel,
        )
        if other is None or other.source_doc_id == doc_id:
            own.append(fact)
        elif other.exact != fact.exact:
            kept = Reading(other.source_doc_id, other.source_locator, f"{other.exact}")
            dropped = Reading(doc_id, fact.source_locator, f"{fact.exact}")
            period = Period(fact.period_type, fact.period).label
            conflicts.append(
                Conflict(
                    fact.metric_code, fact.entity, period, fact.unit, kept, dropped,
                    STATED_ELSEWHERE,
                )
            )  # fmt: skip
    return own, conflicts


def mapping_version(profile: DomainProfile) -> str:
    """Which profile mapped a fact: its name and a digest of its metrics' names and units."""
    words = sorted(f"{m.code}:{m.unit}:{'|'.join(m.aliases)}" for m in profile.metrics)
    digest = hashlib.sha256("\n".join(words).encode("utf-8")).hexdigest()[:12]
    return f"{profile.name}@{digest}"


@dataclass
class RunReport:
    files: list[FileReport] = field(default_factory=list)
    index_rebuilt: bool = False

    def count(self, outcome: str) -> int:
        return sum(1 for f in self.files if f.outcome == outcome)


def rebuild_index(chunks: ChunkStore) -> bool:
    """Rebuild the search index if the corpus changed since it was built."""
    from ragspine.retrieval.index import refresh_index

    return refresh_index(chunks)[1]


def ingest_paths_all(
    paths: list[Path],
    *,
    chunks: ChunkStore,
    facts: FactStore | None,
    profile: DomainProfile,
    sensitivity: str | None = None,
    progress: Progress | None = None,
    on_file: Callable[[FileReport], None] | None = None,
    limits: FileLimits | None = None,
    period: str | None = None,
    cache: DocumentCache | None = None,
) -> RunReport:
    """Files of every supported kind into chunks and facts, one file and one transaction at a
    time (text files are all checked before the first is written), then the search index once.
    ``period``: every file's period label (``ingest --period``), over what each says."""
    from ragspine.readers import BINARY_SUFFIXES
    from ragspine.retrieval.documents import SUPPORTED_SUFFIXES, load_document

    if sensitivity is not None:
        try:
            check_level(sensitivity)
        except ValueError as exc:
            raise IngestError(str(exc)) from None
    files = expand(paths, (*SUPPORTED_SUFFIXES, *BINARY_SUFFIXES))
    seen: dict[str, Path] = {}
    for path in files:
        if limits is not None:
            limits.check(path)  # a file over a limit fails before anything is written
        if path.suffix.lower() in SUPPORTED_SUFFIXES:
            load_document(path, sensitivity=sensitivity)  # a bad text file fails before writing
        if path.name in seen:
            raise IngestError(f"{path}: same document id as {seen[path.name]} ({path.name})")
        seen[path.name] = path
    from ragspine.retrieval.index import refresh_index, writing

    run = RunReport()
    with writing(chunks):  # a running service keeps its index until the whole batch is in
        for path in files:
            report = ingest_file(
                path,
                chunks=chunks,
                facts=facts,
                profile=profile,
                sensitivity=sensitivity,
                progress=progress,
                limits=limits,
                period=period,
                cache=cache,
            )
            run.files.append(report)
            if on_file:
                on_file(report)
        run.index_rebuilt = refresh_index(chunks, held=True)[1]
    if facts is not None:  # facts from before levels were recorded take their file's
        facts.adopt_levels(chunks.document_levels())
    return run


def expand(paths: list[Path], suffixes: tuple[str, ...]) -> list[Path]:
    """Files as given, and the supported files inside any folder, in a stable order."""
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out.extend(sorted(f for f in p.rglob("*") if f.suffix.lower() in suffixes))
        elif p.exists():
            if p.suffix.lower() not in suffixes:
                raise IngestError(f"{p}: cannot ingest {p.suffix or 'a file without a suffix'}")
            out.append(p)
        else:
            raise IngestError(f"{p}: no such file or folder")
    return out
