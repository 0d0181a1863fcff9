"""What a one-company system must not answer with its own numbers: another company, a ranking
across companies. Deterministic, like the security gate, and read from the raw question.

RAGSpine answers about one company (the profile's). A question that names another company, by
its legal name, its stock code or a short name where an entity stands ("立昂微2020年的…",
"2019年特变电工利息收入"), is about something the fact table does not hold; answering it with
the home company's number would be a sourced number for the wrong question. A ranking across
listed companies ("哪家上市公司…第十二高") is out of scope for the same reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ragspine.agent.described import description_spans
from ragspine.agent.glosses import without_glossed
from ragspine.agent.rules import ruled_sentences
from ragspine.profile import DomainProfile
from ragspine.profile.glossary import glossary_for
from ragspine.profile.model import compact
from ragspine.profile.vocabulary import listed_companies, places
from ragspine.text import fold, fold_with_index

_SUFFIX = r"(?:集团股份有限公司|股份有限公司|有限责任公司|集团有限公司|有限公司)"
# A legal name: the company's own name, then one of these endings.
_LEGAL = re.compile(rf"(?P<name>[\u4e00-\u9fffa-z0-9()（）]{{2,30}}?){_SUFFIX}")
# Shanghai, Shenzhen and Beijing A-share codes, standing alone.
_STOCK_CODE = re.compile(r"(?<![\d.])(?:00[0-3]|30[01]|60[0-5]|68[89]|8[3-8]\d)\d{3}(?![\d.%])")
# A year with its end or start (2020年末, 2024年底, 2021年初): the period, never a name's start.
_YEAR = re.compile(r"(?:19|20)\d\d\s*年(?:度)?(?:末|底|初)?")
# What a request puts before a name, and what follows one, neither part of it; a conditional
# conjunction (如果东南亚…, 假如金宇生物…) or a premise's opener (既然金宇生物…, 如果说…) opens a
# clause and names nobody; a word of the whole
# (的全部收入, 所有收入, 整个集团) qualifies what follows and names nobody either.
_HEAD = re.compile(
    r"(?:既然说|既然|如果说|鉴于|如果|假如|假设|要是|倘若|如若|全部|所有|整个|全体|的|度|在|时候|的时候|请问|请告诉我|告诉我|我想知道|能否告诉我|能否|请提供|提供|"
    r"请简要介绍|请简要分析|请具体描述一下|请具体描述|请具体介绍|简要介绍|简要分析|具体描述一下|"
    r"介绍一下|描述一下|介绍|分析|根据|关于|查询|计算出?|请计算出?|给出|请)+"
)
_TAIL = re.compile(r"(?:的|在|公司的)+$")
# The company's own counterparties: 前五名客户 is a disclosure of its own sales (the top five
# customers' share), no ranking of listed companies.
_OWN_PARTIES = r"(?:客户|供应商|经销商|股东|债务人|债权人|应收账款|欠款方|销售客户|采购)"
# The company's own parts and parties an ordinal describes (第二大市场, 第三大客户): one of its own,
# found or declined by agent/described.py, never a ranking of listed companies.
_OWN_PARTS = r"(?:市场|地区|区域|分部|板块|业务|子公司|品牌|产品|门店|" + _OWN_PARTIES[3:]
_RANKING = re.compile(
    r"哪[家几]|哪[一两三四五六七八九十\d]+家|哪些(?:上市)?公司|哪个公司|上市公司中|"
    r"前\s*(?:\d+|[一二三四五六七八九十]+)\s*[家名位](?!\s*(?:的)?\s*" + _OWN_PARTIES + r")|"
    r"第\s*(?:\d+|[一二三四五六七八九十]+)\s*(?:高|低|多|少|大|小|名)(?!\s*的?\s*"
    + _OWN_PARTS
    + r")|"
    r"(?:最高|最低|最多|最少|最大|最小).{0,30}上市公司|上市公司.{0,30}(?:最高|最低|最多|最少)|"
    r"多少(?:家)?(?:上市)?公司|上市公司(?:有|的)?(?:数量|个数)|"
    r"which (?:listed )?compan|how many (?:listed )?compan"
)
# Statement terms a name stands in front of, whether or not the profile knows the metric.
_TERMS = (
    "营业总收入", "营业收入", "营业外收入", "营业外支出", "营业利润", "营业成本", "利润总额",
    "净利润", "投资收益", "利息收入", "利息支出", "研发经费", "研发费用", "研发人员", "销售费用",
    "管理费用", "财务费用", "货币资金", "现金", "总资产", "资产总额", "负债", "总负债", "流动资产",
    "固定资产", "无形资产", "存货", "应收", "应付", "股本", "所有者权益", "每股", "法定代表人",
    "证券代码", "注册", "员工", "职工", "办公地址", "电子信箱", "收入", "利润", "费用", "资产",
    "归属", "归母", "企业研发", "社会责任", "核心竞争力", "主营业务", "审计意见", "关键审计事项",
    "研发投入", "现金流", "股权激励", "控股股东", "环境信息", "毛利率", "增长率",
)  # fmt: skip
# Words that stand where a name would but name nobody in particular.
_GENERIC = {
    "公司", "本公司", "该公司", "贵公司", "我公司", "集团", "本集团", "企业", "上市公司",
    "我们", "你们", "年报", "财报", "年度报告", "报告期", "财务数据", "数据", "全国", "中国",
    "国内", "全年", "今年", "去年", "前年", "明年", "上年", "同期", "近年", "各年", "当年",
    "每年", "截至", "时候", "期间", "其中", "情况", "方面", "多少", "是否",
    "自身", "本身", "自己", "其自身", "它自己",  # the one just named, itself: no other company
}  # fmt: skip


@dataclass(frozen=True)
class OutOfScope:
    kind: str  # "company" or "ranking"
    name: str = ""  # the company as the user wrote it


def out_of_scope(question: str, profile: DomainProfile) -> OutOfScope | None:
    """Another company the question names, or a ranking across companies; None if neither."""
    text, index = fold_with_index(question)
    text = without_glossed(text)  # 店效(即单店收入): the glossed word names no company
    for start, end in description_spans(text):  # 最赚钱的地区: a part described, no company
        text = text[:start] + " " * (end - start) + text[end:]
    known = profile.memo("scope_known_pieces", lambda: _pieces(_known_words(profile)))
    home = profile.memo("scope_home_words", lambda: _home_words(profile))
    for match in _LEGAL.finditer(text):
        span = _trim(text, *match.span("name"))
        if span is not None and not any(w in compact(text[span[0] : span[1]]) for w in home):
            return OutOfScope("company", _original(question, index, span))
        if span is not None and _holds_home(text[span[0] : span[1]], home, profile):
            return OutOfScope("company", _original(question, index, (span[0], match.end())))
    if _RANKING.search(text):
        return OutOfScope("ranking")
    listed = profile.memo("scope_listed", lambda: _listed_pattern(profile))
    named = listed.search(text) if listed is not None else None
    if named is not None:  # 移远通信, or 金宇车城 where the profile's 金宇 stands inside it
        return OutOfScope("company", _original(question, index, named.span()))
    for code in _STOCK_CODE.finditer(text):
        if code.group() not in home:  # the home company's own code names it
            return OutOfScope("company", code.group())
    terms = profile.memo("scope_terms", lambda: _terms_pattern(profile))
    for start, end in _entity_spans(text, known, terms, home):
        return OutOfScope("company", _original(question, index, (start, end)))
    return None


def _holds_home(name: str, home: list[str], profile: DomainProfile) -> bool:
    """Whether a legal name holding the home company's name is another company's: a place
    before it or a trade after it (控股, 集团) that the home company's own legal name does not
    hold (内蒙古金宇生物控股有限公司, its shareholder, beside 金宇生物技术股份有限公司)."""
    flat = compact(name)
    own = compact(fold(profile.home_company_name))
    word = max((w for w in home if w in flat), key=len, default="")
    if not word or flat in own:
        return False
    before, after = flat.split(word, 1)
    placed = any(before.startswith(p) for p in _folded_places()) and before not in own
    traded = bool(after) and _TRADES.search(after) is not None and after not in own
    return placed or traded


def _entity_spans(
    text: str, known: frozenset[str], terms_pattern: re.Pattern[str], entities: list[str]
) -> list[tuple[int, int]]:
    """Spans where an entity stands, naming nobody the profile knows: right after a year and
    before a statement term (2019年特变电工利息收入), or before a year that a statement term
    follows (立昂微2020年的企业研发经费). A term in a sentence asking a rule (``rules.py``) asks
    no figure: no name is guessed before it (促销期间品类毛利率的底线)."""
    if not _YEAR.search(text):
        return []
    ruled = ruled_sentences(text)  # 毛利率的底线怎么规定: a rule asked, no figure of a name
    terms = [
        m.start()
        for m in terms_pattern.finditer(text)
        if not any(s <= m.start() < e for s, e in ruled)
    ]
    out = []
    for year in _YEAR.finditer(text):
        after = next((t for t in terms if t >= year.end()), None)
        if after is None:
            continue  # no statement term after the year: not a question about a figure
        if after - year.end() <= 8:
            lead = max((m.end() for m in _LEADS.finditer(text, 0, year.start())), default=0)
            out.append((lead, year.start()))  # the name before the year reads first
        out.append((year.end(), after))
    spans = [_own_part(text, _trim(text, s, e), entities) for s, e in out]
    return [span for span in spans if span is not None and _is_name(text, span, known, entities)]


# What a company calls a part of itself: 金宇生物巴西子公司, 高雄門市 name a part, not a company.
_PART_WORDS = re.compile(
    r"(?:子公司|分公司|孙公司|办事处|分部|事业部|门市|门店|分店|店|工厂|厂区|基地|业务|板块|市场|"
    r"地区|区域|项目|产品|疫苗|系列|品牌)$"
)


def _own_part(text: str, span: tuple[int, int] | None, home: list[str]) -> tuple[int, int] | None:
    """The name in a span where a company may stand, or None: the home company with one of its
    parts (金宇生物三项, 金宇生物巴西子公司) and a place with a part word (高雄门市) name no other
    company (the parser declines the part by its name); a phrase that starts with a comparison, a
    per-unit word or a verb (收入相比 is cut to 收入, 平均每家门店 and 拥有硕士学历 are none), and
    what follows 的 (蓝英装备的衍生金融 is 蓝英装备) are not part of a name."""
    if span is None:
        return None
    start, end = span
    cut = _NOT_A_COMPANY.search(text, start, end)
    if cut is not None:
        if cut.start() == start or _PER_UNIT.fullmatch(cut.group()):
            return None  # 居民人均可支配收入: who a figure is per is part of the quantity
        end = cut.start()
    owner = text.find("的", start, end)
    end = owner if owner > start else end
    flat = text[start:end]
    if len(flat) < 2:
        return None
    lead = max((w for w in home if flat.startswith(w)), key=len, default="")
    if lead and not _TRADES.search(flat[len(lead) :]):
        return None  # the home company, then a part of it
    if _PART_WORDS.search(flat) and any(p in flat for p in _folded_places()):
        return None  # 高雄门市, 哈尔滨分公司
    return start, end


@cache
def _folded_places() -> tuple[str, ...]:
    """Every place's name, folded once (a question is folded the same way)."""
    return tuple(fold(p) for names in places() for p in names)


