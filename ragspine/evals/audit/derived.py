"""A derived metric, recomputed by the audit from its operand facts with the profile's formula,
in exact fractions: the engine's own figure for it is never taken on trust."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from ragspine.evals.audit.names import SlotNames


def recomputed(
    results: Iterable[Mapping[str, Any]], names: SlotNames | None
) -> list[Mapping[str, Any]]:
    """A derived metric's operands as facts, and its value as the audit computes it from them
    with the profile's formula: the engine's own figure for it is never taken on trust."""
    out: list[Mapping[str, Any]] = []
    for r in results:
        operands = r.get("operands") if r.get("status") == "found" else None
        if operands is None:
            out.append(r)
            continue
        out += [o for o in operands if isinstance(o, Mapping)]
        spec = (names.formulas if names else {}).get(str(r.get("metric_code")))
        own = (str(r.get("period", "")), str(r.get("entity", "")), str(r.get("channel", "")))
        value = _evaluate(spec[0], operands, *own) if spec else None
        if value is not None:
            out.append({**r, "value": str(value * 100 if spec and spec[1] else value)})
    return out


# CODE[entity=X, channel=Y]: an operand fixed to another entity or channel than the result's
# (a share of the group, of one channel), read as _at(CODE, entity=X, channel=Y).
_FIXED = re.compile(r"\b([A-Za-z_]\w*)\s*\[([^\[\]]*)\]")


def _evaluate(
    formula: str, operands: Sequence[Any], period: str, entity: str = "", channel: str = ""
) -> Fraction | None:
    """The formula over the operand facts, in exact fractions; None if anything is off. An
    operand is the result's own entity and channel unless the formula fixes one."""
    rows: list[tuple[str, str, str, str, Fraction]] = []
    for o in operands:
        try:
            value = Fraction(str(o["value_text"]))
        except (KeyError, TypeError, ValueError):
            return None
        where = (str(o.get("entity") or ""), str(o.get("channel") or ""))
        rows.append((str(o.get("metric_code")), str(o.get("period")), *where, value))
    earlier = f"{int(period[:4]) - 1:04d}{period[4:]}" if period[:4].isdigit() else ""

    def fact(node: ast.AST, when: str) -> Fraction:
        fixed: dict[str, str] = {}
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "_at"
            and len(node.args) == 1
        ):
            for kw in node.keywords:
                if kw.arg not in ("entity", "channel") or not isinstance(kw.value, ast.Name):
                    raise ValueError(ast.dump(node))
                fixed[kw.arg] = kw.value.id
            node = node.args[0]
        if not isinstance(node, ast.Name):
            raise ValueError(ast.dump(node))
        want = (fixed.get("entity", entity), fixed.get("channel", channel))
        for code, at, *where, value in rows:
            if (code, at) == (node.id, when) and all(
                not w or not o or w == o for w, o in zip(want, where, strict=True)
            ):
                return value
        raise KeyError(node.id)

    def walk(node: ast.AST) -> Fraction:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](walk(node.left), walk(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -walk(node.operand)
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            return Fraction(str(node.value))
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "prev"
            and len(node.args) == 1
        ):
            return fact(node.args[0], earlier)
        return fact(node, period)

    try:
        return walk(ast.parse(_FIXED.sub(r"_at(\1, \2)", formula), mode="eval"))
    except (SyntaxError, ValueError, KeyError, ZeroDivisionError):
        return None


_OPS: dict[type, Callable[[Fraction, Fraction], Fraction]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
}
