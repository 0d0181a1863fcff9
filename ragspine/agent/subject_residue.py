"""The safety net for subjects: a noun phrase that qualifies the metric and that nothing explains.

``subjects.py`` finds names by their signs (项目, Project X, a capitalised possessive). Phrasings
are endless (金卡会员的收入, 双11当天的销售额, the ACME app's revenue) and the harm of a miss is the
worst there is: the group's figure given for a part of it. So, in a metric question, what is
left of the clause once every word the parser explained is taken out (the metric, an entity, a
channel, a period, the company's names, a subject already found) and the words of the
question's own frame are taken out (的, 是多少, 贡献了, how much, did, generate, in …) is read as
an unknown subject when it qualifies the metric:

- Chinese: a run of two or more CJK characters (or letters and digits glued to one: 双11) written
  BEFORE the metric in its clause (a qualifier precedes its head: X的收入, X贡献了多少收入). A
  channel glued to the run is part of its name (电商事业部), and so is an organisation's kind
  word right after it (物业公司: the whole name, though 公司 alone is frame). A kind word with
  two or more characters before it names a unit even when they are common words (研发中心,
  海外子公司), unless the whole is the frame's (上市公司). The clause's verb glued after the run
  with an aspect mark (開了, 卖过) is no part of it.
- English: a word written right after the company's or an entity's name used as a modifier
  (after a determiner: the ACME app; "does ACME operate" is a verb), right after "from" after
  the metric (revenue from its pharmacy counters: its source, unless a reading explained it,
  from Hong Kong, from 2023, or the metric's own name says it, from operations), or right
  before the metric (app revenue, the app's revenue), that is no frame word and no common word.

Another company in the company's place (四方科技的毛利率) is left to ``scope.out_of_scope``,
which declines it as a company.
A narrative question (为什么, how did, 对…有什么影响) is left to the narrative route: there the
unexplained words are its topic or a cause, answered from passages that name them.
A generic word (集团, 公司, 全年, 总, 门店, 线上 … ``GENERIC_CJK``) names no part of the business
and is not a subject. The question is declined naming the run, never answered with the group's
figure. The same residue names the quantity of a figure asked of no metric at all (门店租金是多少,
how many online customers): declined by that name instead of "which metric?"
(``unnamed_quantity``), less the frame written inside it (``name_pieces``); where a verb is
written right before 多少 / 几 (卖出了多少台湾啤酒, 接待了多少游客) what follows the counting words
names the figure, never the verb. Measured on
evals/meaning, evals/meaning_fresh rounds 1–4 and the real-world questions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragspine.agent.subject_words import COMMON_EN, GENERIC_CJK, KIND_WORDS, STOPS

Span = tuple[int, int]

# The question's own frame in Chinese: asking, counting, the verbs a figure is produced by,
# time words that are no period of their own, hedges. Longest first.
_FRAME_CJK = re.compile(
    r"截至|截止到?|直到|之前|之后|以来|期间|当期|"
    r"净增|新增|净减|增加|减少|增长|下降|下滑|上升|变化|变动|提升|提高|降低|"
    r"既然说|既然|如果说|如果|假如|要是|倘若|如若|"  # a conditional or premise opener names nobody
    r"请问|请|帮我|帮忙|告诉我|告诉|查询|查找|查看|查一下|查|看看|看一下|一下|想知道|想了解|知道|了解|"
    r"我想|我们|计算出|计算|算出|算|提供|给出|列出|显示|保留[^的]{0,6}?小数|小数|"
    r"年报中|年报|年度报告|报告中|报告|报表|财报|披露的?|提到的?|提及的?|所示|中|具体|详细|"
    r"是多少|有多少|为多少|多少|几多|是几|有几|几何|多大|怎么样|如何|"
    r"一共|总共|合计|共计|总计|总额|总量|总体|整体|全年|全部|整个|总|共|约|大约|大概|左右|"
    r"贡献了|贡献|带来了|带来|产生了|产生|创造了|创造|实现了|实现|录得|取得了|取得|获得了|获得|"
    r"达到了|达到|做到了|做到|做了|卖了|赚了|花了|收到|发生了|发生|作为|身为|"
    r"的|是|为|有|了|呢|吗|么|啊|呀|在|于|和|与|及|以及|或|还是|对|从|到|把|将|给|向|按|以|"
    r"的时候|时候|时期|当时|"
    r"年末|年底|年初|期末|期初|年度|年内|当年|本年|上年|去年|今年|同期|全期|末|底|年|月|日|"
    r"还剩下|还剩|剩下|尚余|仍有|还有|"  # what is left at a date: the level then, no name
    r"单位|金额|数值|数额|规模|水平|情况|数据|数字|分别|各自|各|该|本|其|此|这|那|它|他们|"
    r"哪家|哪个|哪些|哪|什么|是谁|谁|几家|第[一二三四五六七八九十百\d]+|最高|最低|最大|最小|最多|最少|排名|排第|"
    r"高|低|股份有限公司|有限责任公司|有限公司|股份|上市公司|公司|集团|本公司|贵公司|企业"
)


def frame_words() -> re.Pattern[str]:
    """The question's own frame in Chinese (是多少, 获得了, 从, 的 …): no part of a name."""
    return _FRAME_CJK


