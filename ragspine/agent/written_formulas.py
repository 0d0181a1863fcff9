"""A formula the question writes out over metric words: (流动资产−存货)÷流动负债,
营业收入减营业成本, revenue minus cost of sales, net profit / revenue × 100%.

Metric words joined by arithmetic signs or words (− - ÷ / × * +, 减 / 减去 / 除以 / 乘以 / 加,
minus / less / divided by / times / plus), with brackets, name ONE quantity: the formula's
result, never its operands' levels. It is matched, whatever order a sum or a product is written
in, against

- the profile's derived metrics' formulas (速动比率 is (流动资产 − 存货) / 流动负债), then
- the standard identities of the shipped phrase groups' shapes (gross profit is revenue less
  cost of sales, gross margin gross profit over revenue), each operand read as the profile's
  metric the group names (or the group itself where the profile holds none),

and read as that metric where the profile holds it (held or derived: its sourced figure, or its
formula with every operand's source). A formula that matches none is one quantity the fact
table cannot give: declined by the question's own words for it, never answered with its
operands. A difference named in words (the difference between A and B, A与B之差 / 的差额) is
the formula A − B, read the same way: never the two levels side by side.
A sum alone (A + B) is left to ``sums.py``; a ratio written in words alone (A 除以 B,
A divided by B) to ``ratios.py``; a slash between items asked 分别 / respectively is a list.
"""

from __future__ import annotations

import itertools
import re
from decimal import Decimal

from ragspine.profile import DomainProfile
from ragspine.profile.formula import FormulaError, Node, Operand, parse_formula
from ragspine.profile.glossary import AliasMatch
from ragspine.profile.vocabulary import group_anchor, phrase_groups

# The code a formula matching no metric is read under: a quantity the profile lacks.
UNMATCHED = "WRITTEN_FORMULA"

_OPS = {
    "-": "-", "−": "-", "–": "-", "减去": "-", "减掉": "-", "减": "-", "minus": "-", "less": "-",
    "÷": "/", "/": "/", "除以": "/", "divided by": "/",
    "×": "*", "*": "*", "乘以": "*", "乘": "*", "times": "*", "multiplied by": "*",
    "+": "+", "加上": "+", "加": "+", "plus": "+",
}  # fmt: skip
_GAP = re.compile(
    r"\s*(?P<close>(?:[)\]]\s*)*)(?P<op>[-−–÷/×*+]|减去|减掉|减|除以|乘以|乘|加上|加|"
    r"(?<![a-z])(?:minus|less|divided\s+by|times|multiplied\s+by|plus)(?![a-z]))"
    r"\s*(?:(?:the|its|their)\s+)?(?P<open>(?:[(\[]\s*)*)"
)
_OPENING = re.compile(r"(?:[(\[]\s*)+$")
_CLOSING = re.compile(r"\s*[)\]]")
_WORDED_DIVISION = ("除以", "divided by")
_LIST_ASKED = re.compile(r"分别|各自|各是|(?<![a-z])(?:respectively|each)(?![a-z])")
_PERCENT = re.compile(r"\s*[×*]\s*100\s*%?|\s*(?:乘以|times)\s*100\s*%?")


def with_formulas(
    text: str, scan: list[tuple[str, AliasMatch]], profile: DomainProfile
) -> list[tuple[str, AliasMatch]]:
    """The scan with each formula written out made one match: the metric it means
    (``metrics``), or a quantity the profile lacks (``quantity`` ``UNMATCHED``)."""
    named = sorted((m for k, m in scan if k in ("metrics", "quantity")), key=lambda m: m.start)
    out = list(scan)
    for a, b in itertools.pairwise(named):
        span = _difference_words(text, a, b)
        if span is None:
            continue
        code = _matched(f"{_operand(a.code)} - {_operand(b.code)}", profile)
        out = [(k, m) for k, m in out if m not in (a, b)]  # whose it is stays (Hong Kong's)
        out.append(("metrics" if code else "quantity", AliasMatch(code or UNMATCHED, *span)))
        return sorted(out, key=lambda km: km[1].start)
    i = 0
    while i < len(named):
        run, ops = [named[i]], []
        while i + len(run) < len(named):
            gap = _GAP.fullmatch(text, run[-1].end, named[i + len(run)].start)
            if gap is None:
                break
            ops.append(gap)
            run.append(named[i + len(run)])
        i += len(run)
        formula = _read(text, run, ops) if ops else None
        if formula is None:
            continue
        (start, end), written = formula
        code = _matched(written, profile)
        inside = [(k, m) for k, m in out if start <= m.start and m.end <= end]
        out = [km for km in out if km not in inside]
        kind = "metrics" if code else "quantity"
        out.append((kind, AliasMatch(code or UNMATCHED, start, end)))
    return sorted(out, key=lambda km: km[1].start)


# A difference named in words: the difference between A and B, A与B之差 / 的差额 / 的差值.
_DIFFERENCE_BEFORE = re.compile(r"(?<![a-z])difference\s+between\s+(?:[^,，?？;；]{0,40}?\s)?$")
_AND = re.compile(r"\s*(?:(?<![a-z])and(?![a-z])|与|和|跟|同)\s*(?:(?:the|its|their)\s+)?")
_DIFFERENCE_AFTER = re.compile(r"\s*(?:之间)?\s*(?:的)?\s*(?:之差|差额|差值|的差)")


