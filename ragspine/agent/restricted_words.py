"""The words ``restricted_counts`` reads a count's predicate by: the count's own frame (never a
predicate) and the verbs of having that restrict (folded text: simplified, lower case)."""

from __future__ import annotations

import re

_HAVE_ZH = (
    r"(?:获得|取得|通过|配备|配置|配有|拥有|具有|具备|设有|设置|提供|支持|安装|引入|采用|开通|接入)"
)
# A verb of having or gaining opening a predicate after the noun (门店有停车场, 门店获得了认证).
HAVE_ZH = re.compile(rf"(?:{_HAVE_ZH}|有|设|带|带有|附设)")
# 获得LEED认证的门店: a verb of having and its object before the noun, joined by 的.
BEFORE_ZH = re.compile(
    rf"{_HAVE_ZH}\s*(?:了|过)?\s*(?P<obj>[^,,。??;;的]{{1,20}})的\s*(?:门店|店铺|分店|店|网点)?\s*$"
)
# The particles ending a Chinese clause after a count's predicate (门店亏损了吗?).
ZH_PARTICLES = re.compile(r"\s*(?:呢|吗|嘛|啊|呀|吧)?\s*$")
# The count's own frame after a Chinese counted noun: where (a preposition or verb of place; the
# place itself is read), how many in all or when, that the stores operate, a question word, a
# comparison or change (read elsewhere) and the particles.
ZH_FRAME = frozenset(
    (  # noqa: SIM905
        "分布在 分布于 开设在 设在 开在 位于 坐落于 在 于 分布 遍布 "
        "一共 总共 合计 总计 共计 共 左右 上下 大约 约 目前 现在 当前 如今 现时 "
        "至今 截至 截止 为止 "
        "年末 年底 期末 末 底 全球 全国 全世界 各地 各地区 境内 地区 区域 市场 一带 全部 总数 "
        "正在营业 在营业 营业中 正常营业 在营 营业 运营中 运营 经营 开业中 "
        "仍在 还在 仍然 依然 仍 还 分别 各自 各 哪些 哪个 哪里 哪儿 什么 怎样 如何 "
        "多少家 多少个 多少间 几家 几个 几间 多少 几 数量 数目 个数 家数 总数 "
        "相比 对比 比较 同比 环比 较 比 增加 减少 增长 下降 变化 多了 少了 "
        "有 是 的 了 过 都 均 已 已经 和 与 及 、 呢 吗 啊 呀 吧"
    ).split()
)

# A verb of having or offering after an English counted noun, and its object (stores with
# self-checkout, stores that have LEED certification, stores offering a pharmacy).
AFTER_EN = re.compile(
    r"\s+(?P<verb>(?:that|which)\s+(?:have|has|had|offer(?:s|ed)?|feature(?:s|d)?|carr(?:y|ies|ied)|"
    r"provide(?:s|d)?|hold(?:s)?|held|are\s+equipped\s+with|were\s+equipped\s+with)|"
    r"with|having|offering|featuring|carrying|providing|equipped\s+with|"
    r"have|has|had|offer|feature|carry|hold|held)\s+"
    r"(?P<obj>(?!(?:been|be|closed|opened|open|in|at|by|on|to|of|for|during|the\s+end|"
    r"it|they|there|we)(?![a-z]))[a-z][a-z&'/-]*(?:\s+(?!(?:in|at|by|on|during|for|did|does|"
    r"do|at|and|or|as)(?![a-z]))[a-z][a-z&'/-]*){0,3})"
)
EN_COPULA = frozenset(
    "are were is was remain remained remains stay stayed".split()  # noqa: SIM905
)
# Verbs whose subject is the counted noun and which say the stores exist or operate: the count.
EN_SUBJECT_VERBS = frozenset(
    (  # noqa: SIM905
        "operate operates operated run runs ran exist exists existed remain remains remained "
        "total totalled totaled number numbered trade trades traded"
    ).split()
)
# The count's own frame after an English counted noun (never a predicate): auxiliaries and the
# question's verbs, prepositions of place and time (the place and the period are read), words of
# total or time, and words saying the stores operate (open alone, operating, in operation).
EN_FRAME_WORDS = frozenset(
    (  # noqa: SIM905
        "do does did has have had will would can could should is are was were be been "
        "there here in at across on by of as during for from to within throughout the a an its "
        "their it they we you total all altogether overall in-total currently now today still "
        "already then end year year-end fiscal fy located based situated open operating "
        "operation active trading and or exactly approximately roughly about around nearly "
        "worldwide globally compared compare versus vs against than change changed growth grew "
        "increase increased decrease decreased up down more fewer less with"
    ).split()
)
EN_PREPOSITIONS = frozenset(
    "in at across on within throughout".split()  # noqa: SIM905
)
# A comparison ends the predicate: the words after it are what the count is compared with.
EN_COMPARE = frozenset(
    "compared compare comparing versus vs against than relative".split()  # noqa: SIM905
)
