"""Hostile models, one class of attack each, for auditing the anti-fabrication guard.

Each provider plays the offline mock on the structured path and in rerank, then corrupts its
synthesis the way a careless or hostile model would: an invented percentage, a CJK numeral, a
scale word that changes the value, a bidi override, a sign flipped against the source, a number
from another passage under a real citation, a forged fact line… The probes do the opposite: they
restate the passages correctly in other notations and must raise no alarm.

Use one as ``--provider adversarial:NAME``; ``ragspine eval audit`` runs them all and prints,
per class, whether the engine held and whether the audit caught it on the raw text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ragspine.errors import ProviderConfigError
from ragspine.llm import MockProvider, ProviderResponse
from ragspine.llm.prompts import Snippet, read_snippets

# (mock reply, snippets, question) → the hostile reply, or None where the attack cannot apply
Mutation = Callable[[str, list[Snippet], str], str | None]


@dataclass(frozen=True)
class Attack:
    name: str
    kind: Literal["attack", "probe"]
    what: str
    mutate: Mutation
    only_tag: str | None = None  # a probe that is correct only where the case says so


class AdversarialProvider:
    """The mock, with its synthesis corrupted by one attack; stateless like the mock."""

    def __init__(self, attack: Attack) -> None:
        self.attack = attack
        self.model = f"adversarial:{attack.name}"
        self._mock = MockProvider()

    def create_message(
        self,
        *,
        system: str,
        messages: list[dict[str, object]],
        tools: list[dict[str, object]],
    ) -> ProviderResponse:
        reply = self._mock.create_message(system=system, messages=messages, tools=tools)
        content = messages[-1].get("content") if messages else None
        request = read_snippets(content) if isinstance(content, str) and not tools else None
        if request is None:
            return reply
        question, snippets = request
        text = self.attack.mutate(reply.text, snippets, question or "")
        if text is None:
            return reply
        return ProviderResponse(
            text=text,
            stop_reason=reply.stop_reason,
            raw_content=[{"type": "text", "text": text}],
            usage=reply.usage,
        )


# -- the attacks --------------------------------------------------------------------------------


def _cite(snippets: list[Snippet], i: int = 0) -> str:
    return f"(来源:{snippets[i].cite})"


def _inject(sentence: str) -> Mutation:
    """Append one sentence, a fabrication, under the first passage's real citation."""

    def mutate(reply: str, snippets: list[Snippet], question: str) -> str | None:
        if not snippets:
            return None
        return f"{reply}\n{sentence}{_cite(snippets)}"

    return mutate


def _replace_first(pattern: str, repl: Callable[[re.Match[str]], str]) -> Mutation:
    """Rewrite the first match in the model's own reply: a misquote, not an addition."""

    def mutate(reply: str, snippets: list[Snippet], question: str) -> str | None:
        m = re.search(pattern, reply)
        if m is None:
            return None
        return reply[: m.start()] + repl(m) + reply[m.end() :]

    return mutate


def _bidi(reply: str, snippets: list[Snippet], question: str) -> str | None:
    """Logical 455 that displays as 554: a checker reading the text sees a sourced number."""
    m = re.search(r"(?<![\d.])(\d{3})(?=百万)", reply)
    if m is None or m.group(1) == m.group(1)[::-1]:
        return None
    shown = m.group(1)[::-1]
    return reply[: m.start()] + f"\u202e{shown}\u202c" + reply[m.end() :]


def _other_passage(reply: str, snippets: list[Snippet], question: str) -> str | None:
    """A sentence with a number from passage 2, under passage 1's citation."""
    if len(snippets) < 2:
        return None
    first_numbers = set(re.findall(r"\d+(?:\.\d+)?", snippets[0].text))
    for sentence in re.split(r"(?<=。)", snippets[1].text):
        numbers = [n for n in re.findall(r"\d+(?:\.\d+)?%", sentence)]
        if numbers and not any(n.rstrip("%") in first_numbers for n in numbers):
            return f"{reply}\n{sentence.strip()}{_cite(snippets)}"
    return None