_FRAME_EN = frozenset(
    (  # noqa: SIM905
        "generate generated generates earn earned earns make made makes bring brought book "
        "booked record recorded report reported post posted achieve achieved deliver delivered "
        "produce produced see saw have had much many big large amount value level figure figures "
        "number total overall full whole year years fiscal calendar financial period quarter half "
        "first second third fourth end as of to with over under approximately roughly about "
        "around exactly reported group's company's 's s be been being account accounted "
        "contribute contributed come came from highest lowest largest smallest biggest best worst "
        "top latest current annual quarterly yearly consolidated combined reported stated "
        "respective respectively actual actually exact "
        # a vague word for "the numbers": no quantity named, so "which metric?" is asked
        "numbers performance result results data stats statistics financials metric metrics "
        "kpi kpis "
        # a verb of spending names no quantity: what was spent on does (spend on share buybacks)
        "spend spends spent pay pays paid invest invests invested "
        # a verb of holding names no quantity: what is held does (hold in sterling deposits)
        "hold holds held keep keeps kept"
    ).split()
)
# A metric name's qualifier the common words hold (net promoter score, gross merchandise value):
# written glued before the phrase's words, it is part of its name.
_QUALIFIER_EN = frozenset(("net", "gross", "operating", "total"))
_LAST_WORD = re.compile(r"(?<![a-z'’-])([a-z]+)\s+$")
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]+(?:[a-z0-9]+[\u4e00-\u9fff]*)*|[a-z0-9]+[\u4e00-\u9fff]+")
_EN_WORD = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")  # NP-200, e-commerce: one word
# A hyphenated compound is one word, whatever another reader took of it (how many points:
# point of point-of-sale): words glued by hyphens before the residue are its name's start.
_HYPHENED = re.compile(r"(?<![a-z0-9-])[a-z0-9]+(?:-[a-z0-9]+)*-$")
_DETERMINER = re.compile(r"(?<![a-z])(?:the|its|their|our|this|that)\s+$")
# A source written after the metric (revenue from its pharmacy counters): what it came from.
_FROM = re.compile(r"\s+from\s+(?:(?:the|its|their|our|his|her)\s+)?")
# What a metric's own name says it comes from (revenue from operations, from contracts with
# customers, from continuing operations, from its main business): no part of the business.
_OWN_SOURCES = frozenset(
    [
        "operations",
        "operating",
        "continuing",
        "ordinary",
        "principal",
        "main",
        "core",
        "contracts",
        "customers",
        "sales",
    ]
)
_CLAUSE_END = re.compile(r"[?？。!！;；,,]")


