"""The plugin builds each named project's program model before pylint parses any
file: then the process is small enough to read the project's facts in forked
readers (mslint.analysis.forked), in parallel, where once pylint holds every
tree it reads them itself, one file after another."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

# pylint is run in a child process: it patches the model and pylint's parser to
# record which comes first
_RECORDER = textwrap.dedent(
    """
    import json, sys
    from pylint.lint import PyLinter, Run
    from mslint.analysis import programs

    order = []
    build, get_ast = programs.Model.__init__, PyLinter.get_ast

    def recording_build(self, *args, **kwargs):
        order.append("model")
        return build(self, *args, **kwargs)

    def recording_get_ast(self, filepath, modname, data=None):
        order.append("tree")
        return get_ast(self, filepath, modname, data)

    programs.Model.__init__ = recording_build
    PyLinter.get_ast = recording_get_ast
    Run(["--load-plugins=mslint", "--disable=all", "--enable=ms-batchnorm-momentum", "--persistent=n",
         "--score=n", *sys.argv[1:]], exit=False)
    print(json.dumps(order), file=sys.stderr)
    """
)


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "nets").mkdir(parents=True)
    (root / "setup.py").write_text("", encoding="utf-8")
    (root / "nets" / "__init__.py").write_text("", encoding="utf-8")
    (root / "nets" / "block.py").write_text(
        "from mindspore import nn\n\n\nclass Block(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
        "        self.bn = nn.BatchNorm2d(8, momentum=0.1)\n\n    def construct(self, x):\n        return self.bn(x)\n",
        encoding="utf-8",
    )
    (root / "train.py").write_text(
        "from mindspore import nn\nfrom nets.block import Block\n\nnet = Block()\n"
        "opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)\nnet.set_train()\nopt(net)\n",
        encoding="utf-8",
    )
    return root


def _order(root: Path, *paths: str) -> tuple[list[str], str]:
    done = subprocess.run(
        [sys.executable, "-c", _RECORDER, *paths], cwd=root, capture_output=True, text=True, timeout=300, check=False,
    )
    return json.loads(done.stderr.strip().splitlines()[-1]), done.stdout


def test_the_model_of_a_named_folder_is_built_before_any_tree(tmp_path: Path) -> None:
    root = _project(tmp_path)
    order, stdout = _order(root, ".")
    assert order.count("model") == 1
    assert order.index("model") < order.index("tree")
    # the finding still depends on the model: train.py trains the Block
    assert "block.py:7" in stdout and "ms-batchnorm-momentum" in stdout


def test_the_model_of_named_files_is_built_before_any_tree(tmp_path: Path) -> None:
    root = _project(tmp_path)
    order, stdout = _order(root, "nets/block.py", "train.py")
    assert order.count("model") == 1
    assert order.index("model") < order.index("tree")
    assert "block.py:7" in stdout
