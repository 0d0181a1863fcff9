"""The words that say what a number is of: direction, change, share, per unit, target and
forecast, currency and unit, relative periods, and where sentences and clauses end; and the
profile's own words (``Vocabulary``: its glossary, what kind of quantity each metric is, the
currency of each unit).

Matched on folded text (lower case, simplified); English words only on word boundaries.
"""

from __future__ import annotations

import re

from ragspine.profile import DomainProfile
from ragspine.profile.glossary import Glossary, glossary_for
from ragspine.profile.quantities import metric_shapes
from ragspine.text import fold

_EN = r"(?<![a-z])(?:{})(?![a-z])"


def _longest_first(words: str) -> str:
    """Alternatives longest first, and a trailing | for what follows: 净减少 before 净减."""
    return "|".join(sorted(words.split(), key=len, reverse=True)) + "|"


_UP = _longest_first(
    "增长 增加 上升 提升 提高 上涨 增至 升至 回升 走高 扩大 新开 净增加 净增 增幅"
) + _EN.format(
    "grew|grow|grows|growth|increased?|increases|rose|rise[sn]?|up|higher|gained?|climbed?"
)
_DOWN = _longest_first(
    "下降 减少 下滑 降低 下跌 萎缩 降至 减至 回落 走弱 降幅 净关闭 关闭 净减少 净减 缩小"
) + _EN.format(
    "fell|fall|falls|fallen|declined?|declines|decreased?|decreases|dropped|drops?|down|lower"
    "|shrank|reduced?|cut|discounts?|discounted|markdowns?"
)
DIRECTION = re.compile(f"(?P<down>{_DOWN})|(?P<up>{_UP})")
CHANGE_AFTER = re.compile(f"\\s*(?:的)?(?:{_UP}|{_DOWN})")
CHANGE_BEFORE_NAME = re.compile(f"(?:{_UP}|{_DOWN})$")  # 新开门店数, 净减少门店数
CHANGE = re.compile(f"{_UP}|{_DOWN}|增速|同比|环比|变动|" + _EN.format("yoy|year-on-year|change"))
TO_BEFORE = re.compile(
    r"(?:至|到|(?<![a-z])to)(?:\s*(?:约|近|超过|逾|about|approximately|roughly|nearly|over"
    r"|us\$|usd|hk\$|hkd|rmb|\$))*\s*$"
)
COMPARED = re.compile(
    r"(?:较|比|相比|高于|低于|(?<![a-z])(?:than|vs\.?|versus|compared\s+(?:with|to)))\s*$"
)
COMPARED_AFTER = re.compile(r"\s*(?:相比|相较|比较)")  # 与2022年相比
# An opening figure is the previous period's closing one: at the start of 2024, 2024年初.
OPENING = re.compile(r"(?<![a-z])(?:at\s+)?the\s+(?:start|beginning)\s+of\s*$")
OPENING_AFTER = re.compile(r"年?(?:初|期初)")
# What may stand between a rise or fall word and the figure it governs: 下降约5.7%, fell by 3%.
FILLER = re.compile(
    r"(?:\s|约|了|为|达|近|超过|逾|大约|至|到|"
    + _EN.format(r"by|of|about|around|approximately|roughly|nearly|some|over|almost|just|to")
    + r"|us\$|usd|hk\$|hkd|rmb|\$)*"
)
OF_WHOLE = re.compile(r"\s*of\s+(?:the\s+)?")  # 27% of (the) group's revenue
JOINED = re.compile(r"\s*(?:和|与|及|以及|、|,|,|&|或|(?<![a-z])(?:and|or)(?![a-z]))\s*")
FROM_MARK = re.compile(r"(?:由(?!于)|从|(?<![a-z])from)(?![a-z])")  # not 由于 (because)
TO_MARK = re.compile(r"(?:至|到|(?<![a-z])to)(?![a-z])")
SHARE_WORDS = re.compile(
    r"占|比重|份额|" + _EN.format(r"share|proportion|accounts?\s+for|accounted\s+for")
)
PER_UNIT_WORDS = re.compile(
    r"单店|每店|每家|每平方米|单位面积|每名员工|坪效|人效|"
    + _EN.format(r"per\s+(?:store|square|sq|employee|capita|unit)|intensity")
)
TARGET_WORDS = re.compile(
    r"目标|计划(?![书表内中的])|力争|规划|"
    + _EN.format("targets?|targeted|targeting|aims?|aiming|plans?|planned|planning|goals?")
)
FORECAST_WORDS = re.compile(
    r"预计|预期|有望|将达到|将达|"
    + _EN.format("expects?|expected|expecting|forecasts?|forecasted|guidance|outlook|projected")
    + _EN.format(r"will\s+reach")
)
BY_YEAR = re.compile(r"(?:到|(?<![a-z])by\s+(?:the\s+end\s+of\s+)?)((?:19|20)\d{2})(?!\d)")
CURRENCY_AFTER = re.compile(
    r"\s?(个工作日|工作日|个月|小时|天|日|周|星期|年|working\s+days?|business\s+days?|days?|weeks?"
    r"|months?|years?|hours?|美元|港元|港币|人民币|新台币|台币|元|家|间|usd|us\$|hkd|hk\$|rmb|cny|twd|nt\$"
    r"|dollars?|yuan|stores?|outlets?|shops?)(?![a-z])"
)
CURRENCY_BEFORE = re.compile(r"(usd|us\$|hkd|hk\$|rmb|cny|twd|nt\$|¥|\$)\s?$")
_CURRENCIES = {
    "美元": "USD", "usd": "USD", "us$": "USD", "$": "USD", "dollar": "USD", "dollars": "USD",
    "港元": "HKD", "港币": "HKD", "hkd": "HKD", "hk$": "HKD", "人民币": "CNY", "元": "CNY",
    "rmb": "CNY", "cny": "CNY", "¥": "CNY", "yuan": "CNY", "新台币": "TWD", "台币": "TWD",
    "twd": "TWD", "nt$": "TWD", "家": "COUNT", "间": "COUNT", "store": "COUNT",
    "stores": "COUNT", "outlet": "COUNT", "outlets": "COUNT", "shop": "COUNT", "shops": "COUNT",
    "个工作日": "WORKDAY", "工作日": "WORKDAY", "个月": "MONTH", "小时": "HOUR", "天": "DAY",
    "日": "DAY", "周": "WEEK", "星期": "WEEK", "年": "YEAR", "day": "DAY", "days": "DAY",
    "week": "WEEK", "weeks": "WEEK", "month": "MONTH", "months": "MONTH", "year": "YEAR",
    "years": "YEAR", "hour": "HOUR", "hours": "HOUR",
}  # fmt: skip
RELATIVE_PERIOD = re.compile(
    r"上一?年度?|上年末|上一?财年|去年|前一年|同期|"
    + _EN.format(r"prior\s+year|previous\s+year|last\s+year|(?:a\s+)?year\s+earlier")
)
OWN_PERIOD = re.compile(r"今年|本年度?|本财年|年内|" + _EN.format(r"this\s+year"))
SENTENCE_END = re.compile(r"[。!?!?;;\n]|\.(?=\s|$)")
# Chinese, a comma, then an English sentence: a new sentence (read on the unfolded text).
LANGUAGE_SWITCH = re.compile(r"(?<=[\u4e00-\u9fff])\s*[,，]\s*(?=[A-Z][a-z])")
CLAUSE_END = re.compile(r"[。!?!?;;\n]|\.(?=\s|$)|(?<!\d),|,(?!\d)|(?<!\d),|,(?!\d)")


def currency_word(word: str) -> str | None:
    word = " ".join(word.lower().split())
    if word.startswith(("working", "business")):
        return "WORKDAY"
    return _CURRENCIES.get(word)


class Vocabulary:
    """The profile's words as the reader needs them, built once per profile."""

    def __init__(self, profile: DomainProfile) -> None:
        self.profile = profile
        self.glossary: Glossary = glossary_for(profile)
        self.shapes = metric_shapes(profile)
        self.default_channel = profile.default_channel
        self._currencies: dict[str, str | None] = {}

    def currency_of_unit(self, unit: str) -> str | None:
        """USD for USD_M (百万美元), CNY for 万元, COUNT for 家; None for % or a plain ratio."""
        if unit not in self._currencies:
            shown = self.profile.unit(unit).display or unit
            word = CURRENCY_AFTER.search(fold(shown))
            self._currencies[unit] = currency_word(word.group(1)) if word else None
        return self._currencies[unit]


def vocabulary(profile: DomainProfile) -> Vocabulary:
    return profile.memo("claims_vocabulary", lambda: Vocabulary(profile))
