"""Names a question gives that the profile does not know: a programme, a codename, a place, a
product line, a person, another company. Deterministic, read from the raw question.

A name is never replaced by something else: a metric question about it is declined by name
(the fact table has no row for it, and the group's figure is not its figure); a document
question about it is answered only from passages that name it, or said not to be found.

Strong signs, declined wherever they stand: "Project X" / "X programme", X项目 / X计划 / X系列 /
X品牌 with a name-like X, a quoted term, a name glued to a period (XyzFY2024), a capitalised
possessive ("Kweichow Moutai's"). Weak signs, declined only where no entity of the profile
stands (or glued to or listed with one: 中国内地深圳, 深圳和香港): a capitalised word, a place
(shipped list, or X市 / X区), a store's name (静安寺店).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ragspine.profile import DomainProfile
from ragspine.profile.glossary import AliasMatch, glossary_for
from ragspine.profile.model import compact
from ragspine.profile.vocabulary import GENERIC_ALIASES as GENERIC
from ragspine.text import fold

NAME, PLACE, COMPANY, WORD = "name", "place", "company", "word"


@dataclass(frozen=True)
class Subject:
    name: str  # as the question writes it
    stem: str  # folded and compact: what a passage must hold to be about it
    start: int  # in the folded text
    end: int
    strong: bool
    kind: str = NAME


_CJK = r"\u4e00-\u9fff"
_QUOTED = re.compile(r"[「『“\"《]([^」』”\"》]{2,30})[」』”\"》]")
_PROJECT_BEFORE = re.compile(
    r"\b(?:[Pp]roject|[Pp]rogramme|[Pp]rogram|[Ii]nitiative|[Oo]peration|[Cc]odename|[Cc]ode\s+name|"
    r"[Pp]artner|[Ss]ubsidiary|[Ss]upplier|[Cc]ustomer|[Cc]lient|[Bb]rand)"
    r"\s+(?P<name>[A-Z0-9][\w-]*(?:\s+[A-Z0-9][\w-]*)*)"
)
# A name (capitalised, or mixed case: mRNA) before what a company runs or sells, a few plain
# words between: the Skylark loyalty pilot, the ACME Kids stores, Jinyu's mRNA vaccine line.
_PROJECT_AFTER = re.compile(
    r"(?P<name>(?<![\w'’-])(?:[A-Z][\w-]*|[a-z]+[A-Z][\w-]*)(?:\s+(?:[A-Z][\w-]*|[a-z]+[A-Z][\w-]*))*)"
    r"(?:\s+[a-z][a-z-]*){0,2}?\s+(?:[Pp]roject|[Pp]rogramme|[Pp]rogram|[Ii]nitiative|[Pp]ilot|"
    r"[Ss]cheme|[Cc]ampaign|[Tt]rial|[Pp]roduct\s+[Ll]ine|[Ll]ine|[Rr]ange|[Ss]eries|[Bb]rand|"
    r"[Ss]ubsidiary|[Ss]tores?|[Ss]hops?|[Oo]utlets?|[Aa]pp|[Cc]ard|[Cc]lub|[Vv]enture|"
    r"[Pp]artnership|[Dd]eal|[Cc]ontract|[Aa]greement)\b"
)
# A company names its lines, products and partners: X项目, X疫苗, X公司 with a name-like X.
_STORE_EN = re.compile(r"\b(?:[Ss]tores?|[Ss]hops?|[Oo]utlets?)$")
_CJK_SUFFIX = re.compile(r"项目|计划|工程|系列|子品牌|品牌|产品线|疫苗|药品|制剂")
# A company the question says the company deals with: 金宇生物与硕腾公司, ACME和澳华公司.
_PARTNER = re.compile(rf"\s*(?:与|和|跟|同)\s*(?P<name>[{_CJK}]{{2,6}}?)(?:公司|集团)")
_LATIN_PROJECT = re.compile(
    r"(?<![a-z0-9_])(?P<name>[a-z][a-z0-9-]{1,20})\s*[\u4e00-\u9fff]{0,4}?"
    r"(?:项目|计划|工程|系列|品牌|产品线|疫苗|药品|产品)"
)
# A person: a common surname and one or two characters, where a person is asked about.
_SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程"
    "苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚"
    "邵万钱严覃武戴莫孔向汤"
)
_PERSON = re.compile(
    rf"(?P<name>[{_SURNAMES}][\u4e00-\u9fff]{{1,2}}?)(?=(?:先生|女士|(?:的)?(?:职务|职位|简历|背景|"
    rf"薪酬|年龄|持股|履历|任期))|(?:在[^,,。??]{{0,20}})?(?:担任|负责|任职|分管|主管|是谁))"
)
# 子公司扬州优邦, subsidiary Acme Foods, 合作伙伴…: what follows names one.
_RELATION = re.compile(
    rf"(?:子公司|分公司|孙公司|控股子公司|参股公司|合资公司|合作伙伴|合作方|供应商|客户)"
    rf"\s*(?P<name>[{_CJK}]{{2,8}}?)(?=的|在|和|与|及|、|,|,|。|\?|？|\d|$|公司|营业|收入|销售|利润)"
)
# A name glued to a period: XyzFY2024, Moutai2024 (the letters before FY or a year).
_GLUED = re.compile(
    r"(?<![a-z0-9_])(?P<name>[a-z][a-z&]*?)(?:fy\d{2}(?:\d{2})?|(?:19|20)\d{2})(?![0-9a-z])"
)
# A code (ACME_JP), a period (FY2024, Q3) or a figure in a capitalised run: not a name.
_CODE_LIKE = re.compile(r"_|\d")
_CAPITALISED = re.compile(
    r"(?<![A-Za-z0-9_'’])(?P<name>[A-Z][A-Za-z0-9_&.-]*(?:\s+(?:of\s+|&\s+)?[A-Z][A-Za-z0-9_&.-]*)*)"
    r"(?P<poss>['’]s(?![A-Za-z]))?"
)
_CJK_PLACE = re.compile(r"市|区|省|县")
_STORE = re.compile(rf"(?:分店|门店|店)(?![{_CJK}]?(?:数|数量|总数))")
# What may stand right before a CJK name: not a character of it.
_STOPS = set("的在和与及对从到于、请问是了把将给向为有年月日季度就跟")

_GENERIC_CJK = frozenset(
    (  # noqa: SIM905
        "投资 募投 募集资金 研发 在建 建设 重点 重大 股权激励 员工持股 持股 激励 回购 开店 关店 "
        "门店 发展 经营 工作 培训 会员 扶贫 减排 增持 减持 融资 发行 并购 收购 合作 改造 扩建 "
        "技改 试点 战略 年度 五年 三年 中长期 分红 该 本 此 这个 这些 哪些 什么 哪个 各 各个 相关 "
        "主要 其他 新 新建 新开 未来 明年 今年 去年 下一步 长期 短期 公益 环保 节能 数字化 信息化 "
        "降本 增效 采购 营销 推广 促销 招聘 人才 资本 预算 财务 业务 产品 服务 销售 生产 质量 "
        "安全 合规 审计 整改 补偿 退休 养老 保险 福利 薪酬 奖励 扩张 拓展 出售 剥离 转让 发债 "
        "债券 开发 建造 施工 基建 改革 转型 升级 装修 翻新 员工 管理 信息 系统 网络 物流 配送 "
        "仓储 供应链 库存 清货 清理 关闭 搬迁 上市 该项 此项 本项 哪项 一个 多个 两个 所有 全部 "
        "旗下 自营 直营 加盟 线下 线上 现有 存量 老 大型 小型 社区 旗舰 便利 专卖 实体 核心 标准 "
        "低效 亏损 盈利 优质 部分 每家 每个 各家 哪家 这家 那家 单 全 每 总 地区 园区 小区 辖区 "
        "市区 城区 郊区 片区 商区 景区 港区 新区 分区 大区 全区 本区 该区 各区 市场 城市 全市 "
        "本市 该市 都市 退市 股市 超市 门市 省份 全省 本省 外省 各省 县城 全县 疫苗 兽用 动物 "
        "生物 药品 新品 主营 主力 明星 高端 低端 中端 自有 进口 国产 sku 试运行 示范 扶持 援助 "
        "激励计划 持股计划 股权 分配 利润分配 回报 减排计划 控股 参股 关联 全资 联营 合营 外资 "
        "国有 民营 私营 上市 母 子 分 孙 该 贵 我 其 证券 信托 基金 银行 保险 咨询 会计师事务所 "
        "律师事务所 高管 董事 监事 经理 员工 职工 股东 客户 供应商 人员 品牌 子品牌 自营品牌 "
        "平均 每间 每店 单店 店均 人均 周末 周日 周六 平日 工作日 节假日 假日 节日 春节 晚间 "
        "夜间 早间 早班 晚班 夜班 高峰 旺季 淡季 "
    ).split()
)
# English words that start a sentence or title without naming anything.
_COMMON_EN = frozenset(
    (  # noqa: SIM905
        "what why how when where which who whose whom is are was were do does did can could "
        "should would will has have had please tell show give list compare explain describe "
        "summarise summarize provide the a an in for on at by from of and or our my your its "
        "their this that these those total group net gross operating revenue sales i we you it "
        "they there here if any all each every some no not than then also only about after before "
        "during between versus vs q1 q2 q3 q4 h1 h2 fy ytd yoy january february march april may "
        "june july august september october november december monday tuesday wednesday thursday "
        "friday saturday sunday keep round answer calculate find get look let ok yes hi hello "
        "dear thanks thank board ceo cfo coo chairman company companies store stores annual "
        "report "
    ).split()
)


def in_english(question: str) -> bool:
    """A question with no Chinese character is answered in English where the answer is words."""
    return re.search(r"[\u4e00-\u9fff]", question) is None


def find_subjects(
    question: str,
    text: str,
    index: list[int],
    scan: list[tuple[str, AliasMatch]],
    profile: DomainProfile,
) -> list[Subject]:
    """Every name the question gives that the profile does not know, in order.

    ``text`` is the folded question, ``index`` maps each of its characters to the question's,
    ``scan`` is the glossary's reading of ``text``."""
    known = _known(profile)
    words = glossary_for(profile).words  # without the synonyms: 越南 is a place, not an entity
    taken = [(m.start, m.end) for k, m in scan if k != "place"]
    out: list[Subject] = []

    def add(start: int, end: int, stem: str, strong: bool, kind: str = NAME) -> None:
        stem = compact(stem)
        if len(stem) < 2 or stem in (words if kind == PLACE else known):
            return
        if any(s.start < end and start < s.end for s in out):
            return
        if any(s <= start and end <= e for s, e in taken):
            return  # inside a word the profile knows
        name = question[index[start] : index[end - 1] + 1] if end > start else stem
        out.append(Subject(name.strip(), stem, start, end, strong, kind))

    for m in _QUOTED.finditer(text):
        inner = m.group(1).strip()
        if compact(inner) not in known and not _all_known(inner, scan, m.start(1), m.end(1)):
            add(m.start(1), m.end(1), _strip_suffix(inner), True)
    for m in _PROJECT_BEFORE.finditer(question):
        start, end = _folded_span(index, *m.span())
        add(start, end, m.group("name"), True)
    for m in _PROJECT_AFTER.finditer(question):
        parts = m.group("name").split()
        while parts and parts[0].lower() in _COMMON_EN:
            parts = parts[1:]  # How many stores: the words that start no name
        if any(_CODE_LIKE.search(w) for w in parts):
            continue  # a code or a period (FY2024) is no part of a name
        if parts and not all(w.isupper() and len(w) <= 5 for w in parts):
            first = question.index(parts[0], m.start("name"))
            start, end = _folded_span(index, first, m.end())
            if any(k == "place" and start <= w.start < end for k, w in scan):
                continue  # Beijing and Shanghai stores: places, read as places
            store = _STORE_EN.search(m.group())  # a store's name is a place, weak like 静安寺店
            add(start, end, " ".join(parts), not store, PLACE if store else NAME)
    leads = {m.end for k, m in scan}
    for m in _CJK_SUFFIX.finditer(text):
        for start in _names_before(text, m.start(), 2, 5, leads):
            if _name_like(text[start : m.start()], known):
                add(start, m.end(), text[start : m.start()], True)
                break
    for k, w in scan:
        p = _PARTNER.match(text, w.end) if k == "entities" else None
        if p and _name_like(p.group("name"), known) and not set(p.group("name")) & _STOPS:
            add(p.start("name"), p.end(), p.group("name"), True, COMPANY)
    for m in _PERSON.finditer(text):
        if _at_lead(text, m.start(), leads) and _name_like(m.group("name"), known):
            add(m.start("name"), m.end("name"), m.group("name"), True)
    for m in _RELATION.finditer(text):
        if _name_like(m.group("name"), known):
            add(m.start("name"), m.end("name"), m.group("name"), True, COMPANY)
    for m in _LATIN_PROJECT.finditer(text):
        if compact(m.group("name")) not in known and m.group("name") not in _COMMON_EN:
            add(m.start("name"), m.end(), m.group("name"), True)
    for m in _GLUED.finditer(text):
        name = m.group("name")
        if len(name) >= 2 and name not in _COMMON_EN and name not in ("fiscal", "year"):
            add(m.start("name"), m.end("name"), name, True, COMPANY)
    for kind, w in scan:
        if kind == "place" and _at_lead(text, w.start, leads):
            add(w.start, w.end, text[w.start : w.end], False, PLACE)
    for pattern, shortest, longest in ((_CJK_PLACE, 1, 3), (_STORE, 2, 4)):
        for m in pattern.finditer(text):
            for start in _names_before(text, m.start(), shortest, longest, leads):
                core = text[start : m.start()]
                name = core + m.group()  # 静安寺店, 北区
                usable = _name_like(core, words) or (len(core) == 1 and core not in _STOPS)
                common = pattern is _CJK_PLACE and name[-2:] in _GENERIC_CJK  # 家上市
                if usable and not common and name not in _GENERIC_CJK and core not in _GENERIC_CJK:
                    add(start, start + len(name), name, False, PLACE)
                break
    for m in _CAPITALISED.finditer(question):
        _capitalised(question, m, index, known, add)
    home = profile.home_entity_code
    for k, w in scan:  # ACME自有品牌咖啡2024年: the home company, then a part of it not known
        own = k == "entities" and w.code == home and compact(text[w.start : w.end]) not in GENERIC
        part = _HOME_PART.match(text, w.end) if own else None
        if part is not None:
            start = w.end + _generic_lead(part.group("run"))
            core = text[start : part.end("run")]
            plain = _NOT_A_PART.search(core) is None  # 全年, 合并报表: a period, a basis
            plain = plain and compact(part.group("run")) not in known  # 会员计划: a known word
            plain = plain and not _CJK_SUFFIX.fullmatch(core)  # 计划 alone names nothing
            if len(core) >= 2 and plain and _name_like(core, known) and core[0] not in _STOPS:
                add(start, part.end("run"), core, True)
    return sorted(out, key=lambda s: s.start)


