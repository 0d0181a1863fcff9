"""Derived-metric formulas: ``(REVENUE - prev(REVENUE)) / prev(REVENUE)``, parsed once, evaluated
exactly in Decimal. A formula names stored metric codes, ``prev(CODE)`` for the period before,
numbers, + - * / and parentheses; nothing else, so a profile cannot run code.

An operand may fix its entity or channel instead of taking the question's:
``REVENUE / REVENUE[entity=ACME_GROUP]`` is a share of the group,
``REVENUE[channel=ONLINE] / REVENUE[channel=TOTAL]`` a share of one channel.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal, DivisionByZero, InvalidOperation, localcontext

_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+(?:\.\d+)?)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<op>[-+*/()\[\]=,]))"
)


class FormulaError(ValueError):
    """A formula that does not parse, or cannot be evaluated (a zero divisor)."""


@dataclass(frozen=True)
class Operand:
    """A metric in the formula's period (lag 0) or the period before it (lag 1), for the
    question's entity and channel unless the formula fixes one (``entity``, ``channel``)."""

    code: str
    lag: int = 0
    entity: str | None = None
    channel: str | None = None


# An expression tree: a Decimal, an Operand, or (op, left, right).
Node = Decimal | Operand | tuple[str, "Node", "Node"]


@dataclass(frozen=True)
class Formula:
    text: str
    tree: Node
    operands: tuple[Operand, ...]  # each once, in the order written

    @property
    def codes(self) -> list[str]:
        return list(dict.fromkeys(o.code for o in self.operands))

    def evaluate(self, values: Mapping[Operand, Decimal]) -> Decimal:
        """The exact value; a zero divisor is a FormulaError, never infinity."""
        with localcontext() as ctx:
            ctx.prec = 34
            try:
                return _eval(self.tree, values)
            except (DivisionByZero, InvalidOperation) as exc:
                raise FormulaError(f"{self.text}: division by zero") from exc

    def render(self, name: Callable[[Operand], str]) -> str:
        """The formula in words: (营业收入 − 上年营业收入) / 上年营业收入."""
        return _render(self.tree, name, 0)


def parse_formula(text: str) -> Formula:
    tokens = _tokens(text)
    parser = _Parser(text, tokens)
    tree = parser.expr()
    if parser.pos != len(tokens):
        raise FormulaError(f"formula {text!r}: unexpected {tokens[parser.pos][1]!r}")
    operands: list[Operand] = []
    _collect(tree, operands)
    if not operands:
        raise FormulaError(f"formula {text!r} names no metric")
    return Formula(text, tree, tuple(dict.fromkeys(operands)))


def _tokens(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    stripped = text.rstrip()
    while pos < len(stripped):
        m = _TOKEN.match(stripped, pos)
        if not m or m.end() == pos:
            raise FormulaError(f"formula {text!r}: cannot read {stripped[pos:].strip()[:12]!r}")
        kind = m.lastgroup or ""
        out.append((kind, m.group(kind)))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str, tokens: list[tuple[str, str]]) -> None:
        self.text, self.tokens, self.pos = text, tokens, 0

    def _peek(self) -> tuple[str, str] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def _take(self, value: str) -> None:
        token = self._peek()
        if token is None or token[1] != value:
            got = token[1] if token else "the end"
            raise FormulaError(f"formula {self.text!r}: expected {value!r}, got {got!r}")
        self.pos += 1

    def expr(self) -> Node:
        node = self.term()
        while (t := self._peek()) and t[1] in "+-" and t[0] == "op":
            self.pos += 1
            node = (t[1], node, self.term())
        return node

    def term(self) -> Node:
        node = self.atom()
        while (t := self._peek()) and t[1] in "*/" and t[0] == "op":
            self.pos += 1
            node = (t[1], node, self.atom())
        return node

    def atom(self) -> Node:
        token = self._peek()
        if token is None:
            raise FormulaError(f"formula {self.text!r} ends too early")
        kind, value = token
        self.pos += 1
        if kind == "num":
            return Decimal(value)
        if value == "(":
            node = self.expr()
            self._take(")")
            return node
        if value == "-":
            return ("-", Decimal(0), self.atom())
        if kind == "name" and value == "prev":
            self._take("(")
            code = self._peek()
            if code is None or code[0] != "name" or code[1] == "prev":
                raise FormulaError(f"formula {self.text!r}: prev() takes one metric code")
            self.pos += 1
            operand = self._qualified(Operand(code[1], 1))
            self._take(")")
            return operand
        if kind == "name":
            return self._qualified(Operand(value))
        raise FormulaError(f"formula {self.text!r}: unexpected {value!r}")

    def _qualified(self, operand: Operand) -> Operand:
        """``CODE[entity=X, channel=Y]``: the operand's own entity or channel."""
        token = self._peek()
        if token is None or token[1] != "[":
            return operand
        self.pos += 1
        fixed: dict[str, str] = {}
        while True:
            key, value = self._peek(), None
            if key is None or key[0] != "name" or key[1] not in ("entity", "channel"):
                raise FormulaError(
                    f"formula {self.text!r}: {operand.code}[…] takes entity=CODE or channel=CODE"
                )
            self.pos += 1
            self._take("=")
            value = self._peek()
            if value is None or value[0] != "name" or key[1] in fixed:
                raise FormulaError(f"formula {self.text!r}: {key[1]}= needs one code")
            self.pos += 1
            fixed[key[1]] = value[1]
            token = self._peek()
            if token is not None and token[1] == ",":
                self.pos += 1
                continue
            self._take("]")
            return Operand(operand.code, operand.lag, fixed.get("entity"), fixed.get("channel"))