def unknown_qualifier(
    text: str,
    metric_spans: Sequence[Span],
    explained: Sequence[Span],
    named: Sequence[Span],
    channels: Sequence[Span],
) -> Span | None:
    """The span (in the folded ``text``) of a phrase that qualifies the first metric and that
    nothing explains, or None. ``explained``: every span the parser read; ``named``: the spans
    of the company's and the entities' names; ``channels``: the channels' words."""
    if not metric_spans:
        return None
    first = min(metric_spans)
    start = max((m.end() for m in _CLAUSE_END.finditer(text, 0, first[0])), default=0)
    end = first[1]
    left = _CLAUSE_END.search(text, end)
    stop = left.start() if left else len(text)
    mask = list(text)
    for s, e in explained:
        for i in range(max(s, 0), min(e, len(text))):
            mask[i] = " "
    rest = "".join(mask)
    unit = _organisation(rest, start, first[0])
    if unit is not None:
        return unit  # 研发中心的收入: a unit of the business, though 研发 alone names nothing
    cjk = _FRAME_CJK.sub(lambda m: " " * len(m.group()), rest[start : first[0]])
    for m in _CJK_RUN.finditer(cjk):
        word = m.group()
        if len(word) < 2 or word in GENERIC_CJK or word.isdigit():
            continue
        if re.fullmatch(r"[a-z0-9]+", word):
            continue
        s, e = start + m.start(), start + m.end()
        kind = KIND_WORDS.match(text, e)  # 物业公司: an organisation with its kind word
        e = kind.end() if kind else e
        for cs, ce in channels:  # 电商事业部: a channel glued to the run is part of its name
            if ce == s:
                s = cs
            if cs == e:
                e = ce
        return s, _before_aspect_verb(text, s, e)
    if re.search(r"[\u4e00-\u9fff]", text):
        return None
    for ns, ne in [*named, *metric_spans]:
        if not start <= ns < stop:
            continue
        after = _EN_WORD.match(rest, ne + 1) if rest[ne : ne + 1] == " " else None
        attributive = _DETERMINER.search(text, 0, ns) is not None  # the ACME app: a noun after
        if (ns, ne) in named and attributive and after and _content(after.group()):
            return ns, _run_on(rest, after.end())  # the Hong Kong retail industry's: all of it
    source = _FROM.match(text, first[1], stop)  # revenue from its pharmacy counters
    if source is not None:
        after = _EN_WORD.match(rest, source.end())
        if after and _content(after.group()) and after.group() not in _OWN_SOURCES:
            return after.start(), _run_on(rest, after.end())
    before = re.search(r"(?<![\w-])([a-z][a-z-]*)(?:['’]s)?\s+$", text[start : first[0]])
    if before and rest[start + before.start(1)] != " " and _content(before.group(1)):
        return start + before.start(1), first[1]
    return None


_ASPECT = re.compile(r"\s*(?:了|过|着)")


def _before_aspect_verb(text: str, s: int, e: int) -> int:
    """Where a name ends before the clause's verb glued to it with an aspect mark after it
    (紐西蘭毛利人聚居區 | 開了): the verb with 了 / 过 / 着 is the clause's, never the name's."""
    if not _ASPECT.match(text, e):
        return e
    import rjieba

    *_, (word, tag) = rjieba.tag(text[s:e])
    return e - len(word) if tag == "v" and e - len(word) - s >= 2 else e


def _run_on(rest: str, end: int) -> int:
    """Where a phrase of content words ends: each next word that no reading explained and that
    is no frame or common word is part of it (the Hong Kong retail industry, not Hong Kong
    retail: an industry, a market or a sector of a place is not the company's entity there)."""
    while rest[end : end + 1] == " ":
        word = _EN_WORD.match(rest, end + 1)
        if word is None or not _content(word.group()):
            break
        end = word.end()
    return end


_FRAME_RUN = re.compile(f"(?:{_FRAME_CJK.pattern})+")


def _organisation(rest: str, start: int, end: int) -> Span | None:
    """An organisation the question names by a kind word and the words before it (研发中心,
    物流中心, 海外子公司), in what nothing explains between ``start`` and ``end``: the words
    before it may be common ones, but not the frame's alone (上市公司, 集团公司, 股份有限公司)."""
    for kind in KIND_WORDS.finditer(rest, start, end):
        at = kind.start()
        while at > start and "\u4e00" <= rest[at - 1] <= "\u9fff" and rest[at - 1] not in STOPS:
            at -= 1
        before = rest[at : kind.start()]
        framed = _FRAME_RUN.fullmatch(before) or _FRAME_RUN.fullmatch(before + kind.group())
        if len(before) >= 2 and not framed:  # 集团公司, 上市公司: the frame's own words
            return at, kind.end()
    return None


