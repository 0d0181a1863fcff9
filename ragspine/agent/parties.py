"""People and organisations a question names by what they are, whatever words their names hold.

- A person: a role word (店长, 员工, 经理, 董事, CEO …) then a personal name, a common surname
  (``subject_words.SURNAMES``, a short shipped list) and one or two characters (店长陈香港,
  员工王金宇, CEO李明). A name may hold a word the profile knows (香港, 金宇): inside a person's
  name it is part of the name, not the entity, and no slip of a metric's name reaches into it.
  Bounded so that a common word after a role is not a name: the name ends where the sentence's
  words end (jieba's reading, or a word the profile knows starts); it holds no function
  character; a name of two characters is no dictionary word (员工周转, 员工方面), a given name
  of two is no verb, adverb, time or function word (店长陈负责); the surname starts no word the
  profile knows (员工毛利).
- An organisation: a name before a kind word only an organisation's name ends with (致同会计师
  事务所, 宏昌置业, 国盛证券, 宁远银行), the name at a lead (the text's start, after 的 or a
  word the profile knows), name-like, and the whole no dictionary word (有价证券, 商业银行: the
  dictionary holds kinds of banks whole, and famous names too, which are left to the other
  readings of ``subjects``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragspine.agent.subject_words import STOPS, SURNAMES, name_like
from ragspine.profile.glossary import AliasMatch
from ragspine.text import CHAR_CACHE_SIZE

Span = tuple[int, int]

# The roles a question names a person by, longest first (副总经理 before 总经理 before 经理).
_ROLES = sorted(
    (  # noqa: SIM905
        "店长 副店长 店主 店员 员工 职工 雇员 职员 经理 总经理 副总经理 区域经理 部门经理 客户经理 "
        "总监 财务总监 董事长 副董事长 董事 独立董事 监事 监事长 总裁 副总裁 首席执行官 首席财务官 "
        "首席运营官 首席技术官 主席 主任 主管 负责人 创始人 实际控制人 实控人 董秘 董事会秘书 秘书 "
        "会计 出纳 工程师 研究员 销售员 业务员 顾问 律师 分析师 ceo cfo coo cto"
    ).split(),
    key=len,
    reverse=True,
)
_ROLE = re.compile(rf"(?:{'|'.join(_ROLES)})\s?(?=[{SURNAMES}])")
# What a question writes around a name, never a character of one.
_NOT_IN_NAME = STOPS | set("多少几么什哪呢吗共总是")
# A given name of two characters is not a word of these kinds: a verb, adverb, conjunction,
# preposition, particle, pronoun, numeral, time or place word (店长陈负责, 员工王今年).
_NOT_A_GIVEN_NAME = re.compile(r"^(?:v|vn|vd|d|c|p|u\w*|r\w*|m|mq|q|t|tg|f|a|ad|an)$")

# The words only an organisation's name ends with (an auditor, a bank, a broker, a developer).
_ORG_KINDS = re.compile(
    r"会计师事务所|律师事务所|事务所|律所|银行|证券|信托|置业|地产|资产管理|基金会|研究院|"
    r"咨询公司|评估公司|物业公司|医院|大学|学院|协会|商会"
)
_CJK = re.compile(r"[\u4e00-\u9fff]")


def person_spans(text: str, scan: list[AliasMatch]) -> list[tuple[int, int, int]]:
    """Each personal name after a role word in the folded ``text``: where its role starts, where
    the name starts and where it ends; ``scan`` is the glossary's reading of the text."""
    out: list[tuple[int, int, int]] = []
    roles = list(_ROLE.finditer(text))
    ends = _ends(text, scan) if roles else set()
    for role in roles:
        at = role.end()
        if any(m.start == at for m in scan):
            continue  # 员工毛利: the surname starts a word the profile knows
        for size in (2, 1):  # the longer name first: 陈香港, not 陈 and 香港
            end = at + 1 + size
            if end > len(text) or end not in ends:
                continue
            given = text[at + 1 : end]
            if not all(_CJK.match(c) and c not in _NOT_IN_NAME for c in given):
                continue
            if size == 1 and _dictionary_word(text[at:end]):
                continue  # 员工周转, 员工方面: a word, not a name
            if size == 2 and (_dictionary_word(text[at:end]) or _function_word(given)):
                continue  # 店长陈负责: the role's verb, not a given name
            out.append((role.start(), at, end))
            break
    return out


def organisation_spans(text: str, leads: set[int], known: frozenset[str]) -> list[Span]:
    """The spans of organisations named by their kind word (致同会计师事务所, 宏昌置业) in the
    folded ``text``; ``leads``: where a word the profile knows ends; ``known``: its words."""
    out: list[Span] = []
    for kind in _ORG_KINDS.finditer(text):
        for size in range(6, 1, -1):
            start = kind.start() - size
            name = text[start : kind.start()]
            if start < 0 or not all(_CJK.match(c) and c not in STOPS for c in name):
                continue
            if any(start < p < kind.start() for p in leads):
                continue  # a known word inside: 香港银行 is Hong Kong's
            lead = start == 0 or start in leads or not _CJK.match(text[start - 1])
            if not (lead or text[start - 1] in STOPS):
                continue
            if name_like(name, known) and not _dictionary_word(name + kind.group()):
                out.append((start, kind.end()))
            break
    return out


def _ends(text: str, scan: list[AliasMatch]) -> set[int]:
    """Where a word may end: jieba's word ends, a known word's start, a non-CJK character."""
    ends = {e for _, _, e in _tokens(text)} | {m.start for m in scan} | {len(text)}
    ends |= {i for i, c in enumerate(text) if not _CJK.match(c)}
    return ends


@lru_cache(maxsize=256)
def _tokens(text: str) -> list[tuple[str, int, int]]:
    import rjieba

    return list(rjieba.tokenize(text, "default", True))


@lru_cache(maxsize=CHAR_CACHE_SIZE)
def _dictionary_word(word: str) -> bool:
    import rjieba

    return bool(rjieba.has_word(word))


@lru_cache(maxsize=CHAR_CACHE_SIZE)
def _function_word(word: str) -> bool:
    import rjieba

    tags = rjieba.tag(word)
    return len(tags) == 1 and _dictionary_word(word) and bool(_NOT_A_GIVEN_NAME.match(tags[0][1]))
