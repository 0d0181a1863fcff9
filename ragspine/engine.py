"""The one place the engine is wired: fact store, retriever, profile, provider and FAQ, opened
once.

Every entry point (the CLI, the eval runner, the benchmarks, the service) opens an ``Engine``
and asks it questions; none assembles the parts itself. ``Engine.ask`` takes the FAQ route when
the engine has a FAQ cache and it holds a vetted item the question may be served from, and
otherwise calls ``answer_question``, which stays the seeds' lower-level entry point.
"""

from __future__ import annotations

import copy
import logging
import threading
from collections.abc import Callable
from datetime import date
from pathlib import Path
from types import TracebackType
from typing import NamedTuple, Self

from ragspine.agent.agent import AgentResult, answer_question
from ragspine.agent.intent import CLARIFY_NONE, ClarificationResult, IntentParser
from ragspine.agent.question import validate_question
from ragspine.errors import StoreNotFoundError
from ragspine.faq.faq_cache import FaqCache
from ragspine.faq.vetting import source_levels
from ragspine.llm import LiveOptions, LLMProvider, endpoint_of, model_name, resolve
from ragspine.observability import Trace
from ragspine.profile import DomainProfile, default_profile, load_profile
from ragspine.profile.stored import GivenProfile, fill_profile, profile_for
from ragspine.retrieval.index import index_dir_for
from ragspine.retrieval.retriever import HybridRetriever
from ragspine.sensitivity import DEFAULT_CLEARANCE, check_level
from ragspine.storage.fact_store import FactStore
from ragspine.storage.facts_csv import read_facts_csv
from ragspine.store_location import Location, PgLocation, parse_location

logger = logging.getLogger("ragspine.engine")


