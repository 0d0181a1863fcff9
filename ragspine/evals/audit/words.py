"""The words that give a number its context, in both languages: direction and from/to role,
modality (target, forecast), quantity modifier (growth, share, ratio, per unit), currency."""

from __future__ import annotations

import re

_RISE_ZH = "增长|增加|上升|提高|提升|上涨|回升|扩大|增|升|涨"
_FALL_ZH = "下降|减少|下滑|降低|下跌|回落|缩小|收窄|降|减|跌"
_RISE_EN = (
    r"grew|grow(?:s|ing)?|increas(?:e|ed|es|ing)|rose|rise[sn]?|rising|climb(?:ed|s|ing)?"
    r"|gain(?:ed|s)?|improv(?:ed|es|ing)|expand(?:ed|s|ing)?|jump(?:ed|s)?|up"
)
_FALL_EN = (
    r"fell|fall(?:s|ing|en)?|declin(?:e|ed|es|ing)|decreas(?:e|ed|es|ing)|drop(?:ped|s|ping)?"
    r"|reduc(?:e|ed|es|ing)|cut|shr[ai]nk(?:s|ing)?|slipp?(?:ed|s)?|lower(?:ed)?|down"
)
_EN_WORD = r"(?<![A-Za-z])(?:{})(?![A-Za-z])"
RISE = re.compile(f"{_RISE_ZH}|{_EN_WORD.format(_RISE_EN)}|增幅|涨幅", re.I)
FALL = re.compile(f"{_FALL_ZH}|{_EN_WORD.format(_FALL_EN)}|降幅|跌幅", re.I)
_CURRENCY_BEFORE = r"(?:US\$|USD|HK\$|HKD|RMB|CNY|NT\$|\$|¥)?\s*"
_ABOUT_WORDS = r"约|近|超过|逾|about|approximately|around|roughly|nearly|almost|over"
_ABOUT = rf"(?:{_ABOUT_WORDS})?\s*"

# 由上年的1400, from 410: the earlier value of a from-to pair
FROM = re.compile(
    r"(?:由(?!于|此|公式)|从(?!事|而|中|未)|(?<![A-Za-z])from)[^\d,;。!?]{0,10}$", re.I
)
# 增至455, 下降至1320, rose to 455, fell 5.7% to 1320
TO = re.compile(
    rf"(?:(?:{_RISE_ZH}|{_FALL_ZH})了?(?:至|到)|"
    rf"{_EN_WORD.format(_RISE_EN + '|' + _FALL_EN)}\s+(?:\S+\s+){{0,3}}?to\s+)"
    rf"{_ABOUT}{_CURRENCY_BEFORE}$",
    re.I,
)
TO_AFTER_FROM = re.compile(rf"(?:至|到|(?<![A-Za-z])to)\s*{_ABOUT}{_CURRENCY_BEFORE}$", re.I)
UP_TO = re.compile(r"(?<![A-Za-z])up\s+to\s*\S*$", re.I)
# 增长约11%, 净减少20家, grew by 11%, down 5.7%: a change, with its direction
CHANGE = re.compile(
    rf"(?:{_RISE_ZH}|{_FALL_ZH}|增幅|降幅|涨幅|跌幅|{_EN_WORD.format(_RISE_EN + '|' + _FALL_EN)})"
    rf"(?:了|达|为|是|:|\s|by|of|{_ABOUT_WORDS})*{_CURRENCY_BEFORE}$",
    re.I,
)
CHANGE_AFTER = re.compile(
    r"^\s*的?(?:(?P<fall>降幅|跌幅|下降|下滑|减少|decline|decrease|drop|fall|reduction|contraction"
    r"|lower)|(?P<rise>增幅|涨幅|增长|上升|提升|increase|growth|rise|gain|higher|jump))",
    re.I,
)
# 新开门店数, 净关闭门店数, new store count: a change word right before a metric's name makes
# the figure a change of it (540 new stores is not the store count of 540)
FLOW = re.compile(
    r"(?:新开设?|新增|新设|开设|关闭|关店|净(?:增加?|减少?|关闭|新增|开设?)|增加|减少)的?\s*$"
    r"|(?<![A-Za-z])(?:new|opened|closed|net\s+new|net)\s+$",
    re.I,
)

TARGET = re.compile(
    r"目标|力争|争取|计划(?=新|开|关|投|于|在|将|达|实|到|增|减|提|降)"
    r"|(?<![增升降减涨跌达提长加少低])到\s*(?:19|20)\d{2}\s*年"
    r"|(?<![A-Za-z])(?:targets?|targeted|aim(?:s|ed|ing)?|plan(?:s|ned|ning)?|goal|ambition"
    r"|by\s+(?:the\s+end\s+of\s+)?(?:19|20)\d{2})(?![A-Za-z])",
    re.I,
)
FORECAST = re.compile(
    # 预计负债, 预期信用损失, 预计使用寿命: accounting terms, not forecasts
    r"预计(?!负债|使用|净残值|可收回|未来现金)|预期(?!信用)|预测|有望|展望|指引|将(?:达到?|超过|增至|提升至|降至|突破|实现|增长|下降)"
    r"|(?<![A-Za-z])(?:expect(?:s|ed|ing)?|forecasts?|forecasted|guidance|outlook|projected"
    r"|projections?|will|anticipat\w*)(?![A-Za-z])",
    re.I,
)

