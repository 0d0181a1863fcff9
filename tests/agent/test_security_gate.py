"""The deterministic security gate: competitor mentions are found through evasions and refused.

Example tests pin the contract of DOMAIN.md row by row; the hypothesis properties at the bottom
are the heart of the file: a random competitor alias, disguised character by character with a
random composition of evasions and embedded in benign context, must always be found and masked,
while benign text is never refused.
"""

from __future__ import annotations

import functools
import itertools
import unicodedata
from dataclasses import dataclass
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.agent.agent import answer_question
from ragspine.agent.intent import (
    CLARIFY_OUT_OF_SCOPE_ENTITY,
    ROUTE_STRUCTURED,
    ParsedIntent,
    clarify_scope,
    parse_intent,
)
from ragspine.agent.security_gate import (
    SECURITY_ALLOW,
    SECURITY_REFUSE_OUT_OF_SCOPE,
    SecurityGate,
    SecurityScreen,
)
from ragspine.profile import default_profile
from ragspine.profile.periods import FY, Period
from ragspine.storage.fact_store import FactStore
from ragspine.text import fold
from tests.fakes.providers import ExplodingProvider

REF = date(2025, 6, 30)
HOME = "ACME集团"

# The contract, copied from DOMAIN.md (not read from the profile, so the profile is checked too).
COMPETITORS: dict[str, tuple[str, ...]] = {
    "竞安": ("竞安", "竞安集团", "竞安中国", "竞安零售", "JingAn", "Jing An", "JA Retail"),
    "百盛达": ("百盛达", "百盛达集团", "BSD", "BSD Retail"),
    "泽尼斯": ("泽尼斯", "Zenith", "Zenith Retail"),
}
ALIASES: list[tuple[str, str]] = [
    (name, alias)
    for name, aliases in COMPETITORS.items()
    for alias in dict.fromkeys((name, *aliases))
]


@pytest.fixture(scope="module")
def gate() -> SecurityGate:
    return SecurityGate.for_profile(default_profile())


def _gate() -> SecurityGate:
    # For the property tests, which call it directly; the profile memoizes the gate.
    return SecurityGate.for_profile(default_profile())


def _compact(text: str) -> str:
    """The folded, separator-free view the gate matches on."""
    return "".join(c for c in fold(text) if c.isalnum())


def _assert_masked(text: str, screen: SecurityScreen) -> None:
    """Masked text keeps the length, blanks every hit character, and changes nothing else."""
    assert len(screen.masked_text) == len(text)
    inside = {i for h in screen.hits for i in range(h.start, h.end)}
    for i, (orig, masked) in enumerate(zip(text, screen.masked_text, strict=True)):
        assert masked == (" " if i in inside else orig), (text, i)


# --------------------------------------------------------------------------------------------
# The profile carries the contract
# --------------------------------------------------------------------------------------------


def test_profile_carries_every_competitor_alias_of_the_domain_contract() -> None:
    prof = default_profile()
    assert prof.home_company_name == HOME
    declared = {ext.name: set(ext.aliases) | {ext.name} for ext in prof.external_entities}
    for name, aliases in COMPETITORS.items():
        assert name in declared
        assert set(aliases) <= declared[name]


# --------------------------------------------------------------------------------------------
# Examples: every alias, and every evasion class, is detected
# --------------------------------------------------------------------------------------------


ALIAS_ROWS = [
    pytest.param("竞安", "竞安", id="jingan-name"),  # the canonical competitor name
    pytest.param("竞安集团", "竞安", id="jingan-group"),  # CJK alias with a group suffix
    pytest.param("竞安中国", "竞安", id="jingan-cn"),  # alias containing the home alias 中国
    pytest.param("竞安零售", "竞安", id="jingan-retail-zh"),  # CJK retail-arm alias
    pytest.param("JingAn", "竞安", id="jingan-latin"),  # camel-case romanization
    pytest.param("Jing An", "竞安", id="jing-an-spaced"),  # alias that itself has a space
    pytest.param("JA Retail", "竞安", id="ja-retail"),  # two-word Latin alias
    pytest.param("百盛达", "百盛达", id="bsd-name"),  # the canonical competitor name
    pytest.param("百盛达集团", "百盛达", id="bsd-group"),  # CJK alias with a group suffix
    pytest.param("BSD", "百盛达", id="bsd-acronym"),  # three-letter acronym alias
    pytest.param("BSD Retail", "百盛达", id="bsd-retail"),  # acronym plus 'Retail'
    pytest.param("泽尼斯", "泽尼斯", id="zenith-name"),  # the canonical competitor name
    pytest.param("Zenith", "泽尼斯", id="zenith-latin"),  # English name
    pytest.param("Zenith Retail", "泽尼斯", id="zenith-retail"),  # English name plus 'Retail'
]