_NOT_A_PART = re.compile(
    r"[年月季期度]|公司|股份|有限|控股|目前|当前|总共|累计|截至|截止|合并|母公司|本部|口径|报表|整体"
)
_HOME_PART = re.compile(rf"(?P<run>[{_CJK}]{{2,10}}?)(?=\s*(?:(?:19|20)\d{{2}}|fy\d|的))")


def _generic_lead(run: str) -> int:
    """How much of ``run`` is common words (自有品牌, 旗下) before a name."""
    at, moved = 0, True
    while moved:
        moved = False
        for g in sorted(_GENERIC_CJK, key=len, reverse=True):
            if len(g) >= 2 and run.startswith(g, at):
                at, moved = at + len(g), True
                break
    return at


def _capitalised(
    question: str,
    m: re.Match[str],
    index: list[int],
    known: frozenset[str],
    add: Callable[[int, int, str, bool, str], None],
) -> None:
    words = m.group("name").split()
    cut = next((i for i, w in enumerate(words) if _CODE_LIKE.search(w)), len(words))
    possessive = m.group("poss") is not None and cut == len(words)
    words = words[:cut]  # a code (ACME_JP) or a period (FY2024) ends the name
    start = m.start("name")
    initial = _sentence_start(question, start)
    # Leading words that start the sentence or are known are not the name.
    while words and initial and words[0].lower() in _COMMON_EN:
        start = question.index(words[0], start) + len(words[0])
        words = words[1:]
        initial = False
    if not words or compact(" ".join(words)) in known:
        return
    if any(compact(w) in known for w in words):
        return  # glued to a word the profile knows (ACME Club, Jinyu Bio): that word's name
    first = question.index(words[0], start)
    end = first + len(" ".join(words))
    acronym = len(words) == 1 and words[0].isupper() and len(words[0]) <= 5
    if (acronym or words[0].lower() in _COMMON_EN) and not possessive:
        return
    if words[0].isupper() and len(words) == 1 and not possessive:
        return
    span = _folded_span(index, first, end)
    # One capitalised word (Falcon) is a name in a metric question with no entity; a document
    # question is not held to it (African swine fever), unless it is CamelCase (PayFast).
    single = len(words) == 1 and not any(c.isupper() for c in words[0][1:])
    if re.search(r"[\u4e00-\u9fff]", question):
        single = False  # a Latin word in a Chinese question is a name (ACME与Lazada的合作)
    kind = COMPANY if possessive else WORD if single else NAME
    add(span[0], span[1], " ".join(words), possessive, kind)