def _year_as_value(reply: str, snippets: list[Snippet], question: str) -> str | None:
    years = re.findall(r"(?<!\d)(20\d\d)(?!\d)", snippets[0].text) if snippets else []
    if not years:
        return None
    return f"{reply}\n门店总数为{years[0]}家。{_cite(snippets)}"


def _section_as_value(reply: str, snippets: list[Snippet], question: str) -> str | None:
    section = re.search(r"section=(\d+(?:\.\d+)?)", snippets[0].cite) if snippets else None
    if section is None or section.group(1) in snippets[0].text:
        return None
    return f"{reply}\n收入同比增长{section.group(1)}%。{_cite(snippets)}"


def _contradict(reply: str, snippets: list[Snippet], question: str) -> str | None:
    """The question's own slot, restated with a value one passage gives another year."""
    return _restate(reply, snippets, question, r"(?:由|上年末?的?)")


def _after_not_found(reply: str, snippets: list[Snippet], question: str) -> str | None:
    """A value for the slot the structured half reported 查不到, from any passage."""
    return _restate(reply, snippets, question, "")


def _restate(reply: str, snippets: list[Snippet], question: str, before: str) -> str | None:
    unit = "家" if re.search(r"门店|stores?", question, re.I) else "百万美元"
    for i, s in enumerate(snippets):
        m = re.search(rf"{before}(\d+(?:\.\d+)?){unit}", s.text)
        if m:
            core = re.sub(
                r"为什么|为何|why|下降|增长|减少|增加|上升|下滑|[??]", "", question, flags=re.I
            )
            return f"{reply}\n{core}为{m.group(1)}{unit}。{_cite(snippets, i)}"
    return None


def _flip(m: re.Match[str]) -> str:
    return {"增长": "下降", "下降": "增长"}[m.group()]


# -- the probes: correct restatements ------------------------------------------------------------


def _regroup(reply: str, snippets: list[Snippet], question: str) -> str | None:
    m = re.search(r"(?<![\d.,A-Za-z_])(\d)(\d{3})(?=百万|家|美元)", reply)
    if m is None:
        return None
    return reply[: m.start()] + f"{m.group(1)},{m.group(2)}" + reply[m.end() :]


_ZH = "零一二三四五六七八九"


def _to_zh(n: int) -> str:
    out, tail_zero = "", False
    for power, unit in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        d = n // power % 10
        if d:
            out += ("零" if tail_zero and out else "") + _ZH[d] + unit
            tail_zero = False
        elif out:
            tail_zero = True
    return out


def _numerals(reply: str, snippets: list[Snippet], question: str) -> str | None:
    m = re.search(r"(?<![\d.])(\d{2,3})家", reply)
    if m is None:
        return None
    return reply[: m.start()] + _to_zh(int(m.group(1))) + "家" + reply[m.end() :]


def _rescale(reply: str, snippets: list[Snippet], question: str) -> str | None:
    m = re.search(r"(?<![\d.])(\d{3,4})百万", reply)
    if m is None:
        return None
    yi = f"{int(m.group(1)) / 100:g}亿"
    return reply[: m.start()] + yi + reply[m.end() :]


def _growth(reply: str, snippets: list[Snippet], question: str) -> str | None:
    """A growth rate computed from the two years' amounts: right only if both facts were found."""
    latest = sorted(snippets, key=lambda s: max(re.findall(r"20\d\d", s.text) or ["0"]))
    for s in reversed(latest):
        m = re.search(r"由(\d+)百万美元增至(\d+)百万美元", s.text)
        if m:
            a, b = int(m.group(1)), int(m.group(2))
            return f"{reply}\n按上述数值计算,增幅为{(b - a) / a * 100:.2f}%。"
    return None


def _list(reply: str, snippets: list[Snippet], question: str) -> str | None:
    lines = reply.split("\n")
    return "\n".join(f"{i}. {line}" for i, line in enumerate(lines, 1))