@pytest.mark.parametrize(("text", "name"), ALIAS_ROWS)
def test_every_domain_alias_is_detected(gate: SecurityGate, text: str, name: str) -> None:
    screen = gate.detect(text)
    assert [h.name for h in screen.hits] == [name]
    assert screen.masked_text == " " * len(text)


def test_the_alias_rows_above_list_every_alias_of_the_contract() -> None:
    # Guards the hand-written rows above against drifting from COMPETITORS.
    assert sorted((name, text) for text, name in (p.values for p in ALIAS_ROWS)) == sorted(ALIASES)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        pytest.param("竞 安", "竞安", id="cjk-space"),  # ASCII space between CJK characters
        pytest.param("竞-安", "竞安", id="cjk-hyphen"),  # hyphen between CJK characters
        pytest.param("竞、安", "竞安", id="cjk-dunhao"),  # CJK enumeration comma as separator
        pytest.param("竞\u3000安", "竞安", id="cjk-ideographic-space"),  # U+3000 full-width space
        pytest.param("百 盛 达", "百盛达", id="cjk-every-gap"),  # a space in every gap
        pytest.param("J.i.n.g.A.n", "竞安", id="latin-dots"),  # a dot after every letter
        pytest.param("J i n g A n", "竞安", id="latin-spaces"),  # a space after every letter
        pytest.param("B_S_D", "百盛达", id="latin-underscores"),  # underscores as separators
        pytest.param("Z/e/n/i/t/h", "泽尼斯", id="latin-slashes"),  # slashes as separators
        pytest.param("ＪｉｎｇＡｎ", "竞安", id="fullwidth"),  # full-width Latin letters
        pytest.param("ＢＳＤ", "百盛达", id="fullwidth-acronym"),  # full-width acronym
        pytest.param("竞\u200b安", "竞安", id="zwsp"),  # U+200B zero-width space
        pytest.param("Jing\u200cAn", "竞安", id="zwnj"),  # U+200C zero-width non-joiner
        pytest.param("Zen\u200dith", "泽尼斯", id="zwj"),  # U+200D zero-width joiner
        pytest.param("B\u2060SD", "百盛达", id="word-joiner"),  # U+2060 word joiner
        pytest.param("泽\ufeff尼斯", "泽尼斯", id="bom"),  # U+FEFF zero-width no-break space
        pytest.param("Jing\u00adAn", "竞安", id="soft-hyphen"),  # U+00AD soft hyphen
        pytest.param("竞\u202a安", "竞安", id="bidi-lre"),  # U+202A left-to-right embedding
        pytest.param("竞\u202b安", "竞安", id="bidi-rle"),  # U+202B right-to-left embedding
        pytest.param("竞\u202c安", "竞安", id="bidi-pdf"),  # U+202C pop directional formatting
        pytest.param("竞\u202d安", "竞安", id="bidi-lro"),  # U+202D left-to-right override
        pytest.param("\u202eJingAn\u202c", "竞安", id="bidi-rlo-wrap"),  # U+202E RLO wrapper
        pytest.param("Zen\u2066ith", "泽尼斯", id="bidi-lri"),  # U+2066 left-to-right isolate
        pytest.param("Zen\u2067ith", "泽尼斯", id="bidi-rli"),  # U+2067 right-to-left isolate
        pytest.param("Zen\u2068ith", "泽尼斯", id="bidi-fsi"),  # U+2068 first-strong isolate
        pytest.param("\u2066BSD\u2069", "百盛达", id="bidi-pdi-wrap"),  # U+2069 closes an isolate
        pytest.param("Jìng Ān", "竞安", id="precomposed-accents"),  # precomposed ì and Ā
        pytest.param("Z\u0301enith", "泽尼斯", id="combining-acute"),  # combining mark after Z
        pytest.param("B\u0336S\u0336D\u0336", "百盛达", id="combining-strike"),  # strikethrough
        pytest.param("𝐙𝐞𝐧𝐢𝐭𝐡", "泽尼斯", id="math-bold"),  # mathematical bold letters
        pytest.param("𝒥𝒾𝓃𝑔𝒜𝓃", "竞安", id="math-script"),  # math script (italic g fills the gap)
        pytest.param("𝔹𝕊𝔻", "百盛达", id="math-double-struck"),  # double-struck letters
        pytest.param("𝘑𝘪𝘯𝘨𝘈𝘯", "竞安", id="math-sans-italic"),  # sans-serif italic letters
        pytest.param("ⓩⓔⓝⓘⓣⓗ", "泽尼斯", id="circled"),  # circled letters
        pytest.param("競安", "竞安", id="traditional-jing"),  # traditional 競 for 竞
        pytest.param("百盛達", "百盛达", id="traditional-da"),  # traditional 達 for 达
        pytest.param("澤尼斯", "泽尼斯", id="traditional-ze"),  # traditional 澤 for 泽
        pytest.param("百盛達集團", "百盛达", id="traditional-group"),  # traditional 達 and 團
        pytest.param("\u0408ing\u0410n", "竞安", id="cyrillic-je-a"),  # Cyrillic Ј and А
        pytest.param("\u0392SD", "百盛达", id="greek-beta"),  # Greek capital Beta for B
        pytest.param("\u0396enith", "泽尼斯", id="greek-zeta"),  # Greek capital Zeta for Z
        pytest.param("Z\u0435nith", "泽尼斯", id="cyrillic-ie"),  # Cyrillic е for e
        pytest.param("jingan", "竞安", id="lowercase"),  # all lower case
        pytest.param("JINGAN", "竞安", id="uppercase"),  # all upper case
        pytest.param("zEnItH", "泽尼斯", id="mixed-case"),  # alternating case
        pytest.param("ja retail", "竞安", id="lowercase-two-words"),  # lower-case two-word alias
        pytest.param(
            "ＪＡ\u200b-\u00adＲｅｔａｉ\u0301ｌ", "竞安", id="stacked"
        ),  # evasions combined
        pytest.param("竞安2024年收入是多少", "竞安", id="in-question-cjk"),  # alias then a year
        pytest.param("Zenith2024年收入是多少", "泽尼斯", id="latin-glued-to-digits"),  # no gap
        pytest.param("FY2024BSD的收入", "百盛达", id="digits-glued-before-latin"),  # no gap
        pytest.param("Zenith_收入是多少", "泽尼斯", id="underscore-after-latin"),  # _ as a gap
        pytest.param("What was Zenith's revenue?", "泽尼斯", id="possessive"),  # English 's
        pytest.param("Compare the BSDs", "百盛达", id="plural"),  # English plural
        pytest.param("ACME和百盛达谁的毛利率高", "百盛达", id="comparison-question"),  # vs. home
        pytest.param("JA Retaiӏ", "竞安", id="cyrillic-palochka-for-l"),  # ӏ folds to i, not l
        pytest.param("JA RetaiI", "竞安", id="capital-i-for-l"),  # ASCII I passes for l
        pytest.param("竞\u3164安", "竞安", id="hangul-filler"),  # U+3164 invisible Hangul filler
        pytest.param("Jing\uffa0An", "竞安", id="halfwidth-hangul-filler"),  # U+FFA0 filler
    ],
)
def test_evasions_are_detected(gate: SecurityGate, text: str, name: str) -> None:
    screen = gate.detect(text)
    assert screen.hits, f"{text!r} got through the gate"
    assert {h.name for h in screen.hits} == {name}
    _assert_masked(text, screen)
    verdict = gate.screen(raw_question=text, metric=None)
    assert verdict.refused
    assert verdict.external_entity == name


