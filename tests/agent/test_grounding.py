"""The narrative guard against hostile models: every number held to the passage it cites.

Each attack is a scripted model reply through the provider seam, against fixed passages; the
answer must lose the fabricated number and say a sentence was removed. The correct-answer probes
restate the passages in other notations and must come through untouched.
"""

from __future__ import annotations

import re
from datetime import date

import pytest

from ragspine.agent.agent import answer_question
from ragspine.agent.grounding import REMOVED_MARKER
from ragspine.agent.narrative import NarrativeHit
from ragspine.storage.fact_store import Fact, FactStore
from tests.fakes.providers import ScriptedProvider, text_reply, tool_reply
from tests.fakes.retrievers import FakeRetriever
from tests.pg_stores import Place

REF = date(2025, 6, 30)


def _hit(locator: str, text: str, doc: str = "ACME_FY2024_MDA.md") -> NarrativeHit:
    chunk_id = "c-" + re.sub(r"\W", "-", locator)
    return NarrativeHit(chunk_id=chunk_id, doc_id=doc, locator=locator, text=text, title=doc)


GROUP = _hit(
    "section=1.1,para=1", "2024财年,集团收入为2398百万美元,较上年的2370百万美元增长约1.2%。"
)
CN = _hit(
    "section=1.2,para=1", "FY2024中国内地收入由上年的1400百万美元下降至1320百万美元,降幅约为5.7%。"
)
HK = _hit(
    "section=1.4,para=1",
    "2024年香港收入由410百万美元增至455百万美元,增长约11%,同店销售增长为6.8%。",
)
STORES = _hit("section=1.2,para=2", "年内中国内地净关闭45家门店,年末门店数为540家。")
SHARE = _hit("section=3,para=1", "会员销售占中国内地销售的六成。", doc="ACME_Membership_Program.md")
HITS = [GROUP, CN, HK, STORES, SHARE]

NARRATIVE_Q = "门店网络和会员有什么变化?"
C_GROUP = "(来源:ACME_FY2024_MDA.md section=1.1,para=1)"
C_CN = "(来源:ACME_FY2024_MDA.md section=1.2,para=1)"
C_HK = "(来源:ACME_FY2024_MDA.md section=1.4,para=1)"
C_STORES = "(来源:ACME_FY2024_MDA.md section=1.2,para=2)"
C_SHARE = "(来源:ACME_Membership_Program.md section=3,para=1)"


def _narrate(store: FactStore, reply: str, question: str = NARRATIVE_Q):  # type: ignore[no-untyped-def]
    provider = ScriptedProvider([text_reply(reply)])
    return answer_question(
        question, store, provider, reference_date=REF, narrative_retriever=FakeRetriever(HITS)
    )


@pytest.mark.parametrize(
    ("reply", "fabricated"),
    [
        # an invented percentage under a real citation
        (f"门店关闭使收入下降15%。{C_CN}", "15%"),
        # CJK numerals: 两成, 一百二十家, 大写
        (f"会员销售占两成。{C_SHARE}", "两成"),
        (f"年内净关闭一百二十家门店。{C_STORES}", "一百二十"),
        (f"集团收入为壹仟伍佰百万美元。{C_GROUP}", "壹仟伍佰"),
        # fractions and words
        (f"三分之一的门店被关闭。{C_STORES}", "三分之一"),
        (f"香港收入翻倍。{C_HK}", "翻倍"),
        (f"Hong Kong revenue grew twelve percent. {C_HK}", "twelve percent"),
        # a scale word that changes the value
        (f"香港收入为455亿美元。{C_HK}", "455亿"),
        # superscript and circled digits
        (f"香港收入增长¹²%。{C_HK}", "12%"),
        # digits split by a zero-width character, regrouped by a separator
        (f"门店数为5\u200b4\u200b1家。{C_STORES}", "541"),
        (f"集团收入为2,399百万美元。{C_GROUP}", "2,399"),
        # a sign flipped against the source
        (f"香港收入下降约11%。{C_HK}", "11%"),
        # points for percent
        (f"香港收入增长11个百分点。{C_HK}", "11个百分点"),
        # a number from another passage under a real citation
        (f"门店关闭使收入下降5.7%。{C_STORES}", "5.7%"),
        # a year label used as a value
        (f"门店数为2024家。{C_CN}", "2024家"),
        # a section number used as a value
        (f"集团收入增长1.1%。{C_GROUP}", "1.1%"),
        # a citation of a document that was not retrieved is no citation
        ("集团收入为2500百万美元。(来源:ACME_Secret.md section=1)", "2500"),
        # a forged line in the fact-line format
        (
            "中国内地 FY2024 收入:1,500 百万美元"
            "(来源:ACME_FY2024_Review.pptx · slide=2,table=1,row=REVENUE,col=FY2024)",
            "1500",
        ),
        # no citation at all
        ("集团收入为2398百万美元。", "2398"),
    ],
)
def test_a_fabricated_number_is_removed_with_a_marker(
    store: FactStore, reply: str, fabricated: str
) -> None:
    result = _narrate(store, reply)
    assert fabricated not in result.answer
    assert REMOVED_MARKER in result.answer
    assert result.trace.counts["narrative_numbers_removed"] >= 1
    # the trace counts, it never quotes (its request id is random hex and its timings are
    # measured: both left out, they may hold the digits by chance)
    trace = result.trace.to_dict()
    assert fabricated not in str([trace["codes"], trace["counts"], trace["flags"]])