PER_UNIT = re.compile(
    r"单店|店均|每平方?米|坪效|每家门店|每家店|每店|每股|人均"
    r"|(?<![A-Za-z])per\s+(?:store|square|sq|capita|share|employee|member|head)",
    re.I,
)
SHARE = re.compile(
    r"占比|占到|占|比重|份额|比例|(?<![A-Za-z])(?:share|proportion|accounted\s+for"
    r"|accounts?\s+for|accounting\s+for)(?![A-Za-z])",
    re.I,
)
SHARE_AFTER = re.compile(r"^\s*of\s+(?!which)", re.I)
# 降价20%, marked down by 20%, 20% off, a 20% discount: a cut of the price
DISCOUNT = re.compile(
    r"(?:降价|减价|折扣|打折|让利|优惠|(?<![A-Za-z])(?:marked\s+down|mark\s+down|markdowns?"
    r"|discount(?:ed|s)?|reduced\s+in\s+price|price\s+cuts?))[^,;。\d]{0,16}$",
    re.I,
)
DISCOUNT_AFTER = re.compile(r"^\s*(?:的)?(?:折扣|优惠|(?:discount|off|markdown)(?![A-Za-z]))", re.I)
GROWTH = re.compile(
    r"增速|增长率|同比|环比|增幅|降幅|涨幅|跌幅"
    r"|(?<![A-Za-z])(?:growth|yoy|year-on-year|year-over-year|y/y)(?![A-Za-z])",
    re.I,
)
RATIO = re.compile(r"率|(?<![A-Za-z])(?:margin|ratio|rate)(?![A-Za-z])", re.I)

_CURRENCIES = {
    # time first: 个工作日 and 个月 are no count of 个
    "WORKDAY": r"个?工作日|working\s+days?|business\s+days?",
    "HOUR": r"个?小时|hours?",
    "MONTH": r"个月|months?",
    "WEEK": r"个?星期|周|weeks?",
    "DAY": r"天|days?",
    "YEAR": r"年(?!度|末|初|底|报)|years?",
    "USD": r"美元|美金|US\s?dollars?|U\.S\.\s?dollars?|USD",
    "HKD": r"港元|港币|港幣|HK\s?dollars?|Hong\s+Kong\s+dollars?|HKD",
    "TWD": r"新台币|台币|NT\s?dollars?|TWD|NTD",
    "EUR": r"欧元|EUR|euros?",
    "GBP": r"英镑|GBP|pounds?\s+sterling",
    "JPY": r"日元|JPY|yen",
    "CNY": r"元人民币|人民币|RMB|CNY|yuan|元",
    "COUNT": r"家|间|个|名|人|位|stores?|shops?|outlets?|employees|people|persons|staff",
}
UNIT_AFTER = re.compile(
    r"^\s*(?:" + "|".join(f"(?P<{c}>{w})" for c, w in _CURRENCIES.items()) + r")(?![A-Za-z])",
    re.I,
)
UNIT_BEFORE = re.compile(
    r"(?:(?P<USD>US\$|USD|U\.S\.\$)|(?P<HKD>HK\$|HKD)|(?P<TWD>NT\$|TWD)|(?P<CNY>RMB|CNY|¥|人民币)"
    r"|(?P<EUR>€|EUR)|(?P<GBP>£|GBP))\s*$",
)
_SCALE_WORDS = re.compile(
    r"^\s*(?:万亿|百万|千万|十万|亿|万|千|million|billion|thousand|mn|bn)", re.I
)
_CODE_CURRENCY = re.compile(r"USD|HKD|CNY|RMB|TWD|NTD|EUR|GBP|JPY")


TIME_UNITS = {"WORKDAY", "HOUR", "MONTH", "WEEK", "DAY", "YEAR"}
# exact conversions only: a month is no fixed number of days, a working day no fixed hours
_PER = {("YEAR", "MONTH"): 12, ("WEEK", "DAY"): 7, ("DAY", "HOUR"): 24}


def time_ratio(unit: str, into: str) -> int | None:
    """How many ``into`` make one ``unit`` (a year is 12 months), where that is exact."""
    return _PER.get((unit, into))


def unit_after(text: str) -> str | None:
    m = UNIT_AFTER.match(text)
    return m.lastgroup if m else None


def unit_before(text: str) -> str | None:
    m = UNIT_BEFORE.search(text[-8:])
    return m.lastgroup if m else None


def unit_of_code(code: str, display: str, kind_count: bool = False) -> str | None:
    """A fact's unit as a currency or COUNT: from how the profile writes it, else its code."""
    shown = unit_after(_SCALE_WORDS.sub("", display)) if display else None
    if shown:
        return shown
    m = _CODE_CURRENCY.search(code.upper())
    if m:
        return {"RMB": "CNY", "NTD": "TWD"}.get(m.group(), m.group())
    return "COUNT" if kind_count or code.upper() in ("COUNT", "PERSON", "STORES") else None