def _content(word: str) -> bool:
    return len(word) > 2 and word not in COMMON_EN and word not in _FRAME_EN


# Between two content words of one name: nothing, or "of" and the qualifiers a name may hold.
_OF_JOIN = re.compile(r"\s*|\s+of\s+(?:(?:net|gross|operating|total)\s+)*")


def unnamed_quantity(
    text: str, explained: Sequence[Span], channels: Sequence[Span], *, generic: bool = False
) -> Span | None:
    """A figure asked of no metric the profile knows (门店租金是多少, how many online customers):
    the phrase left once the explained words and the frame are taken out names the quantity, so
    the decline names it instead of asking "which metric?". Its first clause only; a channel
    glued to it is part of its name (线上订单履约时效). ``generic``: a common word (薪酬, 预算)
    may name it too, as where a name it is asked of is already held (首席执行官的薪酬)."""
    end = _CLAUSE_END.search(text)
    stop = end.start() if end else len(text)
    mask = list(text[:stop])
    for s, e in explained:
        for i in range(max(s, 0), min(e, stop)):
            mask[i] = " "
    rest = "".join(mask)
    if re.search(r"[\u4e00-\u9fff]", text):
        cjk = _FRAME_CJK.sub(lambda m: " " * len(m.group()), rest)
        found = _counted_first(rest, [m.span() for m in _CJK_RUN.finditer(cjk)])
        runs = [(s, e) for s, e in found if _quantity_run(rest[s:e])]
        if generic:  # 预算, 年薪: a word a frame character (算, 年) cut is read whole
            read = [_word(rest, cjk, s, e) for s, e in found]
            runs = [(s, e) for s, e in read if _quantity_run(rest[s:e], generic=True)]
    else:
        words = [m for m in _EN_WORD.finditer(rest) if _content(m.group())]
        runs = [m.span() for m in words]
        if runs:  # adjacent content words are one phrase (online customer count), and
            first = runs[0]  # so is a head with its "of" complement (degree of operating leverage)
            for s, e in runs[1:]:
                if _OF_JOIN.fullmatch(text, first[1], s):
                    first = (first[0], e)
            glued = _HYPHENED.search(text, 0, first[0])  # point-of-sale: a compound is one word
            first = (glued.start(), first[1]) if glued else first
            lead = _LAST_WORD.search(rest[: first[0]])
            while lead and lead.group(1) in _QUALIFIER_EN:  # net promoter score: the whole name
                first = (lead.start(1), first[1])
                lead = _LAST_WORD.search(rest[: first[0]])
            runs = [first]
    if not runs:
        return None
    s, e = runs[0] if generic else _whole(rest, *runs[0])
    for cs, ce in channels:
        if text[ce:s].strip() == "" and ce <= s:
            s = cs
        if text[e:cs].strip() == "" and cs >= e:
            e = ce
    return s, e


# How many (多少, 几) and a classifier: what follows is what the figure counts or measures;
# the verb of the count is written right before it (卖出了, 接待).
_CLASSIFIERS = "个名家位种类项笔次件台辆瓶箱份张款只头批杯罐盒包袋支条"
_COUNTING = re.compile(rf"(?:多少|几)\s*(?:[{_CLASSIFIERS}]\s*)?")
_COUNTED = re.compile(_COUNTING.pattern.replace("\\s*", "") + "$")
_VERB_GAP = re.compile(r"\s*(?:了|过)?\s*")


def _counted_first(rest: str, runs: list[Span]) -> list[Span]:
    """The runs less the verb of a count, what it counts first: in 卖出了多少台湾啤酒 and 接待了多少
    游客 the run written right before (了)多少 / 几 is the verb, which only says how the figure
    comes about; the run after the counting words (and a classifier) names it. A noun before a
    frame verb (从草原畜牧业振兴专项获得了多少补助) is no verb of the count: kept as it is."""
    for m in _COUNTING.finditer(rest):
        verb = next((r for r in runs if _VERB_GAP.fullmatch(rest, r[1], m.start())), None)
        for i, (s, e) in enumerate(runs):
            start = max(s, m.end())
            after = s < m.end() <= e or (m.end() <= s and not rest[m.end() : s].strip())
            if verb is not None and after and e - start >= 2:
                return [(start, e), *[r for r in runs[:i] + runs[i + 1 :] if r != verb]]
    return runs