# --------------------------------------------------------------------------------------------
# Examples: benign text is never refused
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("静安", id="jingan-district"),  # 静 shares the reading jing, not the glyph
        pytest.param("竞价", id="bidding"),  # shares 竞 only
        pytest.param("安全", id="safety"),  # shares 安 only
        pytest.param("竞争", id="competition"),  # shares 竞 only
        pytest.param("百盛", id="baisheng"),  # a prefix of 百盛达 that is not an alias
        pytest.param("泽尼", id="zeni"),  # a prefix of 泽尼斯 that is not an alias
        pytest.param("Beijing and Shanghai", id="beijing-and"),  # 'jing an' across two words
        pytest.param("research", id="research"),  # shares letters with the aliases, forms none
        pytest.param("absolute", id="absolute"),  # contains b-s but no 'bsd'
        pytest.param("zenithal", id="zenithal"),  # 'zenith' glued into a longer word
        pytest.param("BSDF", id="bsdf"),  # 'BSD' glued into a longer acronym
        pytest.param("FreeBSD", id="freebsd"),  # 'BSD' glued after a Latin word
        pytest.param("Japan retail", id="japan-retail"),  # 'ja' inside a word, then 'retail'
        pytest.param("中国内地FY2024的收入是多少", id="acme-cn-revenue"),  # the seeds' example
        pytest.param("香港2024年上半年毛利率是多少", id="acme-hk-margin"),  # home HK question
        pytest.param("ACME集团去年的净利润", id="acme-group-net-profit"),  # home group question
        pytest.param("东南亚2024Q3同店增长", id="acme-sea-sssg"),  # home SEA question
        pytest.param("台湾线上销售额", id="acme-tw-online"),  # home TW channel question
        pytest.param("静安寺门店的门店数量", id="jingan-temple-stores"),  # a place, not 竞安
        pytest.param("市场竞争加剧的原因是什么", id="competition-narrative"),  # 竞 in a word
        pytest.param("What was Mainland China revenue in FY2024?", id="english-cn"),  # English
        pytest.param("How many stores in Southeast Asia in 2024Q3?", id="english-sea"),  # English
    ],
)
def test_benign_text_is_not_flagged(gate: SecurityGate, text: str) -> None:
    screen = gate.detect(text)
    assert screen.hits == ()
    assert screen.masked_text == text
    verdict = gate.screen(raw_question=text, metric="REVENUE")
    assert verdict.decision == SECURITY_ALLOW
    assert not verdict.refused
    assert verdict.external_entity is None


