"""Questions that ask what a document rules, not what the fact table holds.

A question asking how something is ruled, set or ranked in a plan (毛利率的底线是怎么规定的,
门店数字化设备排在第几优先级, what is the cap on discounts, which priority is…) asks for a
statement in a policy, a memo or a strategy: a floor, a cap, a threshold, a priority order.
The metric words in it name the topic of the rule, never the figure asked: a margin's floor is
not the margin, a capex line's priority is not a store count. Such a sentence goes to the
documents; a figure asked in another sentence of the question is still asked (a composite).
"""

from __future__ import annotations

import re

from ragspine.agent.quantity import Reading

_EN = r"(?<![a-z])(?:{})(?![a-z])"

RULE_CUES = re.compile(
    # a limit a rule sets: 底线, 上限, 红线, 门槛, 不得低于
    r"底线|红线|上限|下限|封顶|门槛|阈值|限额|最低标准|最高标准|"
    r"不(?:得|能|可|应|宜)?(?:低于|高于|超过|少于|多于)|"
    r"(?:最多|最少|最长|最短|最高|最低|至多|至少)(?:可以|可|能|允许|须|需要|需|要)|允许|"
    # how a document rules it: 怎么规定, 如何设定, 有何要求, 规定是什么
    r"(?:怎么|怎样|如何|是怎么|是如何|有何|有什么|有哪些|作何|作了什么|做了什么|哪些)\s*"
    r"(?:规定|约定|限定|限制|设定|界定|要求)|"
    r"规定(?:是什么|了什么|为何|如何|怎样)|"
    # a rank in a plan: 优先级, 第几优先, 按什么顺序
    r"优先级|优先顺序|优先次序|第几优先|(?:什么|何种|怎样的?|哪种)(?:顺序|次序)|"
    + _EN.format(
        r"thresholds?|caps?|capped|ceilings?|floors?|limits?|allowed|permitted|at\s+(?:the\s+)?most"
        r"|no\s+(?:more|less|later|earlier)\s+than|(?:not|cannot|can't|mustn't)\s+(?:be\s+)?"
        r"(?:below|above|exceed|fall\s+below)"
        r"|priorit(?:y|ies|i[sz]ed?|i[sz]ation)|order\s+of\s+priority"
        # what the policy or rule is; how a figure is set or ranked in a plan
        r"|(?:what|which)\s+(?:is|are|was|were)\s+(?:the\s+)?(?:[\w-]+\s+){0,4}(?:polic(?:y|ies)|rules?)"
        r"|how\s+(?:is|are|was|were)\s+(?:[\w-]+\s+){1,8}(?:set|capped|limited|ruled"
        r"|prioriti[sz]ed)"
    )
)
# Words of a figure that share a rule word: market cap is a market value, floor area a size.
_NOT_A_RULE = re.compile(
    _EN.format(r"market\s+cap(?:italisation|italization)?|floor\s+(?:area|space)|sales\s+floor")
)
_SENTENCE_END = re.compile(r"[。!?!?;;\n]|\.(?=\s|$)")


def ruled_sentences(text: str) -> list[tuple[int, int]]:
    """The spans of the (folded) question's sentences that ask a rule."""
    plain = _NOT_A_RULE.sub(lambda m: " " * len(m.group()), text)
    out, start = [], 0
    for end in [m.end() for m in _SENTENCE_END.finditer(plain)] + [len(plain)]:
        if end > start and RULE_CUES.search(plain, start, end):
            out.append((start, end))
        start = end
    return out


def without_ruled(reading: Reading, ruled: list[tuple[int, int]], text: str) -> None:
    """Drop from ``reading`` what the ``ruled`` sentences of ``text`` name: each metric whose
    words all stand in one (its figure is not asked), and a declined quantity there (the rule's
    topic, not a figure the fact table lacks). A metric named in another sentence is still
    asked; one named by no words is kept only where another sentence is."""
    if not ruled:
        return

    def inside(start: int) -> bool:
        return any(s <= start < e for s, e in ruled)

    whole = not any(c.isalnum() for i, c in enumerate(text) if not inside(i))
    kept = [(c, s, e) for c, s, e in reading.spans if not inside(s)]
    named = {c for c, _, _ in reading.spans}
    reading.metrics = [
        c
        for c in reading.metrics
        if any(k == c for k, _, _ in kept) or (c not in named and not whole)
    ]
    reading.spans = kept
    if reading.declined is not None and inside(reading.declined[0]):
        reading.declined = reading.declined_id = reading.declined_name = None
