"""astutil.module_nodes answers what astroid's nodes_of_class answers, from one kept walk."""

from __future__ import annotations

from pathlib import Path

import astroid
from astroid import nodes

from mslint.analysis import astutil

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
QUERIES = (
    nodes.Call,
    nodes.ClassDef,
    nodes.Module,
    nodes.Assign,
    nodes.Name,
    nodes.FunctionDef,  # and its subclass AsyncFunctionDef
    nodes.Lambda,  # and its subclasses FunctionDef, AsyncFunctionDef
    nodes.Yield,  # and YieldFrom
    nodes.Nonlocal,  # absent from most modules
    (nodes.Import, nodes.ImportFrom),
    (nodes.AssignAttr, nodes.Call, nodes.Attribute),
    (nodes.Name, nodes.AssignName, nodes.Attribute, nodes.AssignAttr, nodes.Keyword, nodes.Import, nodes.ImportFrom),
)


def test_the_same_nodes_in_the_same_order_as_nodes_of_class_on_every_fixture() -> None:
    paths = sorted(FIXTURES.rglob("*.py"))
    assert len(paths) > 100
    for path in paths:
        try:
            module = astroid.parse(path.read_text(encoding="utf-8"), path=str(path))
        except astroid.AstroidSyntaxError:
            continue
        for query in QUERIES:
            assert astutil.module_nodes(module, query) == list(module.nodes_of_class(query)), (path, query)


def test_a_module_is_walked_once_and_forgotten_with_astroids_trees() -> None:
    module = astroid.parse("import os\nclass A:\n    def f(self):\n        return os.path.join('a', g(1))\n")
    calls = astutil.module_nodes(module, nodes.Call)
    assert [call.as_string() for call in calls] == ["os.path.join('a', g(1))", "g(1)"]
    assert astutil.module_nodes(module, nodes.Call) is calls
    astutil.forget()
    assert astutil.module_nodes(module, nodes.Call) is not calls