def _sentence_start(question: str, at: int) -> bool:
    before = question[:at].rstrip()
    return not before or before[-1] in ".?!:;。？！：；\"'“(("


def _folded_span(index: list[int], start: int, end: int) -> tuple[int, int]:
    """The folded text's span of the question's ``start:end``."""
    lo = next((i for i, j in enumerate(index) if j >= start), len(index))
    hi = next((i for i, j in enumerate(index) if j >= end), len(index))
    return lo, hi


def _at_lead(text: str, start: int, leads: set[int]) -> bool:
    """A name starts the text, or follows a non-CJK character, a word the profile knows or a
    word a request puts before a name (的, 在, 对, 和…)."""
    if start == 0 or start in leads:
        return True
    before = text[start - 1]
    return not ("\u4e00" <= before <= "\u9fff") or before in _STOPS


def _names_before(text: str, end: int, shortest: int, longest: int, leads: set[int]) -> list[int]:
    """Where a CJK name ending at ``end`` may start, longest first: every character of it CJK and
    none a function character, its start at a lead."""
    out = []
    for size in range(longest, shortest - 1, -1):
        start = end - size
        chunk = text[start:end]
        if start < 0 or not all("\u4e00" <= c <= "\u9fff" for c in chunk):
            continue
        if any(c in _STOPS for c in chunk) or any(start < p < end for p in leads):
            continue
        if _at_lead(text, start, leads):
            out.append(start)
    return out