# --------------------------------------------------------------------------------------------
# Out of reach by design: explicit, commented expectations (move a row up if it starts passing)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        # Latin letters glued onto the alias inside a longer word are deliberately not matched,
        # or 'Beijing and' (b-e-i-JING AN-d) would be refused.
        pytest.param("theJingAn", id="glued-latin-prefix"),
        pytest.param("Zenithal", id="glued-latin-suffix"),
        # An invisible character between a Latin word and the alias is still glue: folding drops
        # it, and what a reader sees is 'aboutJingAn'. Only a visible gap makes a boundary.
        pytest.param("about\u200bJingAn", id="invisible-glue"),
        # Negative-squared and small-capital letters have no Unicode compatibility decomposition,
        # so NFKD-based folding cannot map them to Latin letters.
        pytest.param("🅹🅸🅽🅶🅰🅽", id="negative-squared"),
        pytest.param("ᴊɪɴɢᴀɴ", id="small-capitals"),
        # Variant ideographs that OpenCC's t2s table does not map (竸 is a variant of 競).
        pytest.param("竸安", id="variant-ideograph"),
        # A letter used as a separator is not a separator: katakana ー is a letter (Lm).
        pytest.param("竞ー安", id="letter-as-separator"),
        # Leetspeak digits are not look-alike letters.
        pytest.param("Z3n1th", id="leetspeak"),
    ],
)
def test_documented_out_of_scope_forms_are_not_matched(gate: SecurityGate, text: str) -> None:
    assert gate.detect(text).hits == ()


# --------------------------------------------------------------------------------------------
# '竞安中国' is the competitor, never ACME_CN
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        pytest.param("竞安中国FY2024收入是多少", id="plain"),  # the DOMAIN.md collision case
        pytest.param("競安中國FY2024收入是多少", id="traditional"),  # 競 and 國 traditional
        pytest.param("竞 安 中 国FY2024收入是多少", id="spaced"),  # a space in every gap
        pytest.param("竞\u200b安\u200d中\u00ad国FY2024收入是多少", id="invisible"),  # format chars
    ],
)
def test_jingan_china_is_the_competitor_never_acme_cn(gate: SecurityGate, question: str) -> None:
    screen = gate.detect(question)
    assert [h.name for h in screen.hits] == ["竞安"]
    hit = screen.hits[0]
    span = question[hit.start : hit.end]
    assert _compact(span) == "竞安中国"
    _assert_masked(question, screen)
    assert not set(span.replace(" ", "")) & set(screen.masked_text)
    assert "中" not in screen.masked_text and "国" not in screen.masked_text

    intent = parse_intent(question, REF)
    assert intent.entity is None
    assert intent.entities == []
    assert intent.external_entity == "竞安"
    assert intent.raw_question == question

    clar = clarify_scope(intent, REF)
    assert clar.mode == CLARIFY_OUT_OF_SCOPE_ENTITY