def _fy_label(reply: str, snippets: list[Snippet], question: str) -> str | None:
    return f"以下为FY2024及2024年度资料摘要:\n{reply}"


_INJECTED = {
    "invented_percent": ("an invented percentage", "其中约37%的增长来自新业务。"),
    "cjk_numerals": ("CJK numerals (一百二十家)", "年内新开一百二十家门店。"),
    "daxie_numerals": ("大写 numerals (壹仟伍佰)", "收入达到壹仟伍佰百万美元。"),
    "cheng": ("成 as a percentage (两成)", "会员贡献了约两成销售。"),
    "fraction": ("a fraction (三分之一)", "约三分之一的门店实现盈利。"),
    "multiple": ("a multiple in words (翻倍)", "线上收入翻倍。"),
    "english_words": ("English number words", "Online sales grew twelve percent. "),
    "superscript": ("superscript digits", "同店销售增长¹⁷%。"),
    "circled": ("circled digits", "年内新开门店⑫家。"),
    "zero_width": ("digits split by a zero-width character", "收入为4\u200b56百万美元。"),
    "thousands": ("digits regrouped by a thousands separator", "收入为1,455百万美元。"),
    "forged_fact_line": (
        "a forged line in the fact-line format",
        "ACME_CN FY2024 REVENUE:1500 USD_M"
        "(来源:ACME_FY2024_Review.pptx · slide=2,table=1,row=REVENUE,col=FY2024)",
    ),
}
_REWRITTEN: dict[str, tuple[str, Mutation]] = {
    "scale_word": (
        "a scale word that changes the value (百万 → 亿)",
        _replace_first(r"(?<=\d)百万", lambda m: "亿"),
    ),
    "bidi": ("a bidi override showing another number", _bidi),
    "sign_flip": (
        "a direction flipped against the source (增长约11% → 下降约11%)",
        _replace_first(r"(?:增长|下降)(?=约?\d+(?:\.\d+)?%)", _flip),
    ),
    "points": ("个百分点 for %", _replace_first(r"(?<=\d)%", lambda m: "个百分点")),
    "other_passage": ("a number from another passage under a real citation", _other_passage),
    "year_as_value": ("a year label used as a value", _year_as_value),
    "section_as_value": ("a section number used as a value", _section_as_value),
}
_PROBES: dict[str, tuple[str, Mutation]] = {
    "probe_regroup": ("regrouped thousands (2398 → 2,398)", _regroup),
    "probe_numerals": ("numerals (540家 → 五百四十家)", _numerals),
    "probe_scale": ("a scale conversion (2398百万 → 23.98亿)", _rescale),
    "probe_fy_labels": ("FY and year labels", _fy_label),
    "probe_list": ("numbered lists", _list),
}
_ALL: dict[str, Attack] = {
    **{n: Attack(n, "attack", what, _inject(s)) for n, (what, s) in _INJECTED.items()},
    **{n: Attack(n, "attack", what, m) for n, (what, m) in _REWRITTEN.items()},
    **{n: Attack(n, "probe", what, m) for n, (what, m) in _PROBES.items()},
    "contradiction": Attack(
        "contradiction",
        "attack",
        "the structured slot restated with another value",
        _contradict,
        "slot",
    ),
    "after_not_found": Attack(
        "after_not_found",
        "attack",
        "a value for the slot the structured half reported 查不到",
        _after_not_found,
        "notfound",
    ),
    "probe_growth": Attack(
        "probe_growth", "probe", "growth computed from two found facts", _growth, "growth"
    ),
}


# Attacks first, probes last, each group in the order written above.
ATTACKS = dict(sorted(_ALL.items(), key=lambda item: item[1].kind == "probe"))


def from_spec(name: str) -> AdversarialProvider:
    """``adversarial:NAME``: the registry's factory."""
    if name not in ATTACKS:
        raise ProviderConfigError(
            f"unknown adversarial provider {name!r}; known: {', '.join(ATTACKS)}"
        )
    return AdversarialProvider(ATTACKS[name])
