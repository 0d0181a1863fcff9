"""A derived metric, recomputed by the audit from its operand facts with the profile's formula,
in exact fractions: the engine's own figure for it is never taken on trust."""

from __future__ import annotations

import ast
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
        value = _evaluate(spec[0], operands, str(r.get("period", ""))) if spec else None
        if value is not None:
            out.append({**r, "value": str(value * 100 if spec and spec[1] else value)})
    return out


def _evaluate(formula: str, operands: Sequence[Any], period: str) -> Fraction | None:
    """The formula over the operand facts, in exact fractions; None if anything is off."""
    values: dict[tuple[str, str], Fraction] = {}
    for o in operands:
        try:
            values[(str(o["metric_code"]), str(o["period"]))] = Fraction(str(o["value_text"]))
        except (KeyError, TypeError, ValueError):
            return None
    earlier = f"{int(period[:4]) - 1:04d}{period[4:]}" if period[:4].isdigit() else ""

    def walk(node: ast.AST) -> Fraction:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](walk(node.left), walk(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -walk(node.operand)
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            return Fraction(str(node.value))
        if isinstance(node, ast.Name):
            return values[(node.id, period)]
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "prev"
            and len(node.args) == 1
            and isinstance(node.args[0], ast.Name)
        ):
            return values[(node.args[0].id, earlier)]
        raise ValueError(ast.dump(node))

    try:
        return walk(ast.parse(formula, mode="eval"))
    except (SyntaxError, ValueError, KeyError, ZeroDivisionError):
        return None


_OPS: dict[type, Callable[[Fraction, Fraction], Fraction]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
}