def test_home_cn_next_to_a_competitor_is_still_refused() -> None:
    intent = parse_intent("中国内地和竞安的收入对比", REF)
    assert intent.external_entity == "竞安"
    assert clarify_scope(intent, REF).mode == CLARIFY_OUT_OF_SCOPE_ENTITY


# --------------------------------------------------------------------------------------------
# Masking
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("请问竞安中国和BSD的收入", id="two-competitors"),  # two hits, two masks
        pytest.param("Zenith vs Zenith Retail", id="same-competitor-twice"),  # longest match each
        pytest.param("𝐙𝐞𝐧𝐢𝐭𝐡2024", id="astral-chars"),  # code points outside the BMP
        pytest.param("\u202eJingAn\u202c的门店数", id="bidi-outside-span"),  # wrapper kept
        pytest.param("ＢＳＤ・Ｒｅｔａｉｌ收入", id="fullwidth-two-words"),  # full-width middle dot
    ],
)
def test_masking_keeps_length_and_blanks_every_hit_character(gate: SecurityGate, text: str) -> None:
    screen = gate.detect(text)
    assert screen.hits
    _assert_masked(text, screen)
    spans = [(h.start, h.end) for h in screen.hits]
    assert spans == sorted(spans)
    assert all(a_end <= b_start for (_, a_end), (b_start, _) in itertools.pairwise(spans))


def test_masking_reports_hits_in_order_with_their_names(gate: SecurityGate) -> None:
    screen = gate.detect("请问竞安中国和BSD的收入")
    assert [(h.name, h.start, h.end) for h in screen.hits] == [("竞安", 2, 6), ("百盛达", 7, 10)]
    assert screen.masked_text == "请问" + " " * 4 + "和" + " " * 3 + "的收入"
    assert screen.external_entity == "竞安"


# --------------------------------------------------------------------------------------------
# screen(): the refusal verdict
# --------------------------------------------------------------------------------------------


def test_refusal_decision_is_the_clarify_mode() -> None:
    assert SECURITY_REFUSE_OUT_OF_SCOPE == CLARIFY_OUT_OF_SCOPE_ENTITY == "out_of_scope_entity"


@pytest.mark.parametrize(("name", "alias"), ALIASES, ids=[a for _, a in ALIASES])
def test_screen_refuses_names_home_and_never_echoes_the_competitor(
    gate: SecurityGate, name: str, alias: str
) -> None:
    verdict = gate.screen(raw_question=f"{alias}的收入是多少", metric="REVENUE")
    assert verdict.decision == SECURITY_REFUSE_OUT_OF_SCOPE
    assert verdict.refused
    assert verdict.external_entity == name
    assert verdict.narrowing_options
    assert all(HOME in option for option in verdict.narrowing_options)
    shown = verdict.message + "".join(verdict.narrowing_options)
    for echoed in (name, *COMPETITORS[name]):
        assert _compact(echoed) not in _compact(shown)


def test_screen_allows_home_questions_without_a_message(gate: SecurityGate) -> None:
    verdict = gate.screen(raw_question="中国内地FY2024的收入是多少", metric="REVENUE")
    assert verdict.decision == SECURITY_ALLOW
    assert verdict.message == ""
    assert verdict.narrowing_options == ()


# --------------------------------------------------------------------------------------------
# The gate re-screens raw_question only: a parser cannot talk it out of a refusal
# --------------------------------------------------------------------------------------------

FORGED_QUESTION = "竞安中国FY2024收入是多少"


@dataclass
class BlindParser:
    """An IntentParser that reads 竞安中国 as the home entity ACME_CN and sees no competitor.

    With ``substitute`` set, it also reports a different, harmless raw_question.
    """

    substitute: str | None = None
    calls: int = 0

    def parse(self, question: str, reference_date: date | None = None) -> ParsedIntent:
        self.calls += 1
        fy = Period(FY, "2024")
        return ParsedIntent(
            metric="REVENUE",
            entity="ACME_CN",
            period=fy,
            channel="TOTAL",
            route=ROUTE_STRUCTURED,
            raw_question=self.substitute if self.substitute is not None else question,
            metrics=["REVENUE"],
            entities=["ACME_CN"],
            periods=[fy],
            channels=["TOTAL"],
            external_entity=None,
        )