def test_a_bidi_override_cannot_show_another_number_than_the_one_checked(
    store: FactStore,
) -> None:
    result = _narrate(store, f"香港收入为\u202e554\u202c百万美元。{C_HK}")
    assert "\u202e" not in result.answer and "\u202c" not in result.answer
    assert "554" not in result.answer and REMOVED_MARKER in result.answer


@pytest.mark.parametrize(
    "reply",
    [
        f"集团收入为2,398百万美元。{C_GROUP}",  # thousands regrouped
        f"集团收入约为23.98亿美元。{C_GROUP}",  # another scale, the same value
        f"年末门店数为五百四十家。{C_STORES}",  # CJK numerals for digits
        f"会员销售占中国内地销售的60%。{C_SHARE}",  # 六成 as a percentage
        f"FY2024香港收入由410百万美元增至455百万美元。{C_HK}",  # FY labels are not claims
        f"1. 香港收入增长约11%。{C_HK}\n2. 内地净关闭45家门店。{C_STORES}",  # list numbering
        f"香港收入增长约11%,同店销售增长6.8%。香港表现最好。{C_HK}",  # a shared citation
        "香港收入增长约11%。[3]",  # a citation by snippet number
    ],
)
def test_a_correct_restatement_raises_no_alarm(store: FactStore, reply: str) -> None:
    result = _narrate(store, reply)
    assert REMOVED_MARKER not in result.answer, result.answer
    assert "narrative_numbers_removed" not in result.trace.counts


def test_only_the_offending_sentence_goes(store: FactStore) -> None:
    result = _narrate(store, f"香港收入增长约11%。{C_HK}门店关闭使收入下降15%。{C_CN}")
    assert result.answer.startswith(f"香港收入增长约11%。{C_HK}{REMOVED_MARKER}")
    assert result.trace.counts["narrative_sentences_removed"] == 1


def _composite(store: FactStore, question: str, task: dict[str, str], reply: str):  # type: ignore[no-untyped-def]
    provider = ScriptedProvider([tool_reply({"input": task}), text_reply(""), text_reply(reply)])
    return answer_question(
        question, store, provider, reference_date=REF, narrative_retriever=FakeRetriever(HITS)
    )


CN_2024 = {"metric": "REVENUE", "entity": "ACME_CN", "period": "FY2024"}


def test_the_narrative_half_may_not_give_the_fact_another_value(store: FactStore) -> None:
    # 1400 is in the passage, but for the year before: stated as FY2024's, it contradicts 1320
    reply = f"FY2024中国内地收入为1400百万美元。{C_CN}"
    result = _composite(store, "为什么中国内地FY2024收入下降?", CN_2024, reply)
    number, attribution = result.answer.split("归因分析:")
    assert "1,320 百万美元" in number and "1400" not in attribution
    assert REMOVED_MARKER in attribution


def test_the_narrative_half_may_state_other_years_and_computed_changes(store: FactStore) -> None:
    reply = f"中国内地收入由上年的1400百万美元下降至1320百万美元,降幅约为5.7%。{C_CN}"
    result = _composite(store, "为什么中国内地FY2024收入下降?", CN_2024, reply)
    assert REMOVED_MARKER not in result.answer


def test_the_narrative_half_may_not_answer_what_the_structured_half_could_not_find(
    store: FactStore,
) -> None:
    task = {"metric": "REVENUE", "entity": "ACME_CN", "period": "FY2025"}
    reply = f"FY2025中国内地收入为1320百万美元。{C_CN}"
    result = _composite(store, "为什么中国内地FY2025收入下降?", task, reply)
    assert result.answer.startswith("查不到")
    _, attribution = result.answer.split("归因分析:")
    assert "1320" not in attribution and REMOVED_MARKER in attribution


def test_a_growth_rate_computed_from_two_found_facts_is_supported(store: FactStore) -> None:
    """Both years found in the same answer: their difference and growth need no passage."""
    reply = "香港收入增长约11%,增加45百万美元。"  # cites nothing, and no passage states either
    provider = ScriptedProvider([text_reply(reply)])
    result = answer_question(
        "香港2023和2024年的营收分别是多少?为什么增长?",
        store,
        provider,
        reference_date=REF,
        narrative_retriever=FakeRetriever([STORES]),
    )
    assert [r["status"] for r in result.tool_results] == ["found", "found"]
    assert reply in result.answer and REMOVED_MARKER not in result.answer
    assert len(provider.calls) == 1  # the synthesis call: the multi-period half used no LLM


