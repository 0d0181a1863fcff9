from __future__ import annotations

from decimal import Decimal

import pytest

from ragspine.profile.formula import FormulaError, Operand, formula_shape, parse_formula

REVENUE, COST = Operand("REVENUE"), Operand("COST")
LAST_REVENUE = Operand("REVENUE", 1)


@pytest.mark.parametrize(
    ("formula", "values", "expected"),
    [
        # the challenge's 毛利率 on 四方科技 2019: the official answer is 23.15%
        (
            "(REVENUE - COST) / REVENUE",
            {REVENUE: Decimal("1175301034.32"), COST: Decimal("903236584.52")},
            Decimal("0.23148490629671719491"),
        ),
        # a growth rate reads last year's value through prev()
        (
            "(REVENUE - prev(REVENUE)) / prev(REVENUE)",
            {REVENUE: Decimal("150"), LAST_REVENUE: Decimal("120")},
            Decimal("0.25"),
        ),
        # precedence: * and / bind tighter than + and -, left to right
        ("REVENUE - COST * 2 / 4", {REVENUE: Decimal(10), COST: Decimal(4)}, Decimal(8)),
        # unary minus and constants
        ("-REVENUE + 1", {REVENUE: Decimal(3)}, Decimal(-2)),
    ],
)
def test_a_formula_evaluates_exactly(
    formula: str, values: dict[Operand, Decimal], expected: Decimal
) -> None:
    value = parse_formula(formula).evaluate(values)
    assert value.quantize(Decimal("1e-20")) == expected.quantize(Decimal("1e-20"))


def test_operands_are_listed_once_in_the_order_written() -> None:
    f = parse_formula("(REVENUE - prev(REVENUE)) / prev(REVENUE) + COST / REVENUE")
    assert f.operands == (REVENUE, LAST_REVENUE, COST)
    assert f.codes == ["REVENUE", "COST"]


def test_a_zero_divisor_is_an_error_never_infinity() -> None:
    with pytest.raises(FormulaError, match="division by zero"):
        parse_formula("COST / REVENUE").evaluate({COST: Decimal(1), REVENUE: Decimal(0)})


def test_the_formula_renders_in_words_with_the_parentheses_it_needs() -> None:
    f = parse_formula("(REVENUE - prev(REVENUE)) / prev(REVENUE) - (COST - REVENUE)")
    names = {"REVENUE": "营业收入", "COST": "营业成本"}

    def name(o: Operand) -> str:
        return ("上年" if o.lag else "") + names[o.code]

    assert f.render(name) == "(营业收入 − 上年营业收入) / 上年营业收入 − (营业成本 − 营业收入)"


@pytest.mark.parametrize(
    ("formula", "why"),
    [
        ("REVENUE +", "ends too early"),  # incomplete
        ("(REVENUE", "expected ')'"),  # unbalanced
        ("REVENUE ** 2", "unexpected"),  # no power operator
        ("1 + 2", "names no metric"),  # a constant is not a metric
        ("prev(prev(REVENUE))", "prev() takes one metric code"),  # no nesting
        ("__import__('os')", "cannot read"),  # no code, no strings
        ("REVENUE; COST", "cannot read"),  # one expression only
    ],
)
def test_a_bad_formula_is_refused_saying_why(formula: str, why: str) -> None:
    with pytest.raises(FormulaError, match=why.replace("(", r"\(").replace(")", r"\)")):
        parse_formula(formula)


def test_an_operand_may_fix_its_entity_or_channel() -> None:
    f = parse_formula("REVENUE[channel=ONLINE] / REVENUE[channel=TOTAL, entity=ACME_GROUP]")
    assert f.operands == (
        Operand("REVENUE", channel="ONLINE"),
        Operand("REVENUE", entity="ACME_GROUP", channel="TOTAL"),
    )
    assert parse_formula("prev(REVENUE[entity=G])").operands == (Operand("REVENUE", 1, "G"),)


@pytest.mark.parametrize(
    ("formula", "why"),
    [
        ("REVENUE[period=FY2024]", "takes entity=CODE or channel=CODE"),  # only two qualifiers
        ("REVENUE[entity=]", "needs one code"),  # a key without a value
        ("REVENUE[entity=A, entity=B]", "needs one code"),  # one entity per operand
        ("REVENUE[entity=A", "expected ']'"),  # unclosed
    ],
)
def test_a_bad_qualifier_is_refused_saying_why(formula: str, why: str) -> None:
    with pytest.raises(FormulaError, match=why.replace("[", r"\[").replace("]", r"\]")):
        parse_formula(formula)


# A formula's shape: what a modifier in a question maps to (issue 27, agent/quantity.py).
@pytest.mark.parametrize(
    ("formula", "shape"),
    [
        ("(REVENUE - prev(REVENUE)) / prev(REVENUE)", ("growth", "REVENUE")),
        ("(REVENUE - prev(REVENUE)) / prev(REVENUE) * 100", ("growth", "REVENUE")),  # ×100
        ("REVENUE / prev(REVENUE) - 1", ("growth", "REVENUE")),  # the same growth
        ("NET_PROFIT / REVENUE", ("ratio", "NET_PROFIT", "REVENUE")),
        ("REVENUE / REVENUE[entity=ACME_GROUP]", ("entity_share", "REVENUE", "ACME_GROUP")),
        ("REVENUE[channel=ONLINE] / REVENUE[channel=TOTAL]",
         ("channel_share", "REVENUE", "ONLINE", "TOTAL")),
        # a sum, and a ratio of sums: a whole a share may be of (负债合计, 三项费用)
        ("GROSS_PROFIT + NET_PROFIT", ("sum", "GROSS_PROFIT+NET_PROFIT")),
        ("(SELLING_EXPENSES + ADMIN_EXPENSES) / REVENUE",
         ("ratio", "ADMIN_EXPENSES+SELLING_EXPENSES", "REVENUE")),
        ("CURRENT_LIABILITIES / (CURRENT_LIABILITIES + NON_CURRENT_LIABILITIES)",
         ("ratio", "CURRENT_LIABILITIES", "CURRENT_LIABILITIES+NON_CURRENT_LIABILITIES")),
        # the growth of a sum written out over its parts, in any order: 负债合计's growth
        ("(CURRENT_LIABILITIES + NON_CURRENT_LIABILITIES - prev(CURRENT_LIABILITIES)"
         " - prev(NON_CURRENT_LIABILITIES)) / (prev(CURRENT_LIABILITIES)"
         " + prev(NON_CURRENT_LIABILITIES))",
         ("growth", "CURRENT_LIABILITIES+NON_CURRENT_LIABILITIES")),
        ("((B + A) - (prev(A) + prev(B))) / (prev(B) + prev(A))", ("growth", "A+B")),
        ("(A + B) / (prev(A) + prev(B)) - 1", ("growth", "A+B")),  # the same, as a quotient
        ("(A + B - prev(A) - prev(B)) / prev(A)", None),  # over one part: not the sum's growth
        ("(A - prev(A) + prev(B)) / prev(A)", None),  # a term of another series added
        ("(A + B - prev(A) - prev(C)) / (prev(A) + prev(B))", None),  # not the same series
        ("GROSS_PROFIT - NET_PROFIT", None),  # a difference: no modifier means it
        ("(REVENUE - prev(NET_PROFIT)) / prev(REVENUE)", None),  # not one series' growth
    ],
)  # fmt: skip
def test_a_formulas_shape(formula: str, shape: tuple[str, ...] | None) -> None:
    assert formula_shape(parse_formula(formula).tree) == shape