def _strip_suffix(term: str) -> str:
    stem = re.sub(r"(?:项目|计划|工程|系列|品牌|产品线)$", "", term)
    stem = re.sub(r"^(?:project|programme|program|initiative|operation)\s+", "", stem, flags=re.I)
    return stem if len(compact(stem)) >= 2 else term


def _name_like(name: str, known: frozenset[str]) -> bool:
    flat = compact(name)
    if len(flat) < 2 or name in _GENERIC_CJK or flat in known:
        return False
    if any(g in name for g in _GENERIC_CJK if len(g) >= 2):
        return False
    return not any(len(w) >= 2 and w in flat for w in known)


def _all_known(inner: str, scan: list[tuple[str, AliasMatch]], start: int, end: int) -> bool:
    covered = sum(m.end - m.start for k, m in scan if start <= m.start and m.end <= end)
    return covered >= len(compact(inner))


def _known(profile: DomainProfile) -> frozenset[str]:
    """Every word the profile, its shipped phrases and its synonyms name, compact."""

    def build() -> frozenset[str]:
        words = set(glossary_for(profile).words)
        words |= {compact(w) for group in profile.synonyms for w in group}
        words |= {compact(profile.home_company_name)}
        words |= {compact(e.code) for e in profile.entities}
        return frozenset(w for w in words if w)

    return profile.memo("subjects_known", build)


