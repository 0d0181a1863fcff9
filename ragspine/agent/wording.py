"""Every phrase an answer says in words, in each language an answer is given in, in one place.

An answer is written in the question's language (``language_of``, decided once per question):
a question with no Chinese character is answered in English, any other in Chinese. Only the
words change with it: the figures, their rounding, the sources and their locators are the same
in both, and names come from the profile (``names.py``). A Chinese answer's text is what it has
always been; each message here is keyed by an id and holds one template per language, with the
same fields in both (a test pins that).
"""

from __future__ import annotations

import re
from typing import Literal

Language = Literal["zh", "en"]
ZH: Language = "zh"
EN: Language = "en"

_CJK = re.compile(r"[\u4e00-\u9fff]")


def language_of(question: str) -> Language:
    """English where the question holds no Chinese character (What was HK revenue in FY2024?),
    else Chinese (simplified or traditional: 香港2024年的收入, 台灣的營收)."""
    return ZH if _CJK.search(question) else EN


_NO_GUESS_ZH = "为避免误导,不提供任何推测数字。"
_NO_GUESS_EN = "No number is given, to avoid misleading."

MESSAGES: dict[str, dict[Language, str]] = {
    # -- a found fact, a derived metric and its operands (render.py) ---------------------------
    # what a figure is of: the entity (with its trailing space, or nothing), the period, the
    # metric, its channel (channel.*); a balance is at the period's end
    "what.flow": {
        ZH: "{entity}{period} {metric}{channel}",
        EN: "{entity}{period} {channel}{metric}",
    },
    "what.balance": {
        ZH: "{entity}{period}末 {metric}{channel}",
        EN: "{entity}{channel}{metric} at the end of {period}",
    },
    "channel": {ZH: "({name})", EN: "{name} "},
    "fact": {ZH: "{what}:{amount}{cite}", EN: "{what}: {amount}{cite}"},
    "in_scale": {ZH: "{amount},即 {converted}", EN: "{amount}, i.e. {converted}"},
    "cite": {ZH: "(来源:{doc} · {locator})", EN: " (source: {doc} · {locator})"},
    "derived": {
        ZH: "{what}:{amount}(由公式计算:{formula})",
        EN: "{what}: {amount} (computed: {formula})",
    },
    "operand": {ZH: "  其中 {what}:{amount}{cite}", EN: "  where {what}: {amount}{cite}"},
    # an operand as its formula names it: 上年收入, 集团收入, 收入(线上) / prior-year revenue,
    # ACME Group revenue, online revenue (``whose``: the entity the formula fixes, or nothing)
    "formula.name": {ZH: "{whose}{metric}{channel}", EN: "{whose}{channel}{metric}"},
    "whose": {ZH: "{name}", EN: "{name} "},
    "lag": {ZH: "上年{name}", EN: "prior-year {name}"},  # an operand of the prior period
    "points": {ZH: "{value} 个百分点", EN: "{value} percentage points"},
    # -- two periods, several entities (render.py, ranks.py, change_answers.py) ----------------
    "difference": {
        ZH: "{entity} {metric}{channel} {later} 较 {earlier} 变化:{amount}(由上述数值计算)",
        EN: "{entity} {channel}{metric} change, {later} vs {earlier}: {amount} "
        "(computed from the figures above)",
    },
    "rank": {
        ZH: "{period} {metric}{word}:{entity} {amount}(比较上述各实体的数值)",
        EN: "{period} {word} {metric}: {entity} {amount} (comparing the figures above)",
    },
    "period_extreme": {
        ZH: "{entity} {metric}{word}:{periods} {amount}(比较上述各期的数值)",
        EN: "{entity} {word} {metric}: {periods} {amount} (comparing the figures above)",
    },
    "rank.highest": {ZH: "最高", EN: "highest"},
    "rank.lowest": {ZH: "最低", EN: "lowest"},
    "rank.higher": {ZH: "较高", EN: "higher"},
    "rank.lower": {ZH: "较低", EN: "lower"},
    "change.what": {
        ZH: "{entity} {metric}{channel} {later} 较 {earlier} 的变化",
        EN: "the change in {entity} {channel}{metric} from {earlier} to {later}",
    },
    "change.incomparable": {
        ZH: "查不到:{what} 无法计算:两个期间不可比,不以其中一个期间的数值代替。",
        EN: "Not found: {what} cannot be computed: the two periods are not comparable, and "
        "neither period's figure is given in its place.",
    },
    # -- a miss, a parameter not read ----------------------------------------------------------
    "not_found.what": {
        ZH: "{entity} {period} {metric}{channel}",
        EN: "{entity} {period} {channel}{metric}",
    },
    "period.said": {ZH: "({words})", EN: " ({words})"},
    "not_found": {
        ZH: "查不到:{what} 未在事实表中找到。",
        EN: "Not found: {what} is not in the fact table.",
    },
    "not_found.missing": {
        ZH: "查不到:{what} 无法计算,缺少{parts}的数据。",
        EN: "Not found: {what} cannot be computed; there is no figure for {parts}.",
    },
    "missing.part": {ZH: "{period} {metric}", EN: "{period} {metric}"},
    "not_found.tail": {
        ZH: "为避免误导,不提供任何推测数字;可尝试调整期间或实体后重问。",
        EN: "No number is given, to avoid misleading; you may ask again with another period or "
        "entity.",
    },
    "no_guess": {ZH: _NO_GUESS_ZH, EN: _NO_GUESS_EN},
    "list": {ZH: "、", EN: ", "},
    "list.more": {ZH: "等", EN: " and others"},
    "unrecognized": {
        ZH: "无法识别参数 {param}{shown},未进行查询。{hint}",
        EN: "Parameter {param}{shown} not recognised: nothing was queried.{hint}",
    },
    "user_words": {ZH: "「{words}」", EN: " “{words}”"},  # the user's own words, quoted back
    "hint.period": {
        ZH: "期间请写作财年、半年或季度。",
        EN: " Write the period as a fiscal year, half year or quarter.",
    },
    "hint.metric": {
        ZH: "支持的指标如:{names}。",
        EN: " Metrics that can be asked about include: {names}.",
    },
    "hint.entity": {ZH: "支持的实体:{names}。", EN: " Entities that can be asked about: {names}."},
    "hint.channel": {ZH: "支持的渠道:{names}。", EN: " Channels that can be asked about: {names}."},
    # -- the agent (agent.py) ------------------------------------------------------------------
    "provider_unavailable": {
        ZH: "AI 服务暂时不可用,请稍后重试。为避免误导,本次不提供任何数字或推测。",
        EN: "The AI service is unavailable for now; please try again later. No number or guess "
        "is given this time, to avoid misleading.",
    },
    "no_query": {
        ZH: "无法确定要查询的指标、实体和期间,因此不作回答;为避免误导,不提供任何推测数字。",
        EN: "The metric, entity and period to look up could not be determined, so nothing is "
        "answered; no number is guessed, to avoid misleading.",
    },
    "attribution": {ZH: "归因分析:", EN: "Attribution analysis:"},
    # -- the clarification gateway (clarify.py, security_gate.py) ----------------------------
    "outside_company": {
        ZH: "抱歉,该问题涉及外部公司,超出本系统的回答范围:这里只回答 {home} 自身的经营数据与文档,"
        "不提供任何外部公司的信息或推测。",
        EN: "Sorry, the question concerns an outside company, which is beyond what this system "
        "answers: it answers only about {home}'s own operating data and documents, and gives no "
        "information about, or guess at, any outside company.",
    },
    "outside_company.option": {ZH: "改问 {home} 的{topic}", EN: "ask about {home}'s {topic}"},
    "outside_company.topic": {ZH: "经营数据", EN: "operating data"},
    "not_covered.ranking": {
        ZH: "跨公司的排名或比较不在本系统范围内:RAGSpine 只覆盖{home}的数据与文档。为避免误导,"
        "不提供任何数字。",
        EN: "A ranking or comparison across companies is beyond this system: RAGSpine covers "
        "only {home}'s data and documents. No number is given, to avoid misleading.",
    },
    "not_covered": {
        ZH: "「{name}」不在本系统的覆盖范围内:RAGSpine 只覆盖{home}的数据与文档,不会用{home}的"
        "数字代替。为避免误导,不提供任何数字。",
        EN: "“{name}” is not covered by this system: RAGSpine covers only {home}'s data and "
        "documents, and does not give {home}'s figures in its place. No number is given, to "
        "avoid misleading.",
    },
    "declined.quantity": {
        ZH: "「{name}」不在事实表中:没有这个指标的数据,也不会用其他指标的数字代替。为避免误导,"
        "不提供任何数字。可查询的指标如:{names}。",
        EN: "“{name}” is not in the fact table: {home} holds no figure for it, and no other "
        "metric's figure is given in its place. No number is given, to avoid misleading. "
        "Metrics that can be asked about: {names}.",
    },
    "declined.line": {
        ZH: "「{name}」不在事实表中,不提供其数字。",
        EN: "“{name}” is not in the fact table: no figure is given for it.",
    },
    "unknown_subject": {
        ZH: "「{name}」不是事实表中的实体:事实表只有{shown}的数据,不会用{home}或其他实体的"
        "数字代替。为避免误导,不提供任何数字。",
        EN: "“{name}” is not an entity in the fact table, which holds figures for {shown} only; "
        "the figure of {home} or of another entity is not given in its place. No number is "
        "given, to avoid misleading.",
    },
    "unranked": {
        ZH: "「{words}」无法排名:事实表只有{home}整体的数据,没有可比较的各部分数字,不会用{home}"
        "本身的数字代替。为避免误导,不提供任何数字。",
        EN: "“{words}” cannot be ranked: the fact table holds figures for {home} as a whole "
        "only, no part of it to compare, and the company's own figure is not given in its "
        "place. No number is given, to avoid misleading.",
    },
    "unbroken": {
        ZH: "「{words}」无法分开给出:事实表只有{home}整体的数据,没有按地区或分部的数字,不会用"
        "{home}整体的数字代替。为避免误导,不提供任何数字。",
        EN: "“{words}” cannot be given part by part: the fact table holds figures for {home} as "
        "a whole only, none by region or segment, and the company's own figure is not given in "
        "its place. No number is given, to avoid misleading.",
    },
    "described.declined": {
        ZH: "「{words}」无法确定是哪一个:事实表只有{shown}的数据,没有据以确定它的数字,不会用{home}"
        "或其他实体的数字代替。为避免误导,不提供任何数字。",
        EN: "“{words}” cannot be told from the fact table, which holds figures for {shown} only "
        "and none that picks it; the figure of {home} or of another entity is not given in its "
        "place. No number is given, to avoid misleading.",
    },
    "described.pick": {
        ZH: "「{words}」按 {period} {metric}(比较上述各实体的数值)为{entity}({amount}):",
        EN: "“{words}”, by {period} {metric} (comparing the figures above), is {entity} "
        "({amount}):",
    },
    "read_as": {ZH: "按「{read}」理解「{written}」", EN: "read “{written}” as “{read}”"},
    "ask_metric": {
        ZH: "请问您想查询哪个指标?例如:{names}。",
        EN: "Which metric would you like to look up? For example: {names}.",
    },
    "assumed.entity": {
        ZH: "未指明实体,按 {home}口径",
        EN: "no entity given, so {home} is assumed",
    },
    "assumed.period.covered": {
        ZH: "未指明期间,按最近有数据的财年 {period}",
        EN: "no period given, so the latest fiscal year with data, {period}, is assumed",
    },
    "assumed.period.latest": {
        ZH: "未指明期间,按最近完整财年 {period}",
        EN: "no period given, so the latest complete fiscal year, {period}, is assumed",
    },
    "assumed.year": {
        ZH: "未指明年份,按最近已结束的 {period}",
        EN: "no year given, so {period}, the latest that has ended, is assumed",
    },
    "assumed": {ZH: "【假设】{notes}。{narrow}", EN: "[Assumption] {notes}.{narrow}"},
    "assumed.sep": {ZH: ";", EN: "; "},
    "assumed.narrow": {ZH: "(如需收窄:{options})", EN: " (to narrow it: {options})"},
    # -- the narrative channel (narrative.py, definitions.py, grounding.py) ------------------
    "narrative.not_wired": {
        ZH: "未检索到相关文档:没有可用的文档库(no document corpus: `ragspine ingest` builds one)。"
        "为避免误导,不提供任何推测。",
        EN: "No document was retrieved: there is no document corpus (`ragspine ingest` builds "
        "one). Nothing is guessed, to avoid misleading.",
    },
    "narrative.no_hits": {
        ZH: "未检索到与问题相关的文档,无法据实回答;为避免误导,不提供任何推测。",
        EN: "No passage relevant to the question was retrieved, so it cannot be answered from "
        "the documents; nothing is guessed.",
    },
    # A name no passage the caller may see holds: said so, never answered with other passages.
    # The name is not repeated: the caller may not be cleared for what it is.
    "narrative.no_subject": {
        ZH: "检索到的文档中没有提到问题所问的对象,无法据实回答;为避免误导,不提供任何推测。",
        EN: "No passage in the documents available to you mentions what the question asks "
        "about, so it cannot be answered from them; nothing is guessed.",
    },
    # A figure asked of a name no passage holds: declined by the name the question gives it.
    "narrative.no_subject.figure": {
        ZH: "「{name}」:检索到的文档中没有提到它,无法据实回答;为避免误导,不提供任何数字。",
        EN: "“{name}” is not mentioned in any passage of the documents available to you, so "
        "no figure can be given for it; nothing is guessed.",
    },
    # A name the user wrote (Bitcoin, USDA) that no passage holds: whatever is asked of it.
    "narrative.no_name": {
        ZH: "「{name}」:检索到的文档中没有提到它,无法据实回答;为避免误导,不提供任何推测。",
        EN: "“{name}” is not mentioned in any passage of the documents available to you, so "
        "the question cannot be answered from them; nothing is guessed.",
    },
    # The name is found, the quantity asked of it is not: said by both.
    "narrative.no_asked.figure": {
        ZH: "「{name}」的「{asked}」:检索到的文档中没有提到,无法据实回答;"
        "为避免误导,不提供任何数字。",
        EN: "The {asked} of “{name}” is not mentioned in any passage of the documents "
        "available to you, so no figure can be given for it; nothing is guessed.",
    },
    "narrative.no_asked": {
        ZH: "「{name}」的「{asked}」:检索到的文档中没有提到,无法据实回答;"
        "为避免误导,不提供任何推测。",
        EN: "The {asked} of “{name}” is not mentioned in any passage of the documents "
        "available to you, so it cannot be answered from them; nothing is guessed.",
    },
    # No one passage names the subject with the attribute asked of it (``attributes.py``).
    "narrative.no_attribute": {
        ZH: "检索到的文档中没有一段同时提到「{name}」和所问的{asked},无法据实回答;"
        "为避免误导,不提供任何推测。",
        EN: "No passage of the documents available to you names “{name}” together with the "
        "{asked} asked, so it cannot be answered from them; nothing is guessed.",
    },
    "attribute.times": {ZH: "次数", EN: "number of times"},
    "attribute.count": {ZH: "数目", EN: "number"},
    "attribute.name": {ZH: "名称", EN: "name"},
    "attribute.date": {ZH: "时间", EN: "date"},
    "narrative.provider_down": {
        ZH: "AI 服务暂时不可用,无法生成文档归纳;为避免误导,不提供任何推测。",
        EN: "The AI service is unavailable for now, so no summary of the documents can be "
        "written; nothing is guessed, to avoid misleading.",
    },
    "narrative.no_summary": {
        ZH: "模型未给出归纳;以下为检索到的资料出处。",
        EN: "The model gave no summary; the sources retrieved are listed below.",
    },
    # the documents a summary did not name, appended: the separator is one a citation allows
    "narrative.sources": {ZH: "(来源:{docs})", EN: "(sources: {docs})"},
    "narrative.sources.sep": {ZH: "、", EN: "; "},
    # the periods the documents retrieved cover, where none covers the one asked (passage_periods)
    "period.none": {
        ZH: "检索到的文档涵盖 {covered},没有涵盖 {asked} 的文档;为避免误导,不引用其他期间的内容,"
        "可改问 {covered} 的情况。",
        EN: "The documents retrieved cover {covered}, and none covers {asked}; nothing from "
        "another period is quoted, to avoid misleading (you may ask about {covered}).",
    },
    "period.undated": {
        ZH: "检索到的文档涵盖 {covered},没有涵盖 {asked} 的文档;其他期间的内容不予引用,"
        "以下内容出自未注明期间的文档:",
        EN: "The documents retrieved cover {covered}, and none covers {asked}; nothing from "
        "another period is quoted, and what follows is from documents that state no period:",
    },
    "period.part": {
        ZH: "检索到的文档涵盖 {covered},没有涵盖 {asked} 的文档。",
        EN: "The documents retrieved cover {covered}; none covers {asked}.",
    },
    "definition.none": {
        ZH: "文档中没有找到「{term}」的定义;为避免误导,不作推测,也不提供任何数字。",
        EN: "No definition of “{term}” was found in the documents; nothing is guessed and no "
        "number is given, to avoid misleading.",
    },
    # an English term defined by passages in the profile's other language, named in both
    "definition.found": {ZH: "", EN: "How the documents define “{term}” ({names}):"},
    "guard.removed": {
        ZH: "〔此句含无法核实的数字,已移除〕",
        EN: "[sentence removed: it held a figure that could not be verified]",
    },
}


def say(key: str, lang: Language, **fields: object) -> str:
    """Message ``key`` in ``lang``, its fields filled in."""
    return MESSAGES[key][lang].format(**fields)


def opening(line: str, lang: Language) -> str:
    """A line as it opens a sentence: an English one with a capital (Mainland China FY2024 …),
    a Chinese one as it is."""
    return line[:1].upper() + line[1:] if lang == EN else line


def joined(items: list[str], lang: Language) -> str:
    """A list as the language writes one: 香港、台湾 / Hong Kong, Taiwan."""
    return MESSAGES["list"][lang].join(items)
