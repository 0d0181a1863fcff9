"""The company a report is about, from its own words: the cover line (公司代码：603339
公司简称：四方科技) and the company-information section (公司的中文名称, 公司的中文简称,
公司的外文名称, 公司的外文名称缩写) every listed company's annual report prints near its start.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from ragspine.profile.model import compact
from ragspine.readers import FileContent

# Where a listed company's report names itself: its cover and its second section.
_FIRST_BLOCKS = 200
_FIELDS: dict[str, re.Pattern[str]] = {
    "code": re.compile(r"(?:公司代码|股票代码|证券代码)\s*[:：]\s*(\d{6})"),
    "short": re.compile(
        r"(?:(?:公司简称|股票简称|证券简称)\s*[:：]|公司的中文简称\s*[:：]?)\s*([^\s:：/|,，]+)"
    ),
    "legal": re.compile(r"公司的中文名称\s*[:：]?\s*([^\s:：/|,，]+)"),
    "english": re.compile(r"公司的外文名称(?!缩写)\s*[:：]?\s*([A-Za-z][^\n]*?)\s*$", re.M),
    "initials": re.compile(r"公司的外文名称缩写\s*[:：]?\s*([A-Za-z][A-Za-z0-9&.\- ]*?)\s*$", re.M),
}
_LEGAL_LINE = re.compile(r"^\s*(\S{4,}(?:股份有限公司|有限责任公司|有限公司))\s*$", re.M)
# A company's legal form, then the generic words people leave out when they write its name.
_LEGAL_FORM = re.compile(r"(?:股份有限公司|有限责任公司|有限公司)$")
_GENERIC_TAIL = ("集团", "控股", "股份", "技术", "科技")
_ENGLISH_FORM = re.compile(
    r"[\s,.，]*(?:co\.?\s*,?\s*ltd\.?|company limited|limited|inc\.?)\s*$", re.I
)
_ENGLISH_TAIL = re.compile(r"\s+(?:group|holdings?|corporation|corp\.?)$", re.I)  # 集团, 控股
_SHORTEST = 4  # a name shorter than this (四方, 金宇) reads inside too many other words


@dataclass
class CompanyNames:
    """What the report says of itself; ``where`` is the locator each field was read at."""

    legal: str = ""
    short: str = ""
    code: str = ""
    english: str = ""
    initials: str = ""
    where: dict[str, str] = field(default_factory=dict)

    @property
    def found(self) -> bool:
        return bool(self.legal or self.short)

    def aliases(self) -> list[str]:
        """The names a question may call the company by: its short name, legal name and the
        legal name without its legal form and generic trailing words (四方科技集团股份有限公司 →
        四方科技集团; 金宇生物技术股份有限公司 → 金宇生物技术 → 金宇生物), down to four
        characters; its stock code; its English name without Co., Ltd. (and without Group or
        Holdings) and its initials."""
        names = [self.short, self.legal, *legal_variants(self.legal), self.code]
        english = english_name(self.english)
        names += [english, _ENGLISH_TAIL.sub("", english), self.initials]
        out: list[str] = []
        for name in names:
            if name and compact(name) not in {compact(n) for n in out}:
                out.append(name)
        return out


def legal_variants(legal: str) -> list[str]:
    """四方科技集团股份有限公司 → [四方科技集团, 四方科技]: each generic word off the end in turn,
    never below four characters."""
    name = _LEGAL_FORM.sub("", legal)
    out = [name] if name and name != legal and len(name) >= _SHORTEST else []
    while True:
        tail = next((t for t in _GENERIC_TAIL if name.endswith(t)), None)
        if tail is None or len(name) - len(tail) < _SHORTEST:
            return out
        name = name[: -len(tail)]
        out.append(name)


def english_name(english: str) -> str:
    """SQUARE TECHNOLOGY GROUP CO.,LTD → Square Technology Group."""
    bare = _ENGLISH_FORM.sub("", unicodedata.normalize("NFKC", english).strip()).strip(" ,.")
    if not bare:
        return ""
    return bare.title() if bare.isupper() else bare


def company_names(content: FileContent) -> CompanyNames:
    """The names the report's first pages give, each from the first place that states it."""
    names = CompanyNames()
    for block in content.blocks[:_FIRST_BLOCKS]:
        for key, pattern in _FIELDS.items():
            m = pattern.search(block.text)
            if m and not getattr(names, key):
                setattr(names, key, m.group(1).strip())
                names.where[key] = block.locator
        if not names.legal:
            m = _LEGAL_LINE.search(block.text)
            if m:
                names.legal = m.group(1)
                names.where["legal"] = block.locator
    if names.legal and names.short.endswith(names.legal) and names.short != names.legal:
        names.short = names.short[: -len(names.legal)]  # 公司简称：金宇生物金宇生物技术股份有限公司
    return names