@pytest.mark.parametrize(
    "substitute",
    [
        pytest.param(None, id="honest-raw-question"),  # parser keeps raw_question, misses 竞安
        pytest.param("中国内地FY2024收入是多少", id="substituted-raw-question"),  # parser lies
        pytest.param("", id="emptied-raw-question"),  # parser blanks raw_question
    ],
)
def test_a_blind_parser_cannot_defeat_the_gate(store: FactStore, substitute: str | None) -> None:
    parser = BlindParser(substitute=substitute)
    result = answer_question(
        FORGED_QUESTION, store, ExplodingProvider(), reference_date=REF, intent_parser=parser
    )
    assert parser.calls == 1
    assert result.clarification.mode == CLARIFY_OUT_OF_SCOPE_ENTITY
    assert result.answer == result.clarification.question
    assert HOME in "".join(result.clarification.narrowing_options)
    assert result.tool_results == []
    assert result.sources == []
    assert "1320" not in result.answer
    assert "竞安" not in result.answer
    if substitute is not None:
        assert result.trace.flags.get("raw_question_restored") is True


def test_clarify_scope_ignores_the_parsers_external_entity() -> None:
    intent = BlindParser().parse(FORGED_QUESTION, REF)
    assert intent.external_entity is None and intent.entity == "ACME_CN"
    assert clarify_scope(intent, REF).mode == CLARIFY_OUT_OF_SCOPE_ENTITY


@pytest.mark.parametrize(
    "question",
    [
        pytest.param(
            "Ｚ\u200be\u0301ｎ𝐢𝐭h 2024年收入是多少", id="stacked-evasions"
        ),  # many at once
        pytest.param("百盛達集團去年的毛利率", id="traditional"),  # traditional forms
        pytest.param("What was \u0408ing\u0410n revenue in FY2024?", id="cyrillic"),  # look-alikes
    ],
)
def test_default_parser_refuses_before_any_llm_call(store: FactStore, question: str) -> None:
    result = answer_question(question, store, ExplodingProvider(), reference_date=REF)
    assert result.clarification.mode == CLARIFY_OUT_OF_SCOPE_ENTITY
    assert result.tool_results == []
    assert result.sources == []


# --------------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------------

SEPARATORS: dict[str, tuple[str, ...]] = {
    "space": (" ", "\u00a0", "\u2003", "\u3000", "\t", "\n"),
    "punctuation": (
        *"-._/*~|'\"()[]+:;!?,",
        *"·・、，。：；！？（）【】《》—…＿＊～",
    ),
    "format": ("\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u180e", "\u2062"),
    "bidi": (
        *(chr(c) for c in range(0x202A, 0x202F)),
        *(chr(c) for c in range(0x2066, 0x206A)),
        "\u200e",
        "\u200f",
        "\u061c",
    ),
    # Invisible Hangul fillers are letters (Lo), but render as nothing.
    "filler": ("\u115f", "\u1160", "\u3164", "\uffa0"),
}
ALL_SEPARATORS = tuple(c for group in SEPARATORS.values() for c in group)
# Separators a reader sees: the only ones that make a word boundary next to Latin context.
VISIBLE_SEPARATORS = SEPARATORS["space"] + SEPARATORS["punctuation"]


def _latin_variants() -> dict[str, tuple[str, ...]]:
    """Every non-ASCII character whose compatibility form is one ASCII letter (exact case).

    Full-width, mathematical bold/italic/script/fraktur/double-struck/sans/monospace, letterlike
    symbols (ℎ, ℬ, K), circled and squared letters, modifier letters and sub/superscripts.
    """
    ranges = [
        (0xFF21, 0xFF5A),  # full-width
        (0x1D400, 0x1D6A3),  # mathematical alphanumerics (Latin part)
        (0x2100, 0x214F),  # letterlike symbols
        (0x24B6, 0x24E9),  # circled letters
        (0x1F130, 0x1F149),  # squared letters
        (0x02B0, 0x02B8),  # modifier letters
        (0x1D2C, 0x1D6A),  # phonetic modifier letters
        (0x2071, 0x209C),  # superscripts and subscripts
    ]
    table: dict[str, list[str]] = {}
    for lo, hi in ranges:
        for code in range(lo, hi + 1):
            char = chr(code)
            base = unicodedata.normalize("NFKD", char)
            if len(base) == 1 and base.isascii() and base.isalpha():
                table.setdefault(base, []).append(char)
    return {k: tuple(v) for k, v in table.items()}