# The frame's function characters: where a clause goes on after a word (薪酬是怎么确定).
_FUNCTION = frozenset("的是为有了呢吗么啊呀在于和与及或对从到把将给向按以还")


def _word(rest: str, cjk: str, s: int, e: int) -> Span:
    """The whole word a run of the residue is part of (预 + 算, 年 + 薪, 交易对价: what the
    frame cut out of it), up to where the clause goes on after it (薪酬 | 是怎么确定)."""
    whole = _whole(rest, s, e)
    if whole[1] - whole[0] >= 2:
        s, e = whole
        return s, next((i for i in range(s + 1, e) if _goes_on(rest, cjk, i, e)), e)
    for a, b in ((s - 1, e), (s, e + 1)):  # 年 + 薪: the frame's 年 was the word's
        if a >= 0 and b <= len(rest) and all(_content_char(c) for c in rest[a:b]):
            return a, b
    return s, e


def _goes_on(rest: str, cjk: str, i: int, e: int) -> bool:
    """A clause goes on at a function character where two or more characters, or only the
    frame's, follow it (薪酬 | 是怎么确定, 买方 | 是谁; not 交易对价)."""
    return rest[i] in _FUNCTION and (e - i - 1 >= 2 or not cjk[i + 1 : e].strip())


def _content_char(c: str) -> bool:
    return "\u4e00" <= c <= "\u9fff" and c not in _FUNCTION


def _quantity_run(word: str, generic: bool = False) -> bool:
    common = word in GENERIC_CJK and not generic
    return len(word) >= 2 and not common and not re.fullmatch(r"[a-z0-9]+", word)


# Verbs of the frame that a name is the subject of (X作为Y): where they stand, a name has ended.
_VERBS = re.compile(r"作为|身为")


def _verb_at(rest: str, at: int) -> bool:
    return _VERBS.match(rest, at) is not None


_LEAD_FRAME = re.compile(r"(?:的|是|为|有|了|在|和|与|及|年|月|日)+")
_TAIL_FRAME = re.compile(r"(?:的|是|为|有|了|是多少|多少)+$")


def _whole(rest: str, s: int, e: int) -> Span:
    """The whole run of unexplained CJK characters holding a residue (订单履约时效, not 订单履),
    less the frame words at its ends; a verb of the frame after it ends it (宏昌置业 | 作为)."""
    while s > 0 and "\u4e00" <= rest[s - 1] <= "\u9fff" and not _COUNTED.search(rest, 0, s):
        s -= 1  # 获得了多少 | 贷款: what is counted starts after its counting words
    while e < len(rest) and "\u4e00" <= rest[e] <= "\u9fff" and not _verb_at(rest, e):
        e += 1
    lead = _LEAD_FRAME.match(rest, s, e)
    s = lead.end() if lead else s
    tail = _TAIL_FRAME.search(rest[s:e])
    return s, (s + tail.start() if tail and tail.start() > 0 else e)


_FUNCTION_CHARS = "的是为有了在和与及从向对把将给于按以到呢吗么"


def name_pieces(text: str, span: Span) -> list[Span]:
    """The words of an unnamed quantity's span that name it: its content less the question's
    frame written inside it (从草原畜牧业振兴专项获得了多少补助 → 草原畜牧业振兴专项 + 补助).
    Only the frame's words of two or more characters split it (获得了, 多少): one character of the
    frame inside a word stays (履约 in 订单履约时效); function characters at a piece's ends go (从);
    a piece of one character is a fragment, not a word. A Latin span is one piece."""
    start, end = span
    if not re.search(r"[\u4e00-\u9fff]", text[start:end]):
        return [span]
    cuts = [m.span() for m in _FRAME_CJK.finditer(text, start, end) if m.end() - m.start() >= 2]
    pieces, at = [], start
    for s, e in [*cuts, (end, end)]:
        a, b = at, s
        while a < b and text[a] in _FUNCTION_CHARS:
            a += 1
        while b > a and text[b - 1] in _FUNCTION_CHARS:
            b -= 1
        if b - a >= 2:
            pieces.append((a, b))
        at = e
    return pieces or [span]