def _difference_words(text: str, a: AliasMatch, b: AliasMatch) -> tuple[int, int] | None:
    """The span of a difference named in words over two metric words, or None: the same one
    quantity as A − B written with a sign, never the two levels side by side."""
    if not _AND.fullmatch(text, a.end, b.start):
        return None
    before = _DIFFERENCE_BEFORE.search(text, 0, a.start)
    if before is not None:
        return before.start(), b.end
    after = _DIFFERENCE_AFTER.match(text, b.end)
    return (a.start, after.end()) if after else None


def _read(
    text: str, run: list[AliasMatch], ops: list[re.Match[str]]
) -> tuple[tuple[int, int], str] | None:
    """The formula's span (its brackets with it) and its text over codes, or None where the run
    is no formula of this module's (a sum alone, a ratio in words alone, a list by slashes)."""
    signs = [_OPS[re.sub(r"\s+", " ", g.group("op"))] for g in ops]
    if set(signs) <= {"+"}:
        return None
    if len(ops) == 1 and re.sub(r"\s+", " ", ops[0].group("op")) in _WORDED_DIVISION:
        return None
    if "/" in [g.group("op") for g in ops] and _LIST_ASKED.search(text):
        return None
    opening = _OPENING.search(text, 0, run[0].start)
    depth = opening.group().count("(") + opening.group().count("[") if opening else 0
    start = opening.start() if opening else run[0].start
    parts = ["(" * depth, _operand(run[0].code)]
    for gap, sign, m in zip(ops, signs, run[1:], strict=True):
        closes = gap.group("close").count(")") + gap.group("close").count("]")
        opens = gap.group("open").count("(") + gap.group("open").count("[")
        depth += opens - closes
        if depth < 0:
            return None
        parts += [")" * closes, f" {sign} ", "(" * opens, _operand(m.code)]
    end = run[-1].end
    while depth > 0 and (close := _CLOSING.match(text, end)):
        end, depth = close.end(), depth - 1
        parts.append(")")
    if depth:
        return None
    hundred = _PERCENT.match(text, end)  # × 100%: the same ratio, in percent
    return ((start, hundred.end() if hundred else end), "".join(parts))


def _operand(code: str) -> str:
    """A sum the question lists (sums.py: A+B) stays one operand."""
    return f"({' + '.join(code.split('+'))})" if "+" in code else code


def _matched(written: str, profile: DomainProfile) -> str | None:
    """The profile's metric whose formula (or standard identity) the written one is."""
    try:
        tree = parse_formula(written).tree
    except FormulaError:
        return None
    return _formulas(profile).get(_canonical(tree))


def _formulas(profile: DomainProfile) -> dict[object, str | None]:
    """Canonical formula → the metric it means (None: a standard quantity the profile lacks)."""

    def build() -> dict[object, str | None]:
        out: dict[object, str | None] = {}
        for d in profile.derived_metrics:
            out.setdefault(_canonical(d.parsed.tree), d.code)
        for group in phrase_groups():
            tree = _shape_tree(group.shape, profile)
            if tree is None:
                continue
            anchor = group_anchor(group.id, profile)
            code = anchor.split(":", 1)[1] if anchor.startswith("metrics:") else None
            key = _canonical(tree)
            if out.get(key) is None:
                out[key] = code
        return out

    return profile.memo("written_formulas", build)


def _shape_tree(shape: tuple[str, ...], profile: DomainProfile) -> Node | None:
    """A shipped group's shape (ratio, difference, sum over group ids) as a formula tree over
    the profile's codes, each part the metric its group names here, else the group's id."""
    kind, refs = (shape[0], shape[1:]) if shape else ("", ())
    if kind not in ("ratio", "difference", "sum") or any(r.startswith("channel:") for r in refs):
        return None
    codes = []
    for ref in refs:
        anchor = group_anchor(ref, profile) if any(g.id == ref for g in phrase_groups()) else ref
        codes.append(anchor.split(":", 1)[1])
    sign = {"ratio": " / ", "difference": " - ", "sum": " + "}[kind]
    try:
        return parse_formula(sign.join(_operand(c) for c in codes)).tree
    except FormulaError:
        return None


def _canonical(node: Node) -> object:
    """A formula tree up to the order of a sum's terms and a product's factors (× 100 aside)."""
    if isinstance(node, Decimal):
        return ("n", str(node.normalize()))
    if isinstance(node, Operand):
        return ("m", node.code, node.lag, node.entity, node.channel)
    op = node[0]
    if op in "+-":
        terms = sorted(_terms(node, 1, "+-"), key=repr)
        return ("+", tuple(terms)) if len(terms) > 1 else terms[0][1]
    factors = [f for f in _terms(node, 1, "*/") if f != (1, ("n", "1E+2"))]
    factors.sort(key=repr)
    if len(factors) == 1 and factors[0][0] == 1:
        return factors[0][1]
    return ("*", tuple(factors))


def _terms(node: Node, sign: int, ops: str) -> list[tuple[int, object]]:
    """The signed terms of a sum (+ −) or the exponents of a product (* /), flattened."""
    if isinstance(node, tuple) and node[0] in ops:
        inverse = -1 if node[0] in "-/" else 1
        return _terms(node[1], sign, ops) + _terms(node[2], sign * inverse, ops)
    return [(sign, _canonical(node))]