LATIN_VARIANTS = _latin_variants()

# Cyrillic and Greek look-alikes, written by hand (exact case).
LOOKALIKES: dict[str, tuple[str, ...]] = {
    "A": ("\u0410", "\u0391"),  # Cyrillic А, Greek Alpha
    "a": ("\u0430",),  # Cyrillic а
    "B": ("\u0412", "\u0392"),  # Cyrillic В, Greek Beta
    "E": ("\u0415", "\u0395"),  # Cyrillic Е, Greek Epsilon
    "e": ("\u0435",),  # Cyrillic е
    "G": ("\u050c",),  # Cyrillic Komi Sje Ԍ
    "H": ("\u041d", "\u0397"),  # Cyrillic Н, Greek Eta
    "h": ("\u04bb",),  # Cyrillic һ
    "I": ("\u0406", "\u0399", "\u04c0"),  # Cyrillic І, Greek Iota, palochka Ӏ
    "i": ("\u0456",),  # Cyrillic і
    "J": ("\u0408",),  # Cyrillic Ј
    "j": ("\u0458",),  # Cyrillic ј
    "l": ("\u04cf", "\u04c0"),  # palochka ӏ / Ӏ (Unicode folds them to i)
    "N": ("\u039d",),  # Greek Nu
    "d": ("\u0501",),  # Cyrillic ԁ
    "S": ("\u0405",),  # Cyrillic Ѕ
    "s": ("\u0455",),  # Cyrillic ѕ
    "T": ("\u0422", "\u03a4"),  # Cyrillic Т, Greek Tau
    "Z": ("\u0396",),  # Greek Zeta
}

TRADITIONAL: dict[str, tuple[str, ...]] = {
    "竞": ("競",),
    "达": ("達",),
    "泽": ("澤",),
    "团": ("團",),
    "国": ("國",),
}

# Strategies are built once: building them inside each draw is what makes a property slow.
MARKS = st.lists(st.integers(0x0300, 0x036F).map(chr), max_size=2).map("".join)
GAP = st.lists(st.sampled_from(ALL_SEPARATORS), max_size=2).map("".join)
VISIBLE_GAP = st.lists(st.sampled_from(VISIBLE_SEPARATORS), min_size=1, max_size=2).map("".join)
OPTIONAL_VISIBLE_GAP = st.lists(st.sampled_from(VISIBLE_SEPARATORS), max_size=2).map("".join)

# Benign context. A phrase may end with the start of an alias ('百盛', '泽尼') but none starts with
# the rest of one, so no concatenation forms an alias; across Latin words only the gate's word
# boundary keeps 'Beijing' + 'and...' benign. Checked by test_benign_phrases_in_any_order_....
BENIGN: tuple[str, ...] = (
    "中国内地FY2024的收入是多少",
    "香港2024年上半年毛利率",
    "ACME集团去年的净利润",
    "东南亚同店销售增长",
    "台湾线上销售额",
    "静安寺门店数量",
    "竞价广告投放",
    "安全库存政策",
    "市场竞争加剧的原因",
    "百盛",
    "泽尼",
    "请问",
    "对比一下",
    "2024年的收入是多少",
    "FY2024",
    "Beijing and Shanghai",
    "research notes",
    "absolute growth",
    "zenithal projection",
    "BSDF model",
    "FreeBSD",
    "Japan retail",
    "What was revenue in Hong Kong",
    "gross margin by channel",
    "the group's EBIT in 2024Q3",
)
JOINERS = ("", " ", "，", "。", "、", "; ", "\n")


def _is_latin_letter(char: str) -> bool:
    return char.isascii() and char.isalpha()


def _join_phrases(pairs: list[tuple[str, str]]) -> str:
    return "".join(joiner + phrase if k else phrase for k, (joiner, phrase) in enumerate(pairs))


benign_text = st.lists(
    st.tuples(st.sampled_from(JOINERS), st.sampled_from(BENIGN)), max_size=4
).map(_join_phrases)


