"""How a question asks, apart from what it asks about: a concept to define, a document's
account (why, how, policy), a figure (多少, how much). The parser routes by these frames; each is
matched on folded text, English words only on word boundaries."""

from __future__ import annotations

import re

# A concept question (什么是在建工程, 收入是什么意思, 如何分析…): asked of no company and no
# period, it is answered from documents, never with the home company's figure.
DEFINITION_CUES = re.compile(
    r"^什么是|什么叫|是什么意思|是指什么|指的是什么|的定义|的含义|如何分析|如何评估|如何计算|"
    r"怎么计算|怎样计算|如何理解|如何影响|怎样影响|有何影响|的关系|的区别|有何区别|不一致|"
    r"如何反映|怎样反映|如何体现|怎样体现|如何衡量|怎样衡量|"
    r"(?:可以|能够?|可能|会)\s*(?:是|为|出现)?\s*(?:负|零)(?:数|值|的)?|"
    r"^what (?:is|are) (?:a |an )?(?!the )|^what does .* mean|^define"
)
NARRATIVE_CUES = re.compile(
    r"为什么|为何|原因|怎么回事|导致|归因|驱动|解释|分析|如何|怎样|怎么样|趋势|政策|规定|规范|合规|"
    r"战略|策略|计划|措施|风险|影响|背景|讨论|说明|指引|要求|评价|看法|规则|目标|流程|做法|决议|"
    r"决定|门槛|标准(?!差)|制度|举措|机制|安排|进展|变化|邮箱|信箱|地址|网址|法定代表人|证券代码|股票代码|"
    r"介绍|情况(?!下)|概述|概况|简述|审计意见|"
    r"(?<![a-z])(?:opinion|audit\w*|overview|describe|introduc\w*)(?![a-z])|"
    r"(?<![a-z])(?:e-?mail|address|website|legal representative|stock code)(?![a-z])|"
    r"(?<![a-z])(?:why|reasons?|explain\w*|drivers?|drove|drive|caus\w*|trends?|strateg\w*|"
    r"polic\w*|guidelines?|outlook|risks?|impact\w*|background|how\s+did|how\s+does|how\s+do|"
    r"how\s+will|how\s+are|how\s+is|what\s+happened|what\s+drove|discuss\w*|summar\w*|"
    r"rules?|targets?|process\w*|approach\w*|plans?|requirements?|resol\w*|decid\w*|"
    r"decisions?|hurdles?|programm?e?s?|measures?|initiatives?|practices?|"
    r"standards?(?!\s+deviations?)|"
    r"status|progress|outcome)(?![a-z])"
)
NUMERIC_CUES = re.compile(
    r"多少|几多|是几(?![点时])|有几(?![点时])|几家|几间|数值|金额|多大|百分之几|几成|"
    r"(?<![a-z])(?:what\s+is|what\s+was|what\s+were|what's|how\s+much|how\s+many|"
    r"how\s+big|value\s+of|figure|what\s+(?:share|percentage|proportion|portion|fraction))(?![a-z])"
)

# A figure asked for (not "what is the status of"): a name no passage holds is declined by it.
FIGURE_CUES = re.compile(
    r"多少|几多|几家|几间|几个|几成|百分之几|金额|数额|数值|"
    r"(?<![a-z])(?:how\s+much|how\s+many|what\s+(?:percentage|share|proportion|amount|figure)|"
    r"figures?|amount)(?![a-z])"
)

# An English question opening "what was / is / were": it asks a figure where it says whose or
# when (What was Hong Kong's GMROI in 2024?), so a phrase nothing explains names the quantity.
_WHAT_WAS = re.compile(r"^\s*what(?:\s+(?:is|was|were|are)|['’]s)(?![a-z])")


def asks_figure(text: str, *, whose_or_when: bool) -> bool:
    """The question asks a figure: a figure cue (多少, how much), or an English "what was …" of
    a named entity or period. Without either a "what was" question may ask a name or a fact."""
    return FIGURE_CUES.search(text) is not None or (
        whose_or_when and _WHAT_WAS.search(text) is not None
    )