def _collect(node: Node, out: list[Operand]) -> None:
    if isinstance(node, Operand):
        out.append(node)
    elif isinstance(node, tuple):
        _collect(node[1], out)
        _collect(node[2], out)


def _eval(node: Node, values: Mapping[Operand, Decimal]) -> Decimal:
    if isinstance(node, Decimal):
        return node
    if isinstance(node, Operand):
        return values[node]
    op, left, right = node
    a, b = _eval(left, values), _eval(right, values)
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if b == 0:
        raise DivisionByZero
    return a / b


_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}


def _render(node: Node, name: Callable[[Operand], str], outer: int) -> str:
    if isinstance(node, Decimal):
        return str(node)
    if isinstance(node, Operand):
        return name(node)
    op, left, right = node
    mine = _PRECEDENCE[op]
    text = (
        f"{_render(left, name, mine)} {'−' if op == '-' else op} {_render(right, name, mine + 1)}"
    )
    return f"({text})" if mine < outer else text


def formula_shape(tree: Node) -> tuple[str, ...] | None:
    """("growth", X), ("ratio", X, Y), ("entity_share", X, E), ("channel_share", X, C, D),
    ("sum", "X+Y") or None, ignoring a ×100. In a ratio, X or Y may be a sum of metrics, named
    by ``sum_key`` (三项费用 over revenue: ("ratio", "ADMIN_EXPENSES+…", "REVENUE")); so may X
    of a growth (总负债增长率: ("growth", "CURRENT_LIABILITIES+NON_CURRENT_LIABILITIES"))."""
    if isinstance(tree, tuple) and tree[0] == "*" and Decimal(100) in (tree[1], tree[2]):
        tree = tree[2] if tree[1] == Decimal(100) else tree[1]
    total = _sum_codes(tree)
    if total is not None and len(total) > 1:
        return ("sum", sum_key(total))
    if isinstance(tree, tuple) and tree[0] == "/":
        above, below = _sum_codes(tree[1]), _sum_codes(tree[2])
        if above and below and (len(above) > 1 or len(below) > 1):
            return ("ratio", sum_key(above), sum_key(below))
    if not (isinstance(tree, tuple) and tree[0] == "/"):
        if isinstance(tree, tuple) and tree[0] == "-" and tree[2] == Decimal(1):
            inner = tree[1]  # X / prev(X) − 1
            if isinstance(inner, tuple) and inner[0] == "/":
                now, before = _sum_codes(inner[1]), _sum_codes(inner[2], lag=1)
                if now and sorted(now) == sorted(before or []):
                    return ("growth", sum_key(now))
        return None
    top, bottom = tree[1], tree[2]
    if isinstance(top, tuple) and top[0] == "-":
        return _growth(top, bottom)
    if not (isinstance(top, Operand) and isinstance(bottom, Operand)):
        return None
    if top.lag or bottom.lag:
        return None
    if top.code != bottom.code:
        plain = not (top.entity or top.channel or bottom.entity or bottom.channel)
        return ("ratio", top.code, bottom.code) if plain else None
    if top.entity is None and bottom.entity is not None and not (top.channel or bottom.channel):
        return ("entity_share", top.code, bottom.entity)
    if top.channel and bottom.channel and not (top.entity or bottom.entity):
        return ("channel_share", top.code, top.channel, bottom.channel)
    return None


def _growth(top: Node, bottom: Node) -> tuple[str, ...] | None:
    """(X − prev(X)) / prev(X), X a metric or a sum of metrics written out in any order:
    (A + B − prev(A) − prev(B)) / (prev(A) + prev(B)) is the growth of A + B (负债合计)."""
    terms = _signed(top, 1)
    below = _sum_codes(bottom, lag=1)
    if terms is None or not below:
        return None
    now = sorted(o.code for sign, o in terms if sign > 0 and o.lag == 0)
    before = sorted(o.code for sign, o in terms if sign < 0 and o.lag == 1)
    if len(now) + len(before) != len(terms) or not now or not now == before == sorted(below):
        return None
    return ("growth", sum_key(now))


def _signed(node: Node, sign: int) -> list[tuple[int, Operand]] | None:
    """A sum and difference of plain operands as signed terms, else None."""
    if isinstance(node, Operand):
        plain = node.entity is None and node.channel is None
        return [(sign, node)] if plain else None
    if isinstance(node, tuple) and node[0] in "+-":
        left, right = _signed(node[1], sign), _signed(node[2], sign if node[0] == "+" else -sign)
        return left + right if left is not None and right is not None else None
    return None


def sum_key(codes: list[str]) -> str:
    """One name for a sum of metrics, whatever order it is written in: A+B+C, sorted."""
    return "+".join(sorted(codes))


def _sum_codes(node: Node, lag: int = 0) -> list[str] | None:
    """The codes of a plain metric or a sum of plain metrics (this period, or the one before
    with ``lag``; the question's entity and channel), else None."""
    if _plain(node, lag):
        return [node.code]  # type: ignore[union-attr]
    if isinstance(node, tuple) and node[0] == "+":
        left, right = _sum_codes(node[1], lag), _sum_codes(node[2], lag)
        return left + right if left is not None and right is not None else None
    return None


def _plain(node: Node, lag: int) -> bool:
    return (
        isinstance(node, Operand)
        and node.lag == lag
        and node.entity is None
        and node.channel is None
    )