@functools.cache
def disguised_char(char: str) -> st.SearchStrategy[str]:
    """One alias character under a random composition of per-character evasions.

    A Latin letter: random case, then itself, a full-width / mathematical / letterlike variant,
    or a Cyrillic / Greek look-alike. A CJK character: itself or its traditional form. Then up
    to two combining marks.
    """
    if char.isascii() and char.isalpha():
        options: list[st.SearchStrategy[str]] = []
        for cased in (char.lower(), char.upper()):
            options.append(st.just(cased))
            for table in (LATIN_VARIANTS, LOOKALIKES):
                if cased in table:
                    options.append(st.sampled_from(table[cased]))
        base = st.one_of(options)
    else:
        base = st.sampled_from((char, *TRADITIONAL.get(char, ())))
    return st.tuples(base, MARKS).map("".join)


@dataclass(frozen=True)
class Mention:
    """A disguised alias in benign context; ``core`` indexes the alias's own characters."""

    text: str
    name: str
    alias: str
    core: list[int]
    start: int
    end: int


@st.composite
def disguised_mention(draw: st.DrawFn) -> Mention:
    name, alias = draw(st.sampled_from(ALIASES))
    parts: list[str] = []
    core: list[int] = []
    pos = 0
    letters = alias.replace(" ", "")
    for k, char in enumerate(letters):
        if k:
            gap = draw(GAP)
            parts.append(gap)
            pos += len(gap)
        piece = draw(disguised_char(char))
        core.append(pos)
        parts.append(piece)
        pos += len(piece)
    mention = "".join(parts)
    if draw(st.booleans()):  # wrap the whole mention in a bidi isolate
        mention = "\u2066" + mention + "\u2069"
        core = [p + 1 for p in core]

    left, right = draw(benign_text), draw(benign_text)
    # A Latin end of the alias next to a Latin letter of the context needs a visible gap (glued
    # letters are out of scope by design); elsewhere (CJK, digits, punctuation, the edge of the
    # text) the gap may be empty.
    glue_left = draw(
        VISIBLE_GAP
        if left and _is_latin_letter(left[-1]) and _is_latin_letter(letters[0])
        else OPTIONAL_VISIBLE_GAP
    )
    glue_right = draw(
        VISIBLE_GAP
        if right and _is_latin_letter(right[0]) and _is_latin_letter(letters[-1])
        else OPTIONAL_VISIBLE_GAP
    )
    prefix = left + glue_left
    start, end = len(prefix), len(prefix) + len(mention)
    text = prefix + mention + glue_right + right
    return Mention(text, name, alias, [p + start for p in core], start, end)


@settings(max_examples=300, deadline=None)
@given(case=disguised_mention())
def test_disguised_alias_in_context_is_detected_and_masked(case: Mention) -> None:
    text = case.text
    screen = _gate().detect(text)
    assert screen.hits, f"{text!r} got through the gate"
    for p in case.core:
        covering = [h for h in screen.hits if h.start <= p < h.end]
        assert covering, f"{text[p]!r} at {p} of {text!r} not masked"
        assert covering[0].name == case.name
    _assert_masked(text, screen)
    masked = screen.masked_text
    # Not one letter of the disguised alias survives: what is left of it folds to separators.
    assert _compact(masked[case.start : case.end]) == ""
    # And the mask does not leave the alias readable anywhere, unless the benign context
    # itself spells it ('zenith' in 'zenithal projection').
    key = _compact(case.alias)
    context_only = text[: case.start] + " " * (case.end - case.start) + text[case.end :]
    assert _compact(masked).count(key) <= _compact(context_only).count(key)
    assert _gate().screen(raw_question=text).refused


@settings(max_examples=300, deadline=None)
@given(text=benign_text)
def test_benign_phrases_in_any_order_are_never_flagged(text: str) -> None:
    screen = _gate().detect(text)
    assert screen.hits == (), f"{text!r} flagged as {screen.hits}"
    assert screen.masked_text == text
    assert _gate().screen(raw_question=text).decision == SECURITY_ALLOW


@settings(max_examples=300, deadline=None)
@given(text=st.text())
def test_detect_never_raises_and_keeps_length_on_arbitrary_text(text: str) -> None:
    screen = _gate().detect(text)
    _assert_masked(text, screen)
    spans = [(h.start, h.end) for h in screen.hits]
    assert all(0 <= s < e <= len(text) for s, e in spans)
    assert all(a_end <= b_start for (_, a_end), (b_start, _) in itertools.pairwise(spans))