_PUNCT = re.compile(r"[,,。::;;、??]")
_LEADS = re.compile(r"[,,。::;;、?? ]|请问|请告诉我|提供|根据|关于|为什么|为何")
_NOT_A_NAME = re.compile(
    r"年报|报告|财报|提及|披露|数据|合计|总计|情况|期末|期初|本期|上期|描述|介绍|分析|说明|一下|"
    r"实现|发生|产生|取得|获得|录得|达到|完成|共计|累计|全年|整体"
)
# Where a name ends: a comparison, a per-unit word, a verb of having.
# A verb a figure is brought by (半价促销带来的销售额) ends the name before it too.
_NOT_A_COMPANY = re.compile(
    r"相比|相较|对比|比较|同比|环比|平均|每家|每个|每名|每位|人均|店均|单店|拥有|具有|持有|以上|以下|"
    r"带来|带动|贡献|拉动"
)
_PER_UNIT = re.compile(r"平均|每家|每个|每名|每位|人均|店均|单店")
# A period, not a name: a half-year's report (中期业绩, 中报) is the first half (periods.py).
_PERIOD_WORDS = re.compile(
    r"季|半年|上半|下半|财年|年度|月|全年|前三|中期(?:业绩|报告|财报|报)|中报|h[12]|q[1-4]|fy"
)


