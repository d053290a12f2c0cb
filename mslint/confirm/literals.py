"""Evaluate the literal arguments of a layer call, and nothing else.

Constants, tuples and lists of them, unary ``-``/``+`` and arithmetic between
numbers (``1 - 0.9``, ``k // 2`` only when ``k`` is a literal). Anything else
(names, calls, attributes) is not a literal: runtime mode never evaluates the
user's expressions.
"""

from __future__ import annotations

import ast
import operator

_BINARY = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}


class NotLiteral(ValueError):
    pass


def evaluate(node: ast.AST) -> object:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str, bool, type(None))):
        return node.value
    if isinstance(node, ast.Tuple):
        return tuple(evaluate(element) for element in node.elts)
    if isinstance(node, ast.List):
        return [evaluate(element) for element in node.elts]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = evaluate(node.operand)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise NotLiteral(ast.unparse(node))
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = evaluate(node.left), evaluate(node.right)
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (left, right)):
            raise NotLiteral(ast.unparse(node))
        try:
            return _BINARY[type(node.op)](left, right)
        except ArithmeticError as error:
            raise NotLiteral(ast.unparse(node)) from error
    raise NotLiteral(ast.unparse(node))


def evaluate_source(source: str) -> object:
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError as error:
        raise NotLiteral(source) from error
    return evaluate(tree.body)


def is_literal(source: str) -> bool:
    try:
        evaluate_source(source)
    except NotLiteral:
        return False
    return True