def test_the_same_reply_without_the_facts_is_removed(store: FactStore) -> None:
    result = _narrate(store, "香港收入增长约11%,增加45百万美元。")
    assert REMOVED_MARKER in result.answer


def test_the_raw_model_text_is_kept_for_audits_but_never_shown(store: FactStore) -> None:
    reply = f"门店关闭使收入下降15%。{C_CN}"
    result = _narrate(store, reply)
    assert result.model_text == reply and "15%" not in result.answer
    assert "15%" not in str(result.to_dict())


@pytest.mark.parametrize(
    "reply",
    [
        f"净关闭4{C_STORES}",  # "净关闭4" stands in the passage, glued to "5家"
        f"年末门店数为54{C_STORES}",  # a prefix of 540 is not a quote of it
        f"2024财年,集团收入为2398百万{C_GROUP}",  # cut before the unit: still the same value
    ],
)
def test_a_quote_cut_inside_a_number_is_not_a_quote(store: FactStore, reply: str) -> None:
    result = _narrate(store, reply)
    shown = "2398百万" in reply
    assert (REMOVED_MARKER in result.answer) is not shown


def test_a_unit_declared_with_its_scale_is_held_at_that_scale(place: Place) -> None:
    """Facts in 万元: a narrative figure in 亿元 is checked at scale against them, as declared
    in the profile, not guessed from the unit's code."""
    from ragspine.evals.audit.findings import audit_answer
    from ragspine.evals.run.runner import slot_names
    from ragspine.profile import DomainProfile

    profile = DomainProfile.model_validate(
        {
            "name": "co",
            "home_company_name": "样例股份有限公司",
            "home_entity_code": "CO",
            "entities": [{"code": "CO", "name_zh": "样例", "aliases": ["样例"]}],
            "units": [{"code": "CNY_10K", "display": "万元", "scale": 10000}],
            "metrics": [
                {"code": "REVENUE", "unit": "CNY_10K", "name_zh": "营业收入",
                 "aliases": ["营业收入", "收入"]},
            ],
        }
    )  # fmt: skip
    store = FactStore(place("facts.db"))
    store.init_schema()
    store.insert_facts(
        [Fact("REVENUE", "CO", "", "TOTAL", "FY", "2020", 158190.56, "CNY_10K", "r.pdf", "p=1")]
    )
    passage = _hit("section=4,para=1", "报告期内营业收入增长主要来自疫苗销量上升。", doc="r.md")
    task = {"metric": "REVENUE", "entity": "CO", "period": "FY2020"}

    def ask(reply: str):  # type: ignore[no-untyped-def]
        provider = ScriptedProvider(
            [tool_reply({"input": task}), text_reply(""), text_reply(reply)]
        )
        return answer_question(
            "为什么样例2020年营业收入增长?", store, provider, reference_date=REF,
            narrative_retriever=FakeRetriever([passage]), profile=profile,
        )  # fmt: skip

    right = ask("样例2020年营业收入约15.82亿元,增长主要来自疫苗销量上升。")
    wrong = ask("样例2020年营业收入约18.5亿元,增长主要来自疫苗销量上升。")
    assert right.answer.startswith("样例 FY2020 营业收入:158,190.56 万元")
    assert REMOVED_MARKER not in right.answer and REMOVED_MARKER in wrong.answer
    # the audit reads the same declaration on its own: the raw wrong reply is caught there too
    names = slot_names(profile)
    assert audit_answer(right.answer, tool_results=right.tool_results, names=names) == []
    raw = wrong.model_text or ""
    assert [f.number for f in audit_answer(raw, tool_results=wrong.tool_results, names=names)]


@pytest.mark.parametrize(
    "reply",
    [
        # text of a document the caller was never given (the RESTRICTED minutes), no number in
        # a form any reader knows: it goes whole
        "董事会已同意就出售台湾业务与优先买方开展为期八周的排他性谈判。"
        "(来源:ACME_Board_Minutes_2024Q4.md section=1.2,para=4)",
        # a citation of a passage that was not retrieved, with no number at all
        "管理层决定暂停东南亚扩张。(来源:ACME_Secret.md section=1)",
    ],
)
def test_a_sentence_citing_a_passage_it_was_never_given_goes_whole(
    store: FactStore, reply: str
) -> None:
    honest = f"香港收入由410百万美元增至455百万美元。{C_HK}"
    result = _narrate(store, f"{honest}\n{reply}")
    assert REMOVED_MARKER in result.answer
    assert reply.split("。")[0] not in result.answer
    assert "香港收入由410百万美元增至455百万美元" in result.answer  # the honest line stays
    assert result.trace.counts["citations_dropped"] == 1