def _trim(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The name in a span: its last clause, less a request's words before and 的 after."""
    cuts = [m.end() for m in _PUNCT.finditer(text, start, end)]
    cuts += [m.end() for m in _YEAR.finditer(text, start, end)]
    start = max(cuts, default=start)  # 年报数据,索菱股份的 → 索菱股份的
    head = _HEAD.match(text, start, end)
    start = head.end() if head else start
    tail = _TAIL.search(text, start, end)
    end = tail.start() if tail else end
    return (start, end) if end - start >= 2 else None


def _is_name(text: str, span: tuple[int, int], known: frozenset[str], entities: list[str]) -> bool:
    flat = compact(text[span[0] : span[1]])
    if not 2 <= len(flat) <= 10 or flat in _GENERIC or flat[0] in "哪这那每各该本":
        return False
    if re.search(r"[\d?？]|是|多少|什么|怎么|如何|哪|请|能否|告诉|提供", flat):
        return False
    if re.match(r"[一二三四五六七八九十两几多]+(?:项|个|家|类|种|大|条|笔)", flat):
        return False  # 三项: a count of things, not a name
    if _PERIOD_WORDS.search(flat) or _NOT_A_NAME.search(flat):
        return False  # 第三季度, 上半年, 年报中提及: a period or a phrase, not a name
    # A span that is a word the profile knows, or part of one, or one of its entities with a
    # common word (香港业务), is its vocabulary; a name that merely holds a common word (宝新能源,
    # 广汽集团) is still a name, and so is one that holds an alias of the profile's inside a
    # longer name (四方 in 四方精创, 金宇 in 金宇车城: aliases are matched as whole names).
    return flat not in known and not _entities_with_common_words(flat, entities, known)


_COMMON_REST = frozenset(
    (  # noqa: SIM905
        "业务 市场 地区 区域 板块 分部 公司 集团 股份 门店 方面 整体 本身 旗下 内部 部分 分公司 "
        "子公司 团队 员工 总部 本部 全年 全部 所有 合计 总计 经营 业绩 财务 数据"
    ).split()
)


def _entities_with_common_words(flat: str, entities: list[str], known: frozenset[str]) -> bool:
    """香港业务, 香港和台湾, 香港线上线下: the profile's entities, and what else the span holds is
    its words, common words or 和 / 与 (or nothing)."""
    if not any(w in flat for w in entities):
        return False
    rest = flat
    for word in sorted(entities, key=len, reverse=True):
        rest = rest.replace(word, " ")
    parts = [p for p in re.split(r"[\s和与及、]+", rest) if p]
    return all(p in _COMMON_REST or len(_unknown_chars(p, known)) < 2 for p in parts)


def _unknown_chars(part: str, known: frozenset[str]) -> str:
    """What of ``part`` no known word covers, reading it left to right, longest word first."""
    out, i = "", 0
    while i < len(part):
        j = next((j for j in range(len(part), i + 1, -1) if part[i:j] in known), None)
        if j is None:
            out, i = out + part[i], i + 1
        else:
            i = j
    return out


def _pieces(known: list[str]) -> frozenset[str]:
    """Every stretch of 2 to 10 characters of the known words: a span is vocabulary when it is
    one of them (one set lookup, not a scan of every known word for every span)."""
    return frozenset(
        w[i:j] for w in known for i in range(len(w)) for j in range(i + 2, min(len(w), i + 10) + 1)
    )


def _known_words(profile: DomainProfile) -> list[str]:
    """Every word the profile knows: its company, entities, metrics, channels, synonyms, and the
    competitors the security gate handles; folded, longest first."""
    words = [profile.home_company_name]
    for entity in profile.entities:
        words += [entity.code, *entity.aliases]
    for metric in [*profile.metrics, *profile.derived_metrics]:
        words += [metric.code, *metric.aliases]
    for channel in profile.channels:
        words += [channel.code, *channel.aliases]
    for ext in profile.external_entities:
        words += [ext.name, *ext.aliases]
    for group in profile.synonyms:
        words += group
    folded = {compact(fold(w)) for w in words} | set(glossary_for(profile).words)
    return sorted((w for w in folded if len(w) >= 2), key=len, reverse=True)


def _terms_pattern(profile: DomainProfile) -> re.Pattern[str]:
    """The statement terms and the profile's metric names, one pattern, longest first."""
    every = [*profile.metrics, *profile.derived_metrics]
    words = {fold(w) for m in every for w in m.aliases} | set(_TERMS)
    ordered = sorted((w for w in words if len(w) >= 2), key=len, reverse=True)
    return re.compile("|".join(map(re.escape, ordered)))


def _home_words(profile: DomainProfile) -> list[str]:
    """What a legal name of the home company would hold: its name and its entities' names (and
    the competitors', which the gate handles), less the generic words (集团) every group holds."""
    words = [profile.home_company_name]
    for entity in profile.entities:
        words += entity.aliases
    for ext in profile.external_entities:
        words += [ext.name, *ext.aliases]
    folded = {compact(fold(w)) for w in words}
    return [w for w in folded if len(w) >= 2 and w not in _GENERIC]


# Listed companies' short names that are also everyday words.
_COMMON_NAMES = {"农产品", "老百姓", "人民网", "连云港", "好想你", "新能源", "青岛港"}
_LEGAL_END = re.compile(_SUFFIX + "$")


def _listed_pattern(profile: DomainProfile) -> re.Pattern[str] | None:
    """The shipped listed companies' names (legal names without their ending too), less the
    home company's and the profile's own words: one pattern, longest first."""
    own = set(_home_words(profile)) | set(_known_words(profile))
    names = set()
    for raw in listed_companies():
        short = _LEGAL_END.sub("", fold(raw))
        core = _core(short)
        for name in {fold(raw), short, *([core] if len(core) >= 4 else [])}:
            flat = compact(name)
            if len(flat) >= 3 and flat not in own and name not in _COMMON_NAMES:
                names.add(name)
    home = compact(fold(profile.home_company_name))
    names = {n for n in names if compact(n) not in home}
    if not names:
        return None
    return re.compile("|".join(map(re.escape, sorted(names, key=len, reverse=True))))


# What a legal name puts around the name people use: a place before it, a trade after it.
_TRADES = re.compile(
    r"(?:科技|技术|电子|资讯|信息|控股|实业|发展|医药|药业|生物|新材料|材料|新能源|能源|电气|智能|软件|"
    r"网络|通信|光电|环保|化工|机械|装备|汽车|食品|乳业|文化|传媒|地产|置业|建工|建设|工程|制药|医疗|"
    r"健康|物流|航空|证券|精密|工业|重工|钢铁|电力|水务|矿业|锂业|纺织|服饰|家居|电器|照明|半导体|"
    r"微电子|动力|集团)$"
)


def _core(name: str) -> str:
    """深圳四方精创资讯 → 四方精创: without the place it starts with and the trade it ends with."""
    for place in sorted((fold(p[0]) for p in places()), key=len, reverse=True):
        if name.startswith(place):
            name = name[len(place) :].removeprefix("市").removeprefix("省")
            break
    else:
        name = re.sub(r"^[\u4e00-\u9fff]{2,3}[市省]", "", name)
    return _TRADES.sub("", name)


def _original(question: str, index: list[int], span: tuple[int, int]) -> str:
    """The name as the user wrote it, through the folded text's map back to the question."""
    return question[index[span[0]] : index[span[1] - 1] + 1]
