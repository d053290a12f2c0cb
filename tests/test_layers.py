"""Unit tests of the layer-migration checker (checkers/layers.py): its literal
evaluation, its messages' documentation, and the call forms the fixtures do not
spell out."""

from __future__ import annotations

from pathlib import Path

import astroid
import pytest
from pylint.testutils import CheckerTestCase

from mslint.knowledge import apis
from mslint.analysis import astutil
from mslint.checkers import layers

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("0.1", 0.1),
        ("-1", -1),
        ("1 - 0.1", 0.9),
        ("(1, 2)", (1, 2)),
        ("3 // 2", 1),
        ("'same'", "same"),
        ("1 - m", astutil.UNKNOWN),
        ("x.shape[2]", astutil.UNKNOWN),
        ("1 / 0", astutil.UNKNOWN),
        ("2 ** 1000", astutil.UNKNOWN),
    ],
)
def test_literal(source: str, expected: object) -> None:
    value = astutil.literal(astroid.extract_node(f"f({source})").args[0])
    if expected is astutil.UNKNOWN:
        assert value is astutil.UNKNOWN
    elif isinstance(expected, float):
        assert value == pytest.approx(expected)
    else:
        assert value == expected


def test_every_message_has_its_page() -> None:
    for msgid, (_, symbol, *_rest) in layers.LayersChecker.msgs.items():
        page = DOCS / f"{symbol}.md"
        assert page.read_text(encoding="utf-8").startswith(f"# {symbol} ({msgid})\n"), symbol


# Migration hints: wrong on native MindSpore code more often than right (audit at fc389bb).
_OFF_BY_DEFAULT = {"ms-layer-default-differs", "ms-conv-implicit-pad-mode", "ms-pool-implicit-stride"}


def test_migration_hints_are_off_by_default_and_the_rest_on() -> None:
    for _, symbol, _, *options in layers.LayersChecker.msgs.values():
        enabled = (options[0] if options else {}).get("default_enabled", True)
        assert enabled == (symbol not in _OFF_BY_DEFAULT), symbol


def test_every_table_entry_is_reachable_by_its_short_name() -> None:
    for qname in apis.LAYER_APIS:
        assert qname.rsplit(".", 1)[1] in layers._LAYER_SHORT_NAMES


class TestCallForms(CheckerTestCase):
    CHECKER_CLASS = layers.LayersChecker

    def _messages(self, source: str) -> list[str]:
        self.linter.release_messages()
        self.walk(astroid.parse(source))
        return [message.msg_id for message in self.linter.release_messages()]

    def test_resolved_through_every_import_spelling(self) -> None:
        for header, call in [
            ("import mindspore as ms", "ms.nn.Dropout(0.1)"),
            ("import mindspore.nn as nn", "nn.Dropout(0.1)"),
            ("from mindspore.nn import Dropout", "Dropout(0.1)"),
            ("from mindspore.nn.layer.basic import Dropout", "Dropout(0.1)"),
            ("from mindspore import nn as msnn", "msnn.Dropout(0.1)"),
        ]:
            assert self._messages(f"{header}\nlayer = {call}\n") == ["ms-dropout-keep-prob"], header

    def test_unresolved_or_shadowed_names_are_silent(self) -> None:
        for source in [
            "from torch import nn\nlayer = nn.Dropout(0.1)\n",
            "import mindspore\nnn = make()\nlayer = nn.Dropout(0.1)\n",
            "from mindspore import nn\ndef f(nn):\n    return nn.Dropout(0.1)\n",
            "from mindspore import nn\nDropout = nn.Dropout\nlayer = Dropout(0.1)\n",
            "from mindspore import *\nlayer = nn.Dropout(0.1)\n",
        ]:
            assert self._messages(source) == [], source