class Engine:
    """Long-lived and shared: one instance serves every question, from any thread.

    Each question is answered from the stores as they are then: a fact written since is read
    at once, and the search index follows the chunk store (``HybridRetriever.current_index``).
    """

    def __init__(
        self,
        store: FactStore,
        provider: LLMProvider,
        *,
        profile: DomainProfile | None = None,
        retriever: HybridRetriever | None = None,
        intent_parser: IntentParser | None = None,
        corpus: str | Path | PgLocation | None = None,
        faq: FaqCache | None = None,
    ) -> None:
        self.store = store
        self.provider = provider
        self.profile = profile or default_profile()
        self.retriever = retriever
        self.intent_parser = intent_parser
        # A corpus to wire once it exists, when there was none to open.
        self._corpus = parse_location(corpus) if corpus is not None and retriever is None else None
        self._wiring = threading.Lock()
        self._owns_stores = True  # False in an engine from with_provider: it borrows them
        self.faq = faq

    @classmethod
    def open(
        cls,
        db: str | Path | PgLocation,
        corpus: str | Path | PgLocation | None = None,
        *,
        profile: DomainProfile | str | Path | None = None,
        provider: LLMProvider | str = "mock",
        live: LiveOptions | None = None,
        faq: str | Path | PgLocation | None = None,
    ) -> Engine:
        """Open the stores on disk and resolve the provider spec.

        The fact store must exist (``StoreNotFoundError`` says how to build it). Without a
        ``profile`` the engine answers with the one the store remembers (``profile_for``). A
        corpus that is not given or not there leaves the narrative channel unwired: document
        questions then say so (``degraded="narrative_unavailable"``) instead of failing. A
        corpus given but created only later (the first ``ragspine ingest``) is wired by the first
        question asked once its search index exists; until then each question costs one more
        ``stat``. A FAQ cache, when given, must exist too (``ragspine faq add|import`` builds
        one); without it there is no FAQ route.
        """
        # a bad profile is said before a missing store
        given = load_profile(profile) if isinstance(profile, str | Path) else profile
        llm = resolve(provider, live) if isinstance(provider, str) else provider
        store = FactStore(db, create=False)
        cache: FaqCache | None = None
        retriever: HybridRetriever | None = None
        try:
            store.init_schema()
            prof = profile_for(store, given)
            if faq is not None:
                cache = FaqCache(faq, create=False)
                cache.init_schema()
            corpus_path = parse_location(corpus, flag="--corpus") if corpus is not None else None
            retriever = _open_corpus(corpus_path, prof)
            chunks = retriever.store if retriever is not None else None
            if chunks is not None:  # facts from before levels were recorded: their file's
                store.adopt_levels(chunks.document_levels())
            if cache is not None:  # an item is never served above a source it cites
                cache.know_levels(source_levels(store, chunks))
        except BaseException:
            store.close()
            if cache is not None:
                cache.close()
            raise
        return cls(store, llm, profile=prof, retriever=retriever, corpus=corpus_path, faq=cache)

    def with_provider(self, provider: LLMProvider | str, live: LiveOptions | None = None) -> Engine:
        """This engine with another provider (an object, or a spec resolved as ``open`` does):
        the same stores, retriever, FAQ, profile and intent parser, shared, not reopened.

        The new engine borrows the stores: closing it closes nothing, and it answers as long as
        this engine is open (closing this one closes them for both).
        """
        llm = resolve(provider, live) if isinstance(provider, str) else provider
        derived = copy.copy(self)
        derived.provider = llm
        derived._owns_stores = False
        return derived

    @property
    def model(self) -> str | None:
        return model_name(self.provider)

    @property
    def endpoint(self) -> str | None:
        return endpoint_of(self.provider)

    def ask(
        self,
        question: str,
        *,
        reference_date: date | None = None,
        clearance: str = DEFAULT_CLEARANCE,
        rerank: bool = False,
        faq: bool = True,
        trace: Trace | None = None,
    ) -> AgentResult:
        """Answer one question: a vetted FAQ item when ``faq_answer`` finds one, else the agent
        (``answer_question``), whose numbers come only from the fact store.

        ``faq=False`` skips the FAQ step: for a caller that ran ``faq_answer`` itself, with
        the same ``trace`` (the service runs the two on different thread pools).
        """
        trace = trace if trace is not None else Trace()
        if faq:
            hit = self.faq_answer(
                question, reference_date=reference_date, clearance=clearance, trace=trace
            )
            if hit is not None:
                return hit
        return answer_question(
            question,
            self.store,
            self.provider,
            reference_date=reference_date,
            narrative_retriever=self._narrative(),
            intent_parser=self.intent_parser,
            profile=self.profile,
            clearance=clearance,
            rerank=rerank,
            trace=trace,
        )

    def faq_answer(
        self,
        question: str,
        *,
        reference_date: date | None = None,
        clearance: str = DEFAULT_CLEARANCE,
        trace: Trace | None = None,
    ) -> AgentResult | None:
        """The ``faq`` route alone: the vetted item's answer with its own sources, or None.

        A hit touches neither the provider, the fact store nor the retriever. The lookup's
        verdict is the trace's ``faq`` code (``hit``, ``no_match``, ``structured``,
        ``out_of_scope``, ``realtime``, ``expired``, ``disabled``, ``restricted``,
        ``above_clearance``; none when the engine has no FAQ). An item is valid by this
        machine's date, never the caller's ``reference_date``, which only reads the question.
        """
        text = validate_question(question)  # the FAQ reads what the agent would
        check_level(clearance)
        if self.faq is None:
            return None
        trace = trace if trace is not None else Trace()
        with trace.span("faq"):
            found = self.faq.lookup(
                text,
                profile=self.profile,
                clearance=clearance,
                today=date.today(),
                reference_date=reference_date,
            )
        trace.code("faq", found.reason)
        if not found.hit or found.item is None:
            return None
        trace.code("route", "faq")
        trace.code("clearance", clearance)
        trace.count("faq_item", found.item.id)
        trace.emit()
        item = found.item.item
        return AgentResult(
            answer=item.answer,
            route="faq",
            clarification=ClarificationResult(mode=CLARIFY_NONE),
            sources=[{"doc": s.doc, "locator": s.locator} for s in item.sources],
            trace=trace,
            question=text,
            faq_id=found.item.id,
        )

    def _narrative(self) -> HybridRetriever | None:
        """The retriever, wired now if the corpus it waited for has been ingested since."""
        corpus = self._corpus
        if self.retriever is not None or corpus is None:
            return self.retriever
        # Its index is built last, once the store is whole: never open one still being created.
        if not index_dir_for(corpus).is_dir() or not self._wiring.acquire(blocking=False):
            return None
        try:
            if self.retriever is None:
                self.retriever = HybridRetriever.open(corpus, profile=self.profile)
        except Exception:  # still unwired; the next question tries again
            logger.warning("corpus %s could not be opened", corpus, exc_info=True)
        finally:
            self._wiring.release()
        return self.retriever

    def close(self) -> None:
        if not self._owns_stores:
            return
        self.store.close()
        if self.retriever is not None:
            self.retriever.store.close()
        if self.faq is not None:
            self.faq.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _open_corpus(corpus: Location | None, profile: DomainProfile) -> HybridRetriever | None:
    """The corpus's retriever, or None while there is none yet (a file not there, a database
    whose chunk store was never created): the engine wires it once it is (``_narrative``)."""
    if corpus is None or (isinstance(corpus, Path) and not corpus.is_file()):
        return None
    try:
        return HybridRetriever.open(corpus, profile=profile)
    except StoreNotFoundError:
        if isinstance(corpus, Path):
            raise
        return None


