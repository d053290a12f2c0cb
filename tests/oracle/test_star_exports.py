"""What ``from <framework module> import *`` binds (mslint.knowledge.apis.star_exports,
read by mslint.analysis.resolve for names a star import brings):

- the shipped table is exactly what a star import of each module binds in the
  installed MindSpore (its ``__all__``) for mindspore.nn and mindspore.ops;
- ``from mindspore import *`` raises ModuleNotFoundError in MindSpore 2.10 (its
  ``__all__`` holds the characters of its version string, and names it lacks):
  the table keeps the names of its ``__all__`` that it has, what the statement
  binds where it works (older versions); ``Tensor``, never ``nn`` nor ``ops``
  (a following ``nn.BatchNorm2d(...)`` is a NameError, not MindSpore's layer);
- ``from mindspore.ops import *`` binds ``max`` over the builtin (mslint names
  it ``mindspore.ops.max``);
- ``from mindspore.nn import *`` binds ``BatchNorm2d`` and ``Cell``.
"""

from __future__ import annotations

from mslint.knowledge import apis


def test_table_star_exports_match_what_star_imports_bind(run_snippet):
    result = run_snippet(
        """
import builtins

bound = {}
for module in ("mindspore.nn", "mindspore.ops"):
    namespace = {}
    exec(f"from {module} import *", namespace)
    bound[module] = sorted(name for name in namespace if name != "__builtins__")
try:
    exec("from mindspore import *", {})
    star_mindspore = "ok"
except ImportError as error:
    star_mindspore = type(error).__name__
# what it binds where it works: its __all__'s names that it has
probe = {name: getattr(ms, name) for name in ms.__all__ if name.isidentifier() and hasattr(ms, name)}
bound["mindspore"] = sorted(probe)
try:
    exec("nn.BatchNorm2d(2, momentum=0.01)", probe)
    after_mindspore = "ok"
except NameError as error:
    after_mindspore = "NameError: " + str(error)
ops_star = {}
exec("from mindspore.ops import *", ops_star)
report(bound=bound, star_mindspore=star_mindspore, after_mindspore=after_mindspore, has_ops="ops" in probe,
       max_is_ops=ops_star["max"] is __import__("mindspore").ops.max, max_is_builtin=ops_star["max"] is builtins.max)
"""
    )
    for module, names in result["bound"].items():
        assert apis.star_exports(module) == frozenset(names), module
    assert result["star_mindspore"] == "ModuleNotFoundError"
    assert "Tensor" in apis.star_exports("mindspore")
    assert "nn" not in apis.star_exports("mindspore") and "ops" not in apis.star_exports("mindspore")
    assert result["after_mindspore"].startswith("NameError") and not result["has_ops"]
    assert result["max_is_ops"] and not result["max_is_builtin"]
    assert "max" in apis.star_exports("mindspore.ops")
    assert {"BatchNorm2d", "Cell"} <= apis.star_exports("mindspore.nn")
    assert apis.star_exports("torch.nn") is None
