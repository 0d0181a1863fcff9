"""The words a name in a question is read against: common words that name nothing (Chinese and
English), the surnames a person's name starts with, the characters that end a name, an
organisation's kind words; and whether a run of text is name-like at all. Data for
``subjects``, ``subject_residue`` and ``home_parts``."""

from __future__ import annotations

import re
from functools import lru_cache

from ragspine.profile.model import compact

# The surnames a person's name starts with (see subjects._PERSON).
SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程"
    "苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚"
    "邵万钱严覃武戴莫孔向汤"
)

# What may stand right before a CJK name: not a character of it.
STOPS = set("的在和与及对从到于、请问是了把将给向为有年月日季度就跟")

GENERIC_CJK = frozenset(
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
        # a count's own words (多少个店长, 几位店员): the number asked is no part of a name
        "多少 几个 几位 几名 几家 几间 "
    ).split()
)
# An organisation's kind word: written right after its name it is part of the name (物业公司,
# 研发中心), though alone it names no one (公司 is a question's frame).
KIND_WORDS = re.compile(
    r"子公司|分公司|孙公司|公司|集团|中心|研究院|研究所|事业部|部门|基地|工厂|项目|基金会|协会|"
    r"合作社|医院|学校|学院|实验室"
)
# The words only an outside body's name ends with, never a unit of the company (公司, 中心 and
# 事业部 name its own): 汇丰银行, 员工工会, 农业大学, 市政府. Longest first.
OUTSIDE_HEADS_CJK = re.compile(
    r"会计师事务所|律师事务所|事务所|证券交易所|交易所|银行|大学|学院|医院|学校|工会|协会|商会|"
    r"联合会|委员会|基金会|基金|俱乐部|运动会|政府"
)
# English words that start a sentence or title without naming anything.
COMMON_EN = frozenset(
    (  # noqa: SIM905
        "what why how when where which who whose whom is are was were do does did can could "
        "should would will has have had please tell show give list compare explain describe "
        "summarise summarize provide the a an in for on at by from of and or our my your its "
        "their this that these those total group net gross operating revenue sales i we you it "
        "they there here if any all each every some no not than then also only about after before "
        "during between versus vs q1 q2 q3 q4 h1 h2 fy ytd yoy ttm ltm january february march "
        "april may "
        "june july august september october november december monday tuesday wednesday thursday "
        "friday saturday sunday keep round answer calculate find get look let ok yes hi hello "
        "dear thanks thank board ceo cfo coo chairman company companies store stores annual "
        "report "
    ).split()
)


def folded_span(index: list[int], start: int, end: int) -> tuple[int, int]:
    """The folded text's span of the question's ``start:end``."""
    lo = next((i for i, j in enumerate(index) if j >= start), len(index))
    hi = next((i for i, j in enumerate(index) if j >= end), len(index))
    return lo, hi


def name_like(name: str, known: frozenset[str]) -> bool:
    flat = compact(name)
    if len(flat) < 2 or name in GENERIC_CJK or flat in known:
        return False
    if holds_word(name, GENERIC_CJK):
        return False
    return not holds_word(flat, known)


def holds_word(text: str, words: frozenset[str]) -> bool:
    """Whether a word of two characters or more of ``words`` stands in ``text``: the text's own
    runs are looked up (a name holds a few hundred), never every word of a profile's thousands."""
    longest = _longest(words)
    size = len(text)
    return any(
        text[i:j] in words for i in range(size) for j in range(i + 2, min(size, i + longest) + 1)
    )


@lru_cache(maxsize=16)  # a few word sets per profile; a frozenset keeps its hash
def _longest(words: frozenset[str]) -> int:
    return max(map(len, words), default=0)