def _held(db: str | Path | PgLocation) -> FactStore | None:
    """The fact store at ``db`` opened to read, or None if none was created there yet."""
    location = parse_location(db)
    if isinstance(location, Path) and not location.is_file():
        return None
    try:
        store = FactStore(location, create=False)
    except StoreNotFoundError:
        if isinstance(location, Path):
            raise
        return None
    store.init_schema()
    return store


def profile_in(db: str | Path | PgLocation, given: DomainProfile | None = None) -> DomainProfile:
    """``profile_for`` the store at ``db``, read before anything is written: a store not yet
    created remembers none (the ACME demo's)."""
    if given is not None:
        return given
    store = _held(db)
    if store is None:
        return default_profile()
    with store:
        return profile_for(store)


def profile_override(db: str | Path | PgLocation, profile: str | Path | None) -> str | None:
    """One line when a profile given to a command that reads a store is not the one the store
    remembers (the given one is used); None when it is, or the store remembers none."""
    store = _held(db) if profile is not None else None
    if store is None or profile is None:
        return None
    given = GivenProfile(profile)
    with store:
        record = store.stored_profile()
    if record is None or record.sha256 == given.sha256:
        return None
    return f"{given.differs_from(record, db)}; using {profile}"


def profile_row_check(prof: DomainProfile) -> Callable[[dict[str, str]], tuple[str, str] | None]:
    """A facts file's rows held to a profile: its stored metrics, their units, its entities and
    channels. A derived metric is never loaded: it is computed from its operands."""
    units = {m.code: m.unit for m in prof.metrics}

    def check(row: dict[str, str]) -> tuple[str, str] | None:
        code = row["metric_code"]
        if code not in units:
            derived = " (a derived metric is computed, not loaded)" if prof.derived(code) else ""
            return "metric_code", f"{code!r} is not a stored metric of the profile{derived}"
        if row["unit"] != units[code]:
            return "unit", f"{row['unit']!r} is not {code}'s unit {units[code]!r}"
        if row["entity"] not in prof.entity_codes:
            return "entity", f"{row['entity']!r} is not an entity of the profile"
        if row["channel"] not in prof.channel_codes:
            return "channel", f"{row['channel']!r} is not a channel of the profile"
        return None

    return check


class Loaded(NamedTuple):
    """What ``load_facts`` did: rows loaded, facts in the store, a changed profile's line."""

    loaded: int
    total: int
    note: str | None = None


def load_facts(
    csv_path: str | Path, db: str | Path, *, profile: str | Path | None = None
) -> Loaded:
    """Add a facts CSV to a fact store, all rows or none. The rows are checked against the profile
    given, which the store then remembers, or else against the store's own (``profile_for``).
    Nothing is written, not even a new store, unless every row is good."""
    given = GivenProfile(profile) if profile is not None else None
    prof = profile_in(db, given.profile if given is not None else None)
    rows = read_facts_csv(
        csv_path, check=profile_row_check(prof), default_channel=prof.default_channel
    )
    with FactStore(db) as store:
        store.init_schema()
        n = store.insert_facts(rows)
        note = fill_profile(store, given)[1] if given is not None else None
        return Loaded(n, store.count(), note)