def declines(
    subject: Subject, scan: list[tuple[str, AliasMatch]], text: str, home: str = ""
) -> bool:
    """Whether a metric question is declined for this name: always for a strong sign; for a weak
    one, when no entity of the profile is named, or the name is glued to one or listed with it
    (中国内地深圳, 深圳和香港, Kowloon and Hong Kong)."""
    if subject.strong:
        return True
    # The home entity (集团, 金宇生物) is every place's parent: naming it names no other part.
    entities = [m for k, m in scan if k == "entities" and m.code != home]
    if not entities:
        return True
    joiner = re.compile(r"\s*(?:和|与|及|以及|、|,|,|&|and|or|或)?\s*")
    for e in entities:
        if e.end <= subject.start and joiner.fullmatch(text, e.end, subject.start):
            return True
        if subject.end <= e.start and joiner.fullmatch(text, subject.end, e.start):
            return True
    return False


def mentions(subject: Subject, passage: str, profile: DomainProfile) -> bool:
    """Whether a passage names the subject (or a synonym of it)."""
    flat = compact(fold(passage))
    groups = profile.memo(
        "subject_synonym_stems", lambda: [{compact(w) for w in g} for g in profile.synonyms]
    )
    stems = {subject.stem}
    for group in groups:
        if subject.stem in group:
            stems |= group
    return any(s and s in flat for s in stems)
