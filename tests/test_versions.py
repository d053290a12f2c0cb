"""Code a MindSpore version check runs only on an older MindSpore than the
measured one (mslint/analysis/versions.py). Static: no framework."""

from __future__ import annotations

import astroid
import pytest
from astroid import nodes

from mslint.analysis import versions


@pytest.mark.parametrize(
    ("test", "expected"),
    [
        ('is_version_ge(ms.__version__, "1.11.0")', True),
        ('is_version_ge(ms.__version__, "2.11")', False),
        ('version_lt(ms.__version__, "2.0")', False),
        ('ms.__version__ < "1.11"', False),  # compared as strings, as Python does
        ('ms.__version__ >= "2.3"', False),  # as strings "2.10.0" >= "2.3" is False: the code's own bug
        ('version.parse(ms.__version__) >= version.parse("2.3")', True),
        ('LooseVersion(ms.__version__) < LooseVersion("1.8.1")', False),
        ('not is_version_ge(ms.__version__, "1.11.0")', False),
        ('is_version_ge(ms.__version__, "1.11.0") and flag', None),
        ('is_version_ge(ms.__version__, "1.11.0") or flag', True),
        ('check_version(ms.__version__, "1.11.0")', None),  # the name says no direction
        ('is_version_ge(torch.__version__, "1.11.0")', None),  # not MindSpore's version
        ('flag > 1', None),
    ],
)
def test_the_outcome_of_a_version_check_on_the_measured_mindspore(test: str, expected: bool | None) -> None:
    node = astroid.extract_node(f"import mindspore as ms\nimport torch\nfrom packaging import version\n{test} #@")
    assert versions.holds_on_measured(node) is expected


OLD_ONLY = """
import mindspore as ms
from mindspore import ops

def get_norm():
    def new(x):
        return ops.norm(x, ord=2)
    def old(x):
        return ops.norm(x, None, p=2)
    if is_version_ge(ms.__version__, "1.11.0"):
        return new
    return old

def pick(x):
    if ms.__version__ < "1.11":
        legacy = ops.norm(x, None, p=5)
    else:
        legacy = ops.norm(x, ord=5)
    return legacy if is_version_ge(ms.__version__, "3.0") else ops.norm(x, None, p=3)

def shared():
    def helper(x):
        return ops.norm(x, None, p=4)
    if is_version_ge(ms.__version__, "1.11.0"):
        return lambda x: helper(x)
    return helper
"""


def _norm_calls() -> dict[str, nodes.Call]:
    module = astroid.parse(OLD_ONLY)
    return {call.as_string(): call for call in module.nodes_of_class(nodes.Call)
            if isinstance(call.func, nodes.Attribute) and call.func.attrname == "norm"}


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ("ops.norm(x, None, p=2)", True),  # handed out after the new version's early return
        ("ops.norm(x, ord=2)", False),
        ("ops.norm(x, None, p=5)", True),  # the arm of a check 2.10 fails
        ("ops.norm(x, ord=5)", False),
        ("ops.norm(x, None, p=3)", False),  # 2.10 < 3.0: the measured version takes this arm
        ("ops.norm(x, None, p=4)", False),  # also handed out on the new version (the lambda)
    ],
)
def test_code_only_an_older_mindspore_runs(call: str, expected: bool) -> None:
    found = _norm_calls()[call]
    assert versions.older_mindspore_only(found) is expected


_HELPERS = '''
import mindspore as ms
from packaging import version

def is_old_ms(last="1.10.1"):
    """Whether the installed MindSpore is at most ``last``."""
    return version.parse(ms.__version__) <= version.parse(last)

def is_new_ms():
    return version.parse(ms.__version__) >= version.parse("2.0")

def is_old_on(last, device):
    return version.parse(ms.__version__) <= version.parse(last) and device == "Ascend"

def logged_old(last="1.10.1"):
    print(last)
    return version.parse(ms.__version__) <= version.parse(last)

def old_by_helper(last="1.10.1"):
    return is_old_ms(last)
'''


@pytest.mark.parametrize(
    ("test", "expected"),
    [
        ('is_old_ms("2.0.0-alpha")', False),
        ("is_old_ms()", False),
        ('is_old_ms(last="3.0")', True),
        ('not is_old_ms("2.0.0-alpha")', True),
        ("is_new_ms()", True),
        ('is_old_on("2.0", "Ascend")', False),  # decided by the version part alone: an "and" with False
        ('is_old_on("3.0", device)', None),  # the other part is not known
        ('logged_old("2.0")', None),  # more than one return in its body
        ('old_by_helper("2.0")', None),  # one level only
        ("is_old_ms(current)", None),  # an argument that is not a literal
        ("is_old_ms(*versions)", None),
    ],
)
def test_a_project_helper_that_returns_a_version_check_is_read(test: str, expected: bool | None) -> None:
    node = astroid.extract_node(f"{_HELPERS}\n{test} #@")
    assert versions.holds_on_measured(node) is expected
