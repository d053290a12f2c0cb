"""How the program runs (mslint.analysis.mode): entry scripts, what their set_context selects,
and the mode of each module; the command's --mode / [tool.mslint] mode and the
outputs that say which mode was taken. Static: no mindspore, no user code run."""

from __future__ import annotations

import ast
import json
import textwrap
from pathlib import Path

import pytest

from mslint.run import cli
from mslint.analysis import mode, programs


def _modes(source: str, path: str = "") -> set[str]:
    return set(mode.selected_modes(textwrap.dedent(source).encode(), path))


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("ms.set_context(mode=ms.GRAPH_MODE)", {"graph"}),
        ("context.set_context(mode=context.PYNATIVE_MODE, device_target='CPU')", {"pynative"}),
        ("from mindspore import GRAPH_MODE\nset_context(mode=GRAPH_MODE)", {"graph"}),
        ("ms.set_context(mode=0)", {"graph"}),
        ("ms.set_context(mode=1)", {"pynative"}),
        ("MODE = 1\nms.set_context(mode=MODE)", {"pynative"}),
        ("ms.set_context(mode=ms.GRAPH_MODE if args.graph else ms.PYNATIVE_MODE)", {"graph", "pynative"}),
        # a table keyed by an option: the entry its default selects, else left to the program model
        ("ms.set_context(mode={'graph': 0, 'pynative': 1}[args.mode])", {"unknown"}),
        ("p.add_argument('--mode', default='pynative')\nms.set_context(mode={'graph': 0, 'pynative': 1}[args.mode])",
         {"pynative"}),
        ("ms.set_context(mode={'graph': 0, 'pynative': 1}[run_kind()])", {"graph", "pynative"}),
        ("p.add_argument('--mode', type=int, default=1)\nms.set_context(mode=args.mode)", {"pynative"}),
        ("p.add_argument('--run-mode', default='GRAPH')\nms.set_context(mode=args.run_mode)", {"graph"}),
        ("p.add_argument('--mode', type=int, choices=[0, 1])\nms.set_context(mode=args.mode)", {"graph", "pynative"}),
        ("def init(cfg, mode=context.GRAPH_MODE):\n    context.set_context(mode=mode)", {"graph"}),
        ("def init(cfg, mode):\n    context.set_context(mode=mode)", {"unknown"}),
        ("ms.set_context(mode=config.mode)", {"unknown"}),
        ("ms.set_context(**settings)", {"unknown"}),
        ("ms.set_context(device_target='GPU')", set()),
        ("x = 1", set()),
        # a conditional on an option: the branch its default takes (its choices, without one)
        ("p.add_argument('--run', default='py', choices=['py', 'graph'])\n"
         "ms.set_context(mode=ms.PYNATIVE_MODE if args.run == 'py' else ms.GRAPH_MODE)", {"pynative"}),
        ("p.add_argument('--run', default='graph', choices=['py', 'graph'])\n"
         "ms.set_context(mode=ms.PYNATIVE_MODE if args.run == 'py' else ms.GRAPH_MODE)", {"graph"}),
        ("p.add_argument('--run', choices=['py', 'graph'])\n"
         "ms.set_context(mode=ms.PYNATIVE_MODE if args.run == 'py' else ms.GRAPH_MODE)", {"graph", "pynative"}),
        ("p.add_argument('--run', choices=['py', 'eager'])\n"
         "ms.set_context(mode=ms.PYNATIVE_MODE if args.run in ('py', 'eager') else ms.GRAPH_MODE)", {"pynative"}),
        ("p.add_argument('--eager', action='store_true')\n"
         "ms.set_context(mode=ms.PYNATIVE_MODE if args.eager else ms.GRAPH_MODE)", {"graph"}),
        ("p.add_argument('--run', default='PY')\nmode = ms.GRAPH_MODE if args.run.lower() != 'py' else ms.PYNATIVE_MODE\n"
         "ms.set_context(mode=mode)", {"pynative"}),
        # pure string methods of the option: the arm every possible value takes
        ("p.add_argument('--mode', default='PYNATIVE', choices=['PYNATIVE'])\n"
         "ms.set_context(mode=ms.GRAPH_MODE if args.mode.upper().startswith('GRAPH') else ms.PYNATIVE_MODE)",
         {"pynative"}),
        ("p.add_argument('--mode', default='GRAPH', choices=['GRAPH', 'PYNATIVE'])\n"
         "ms.set_context(mode=ms.GRAPH_MODE if args.mode.upper().startswith('GRAPH') else ms.PYNATIVE_MODE)",
         {"graph"}),
        ("p.add_argument('--mode', choices=['pynative', 'PyNative'])\n"
         "ms.set_context(mode=ms.GRAPH_MODE if 'graph' in args.mode.strip().lower() else ms.PYNATIVE_MODE)",
         {"pynative"}),
        ("p.add_argument('--mode', choices=['eager', 'graph'])\n"
         "ms.set_context(mode=ms.PYNATIVE_MODE if not args.mode.endswith('graph') else ms.GRAPH_MODE)",
         {"graph", "pynative"}),
        ("p.add_argument('--mode', default='kbk')\n"
         "ms.set_context(mode=ms.GRAPH_MODE if args.mode.startswith(('graph', 'kbk')) and True else ms.PYNATIVE_MODE)",
         {"graph"}),
        # a test this file cannot decide: a method that is not a pure string one, or an
        # option another file declares (left to the program model: mslint.analysis.programs)
        ("ms.set_context(mode=ms.GRAPH_MODE if args.mode.format(1).startswith('G') else ms.PYNATIVE_MODE)",
         {"graph", "pynative"}),
        ("ms.set_context(mode=ms.GRAPH_MODE if cfg.mode.upper().startswith('GRAPH') else ms.PYNATIVE_MODE)",
         {"unknown"}),
        # a saved mode put back (a context manager's __exit__) selects nothing
        ("class scope:\n    def __init__(self):\n        self._saved = ms.get_context('mode')\n"
         "    def __exit__(self, *exc):\n        ms.set_context(mode=self._saved)", set()),
        ("class scope:\n    def __exit__(self, *exc):\n        ms.set_context(mode=self._saved)", {"unknown"}),
        # a branch the module's own constant rules out sets nothing (``mode = 0`` picks PyNative here)
        ("mode = 0\nif mode == 0:\n    ms.set_context(mode=ms.PYNATIVE_MODE)\n"
         "elif mode == 1:\n    ms.set_context(mode=ms.GRAPH_MODE)", {"pynative"}),
        ("run = 'graph'\nif run != 'graph':\n    ms.set_context(mode=1)\nelse:\n    ms.set_context(mode=0)", {"graph"}),
        # not a constant: rebound, or a function's own parameter of that name
        ("mode = 0\nmode = pick()\nif mode == 0:\n    ms.set_context(mode=1)\nelse:\n    ms.set_context(mode=0)",
         {"graph", "pynative"}),
        ("mode = 0\ndef init(mode):\n    if mode == 1:\n        ms.set_context(mode=0)", {"graph"}),
    ],
)
def test_selected_modes(source: str, expected: set[str]) -> None:
    assert _modes(source) == expected


def test_a_conditional_on_an_option_another_file_declares_is_kept_as_a_table_of_its_test() -> None:
    (call,) = mode.context_calls(
        b"import mindspore as ms\ndef init_env(env_args):\n"
        b"    ms.set_context(mode=ms.GRAPH_MODE if env_args.mode.upper().startswith('GRAPH') else ms.PYNATIVE_MODE)\n")
    assert (call.modes, call.runs, call.options) == ({"unknown"}, "init_env", ("mode",))
    ((option, reading, table),) = call.mappings
    assert (option, reading) == ("mode", "_.upper().startswith('GRAPH')")
    # the program model reads each value of the option through it
    assert [mode.table_mode(dict(table), value, reading) for value in ("PYNATIVE", "graph", 0)] == ["pynative", "graph", None]


def test_pure_values_of_string_operations() -> None:
    def values(source: str, **leaves: list) -> list | None:
        return mode.pure_values(ast.parse(source, mode="eval").body, lambda node: leaves.get(getattr(node, "id", "")))

    assert values("m.upper().startswith('GRAPH')", m=["graph", "Pynative"]) == [True, False]
    assert values("'graph' in m.lower() or m == 'G'", m=["G"]) == [True]
    assert values("not m.strip().endswith(('a', 'b'))", m=[" xa "]) == [False]
    assert values("m.upper()", m=[0]) is None  # fails on the value: not known
    assert values("m.split('_')[0]", m=["graph_x"]) is None  # not a pure operation this reads
    assert values("m.startswith(n)", m=["ab"]) is None  # n: not known


def test_selected_modes_reads_a_yaml_default_beside_the_script(tmp_path: Path) -> None:
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "default.yaml").write_text("device_target: GPU\nmode: 1  # pynative\n")
    script = tmp_path / "train.py"
    assert _modes("ms.set_context(mode=config.mode)", str(script)) == {"pynative"}


@pytest.mark.parametrize(
    ("source", "entry"),
    [
        ('if __name__ == "__main__":\n    main()\n', True),
        ("ms.set_context(mode=ms.GRAPH_MODE)\n", True),
        ("grad_fn = ms.value_and_grad(forward, None, weights)\n", True),
        ("def setup():\n    ms.set_context(mode=ms.GRAPH_MODE)\n", False),
        ("class Net(nn.Cell):\n    pass\n", False),
    ],
)
def test_entry_scripts(source: str, entry: bool) -> None:
    assert mode.is_entry(source.encode()) is entry


def _project(root: Path, files: dict[str, str]) -> dict[str, str]:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return {name: str(root / name) for name in files}


MODEL = "from mindspore import nn\nclass Net(nn.Cell):\n    def construct(self, x):\n        return x.asnumpy()\n"


def test_a_module_takes_the_mode_of_the_programs_that_import_it(tmp_path: Path) -> None:
    paths = _project(
        tmp_path,
        {
            "train.py": "import mindspore as ms\nfrom src.model import Net\nms.set_context(mode=ms.PYNATIVE_MODE)\n",
            "src/__init__.py": "",
            "src/model.py": MODEL,
            "src/helpers.py": "import numpy as np\n",
            "lib/layers.py": MODEL,
        },
    )
    decided = programs.decide(paths.values())
    assert decided[paths["src/model.py"]].mode == mode.PYNATIVE
    assert decided[paths["train.py"]].mode == mode.PYNATIVE
    # no program builds or imports it: the project's programs run PyNative
    assert decided[paths["lib/layers.py"]] == mode.Decision(
        mode.PYNATIVE, "no program in sight builds it, and ../train.py, a program of the project, runs PyNative", assumed=True
    )
    # a graph-mode program that only imports the module builds nothing of it
    paths.update(_project(tmp_path, {"export.py": "from mindspore import context\nfrom src import model\n"
                                                  "context.set_context(mode=context.GRAPH_MODE)\n"}))
    decided = programs.decide(paths.values())
    assert decided[paths["src/model.py"]].mode == mode.PYNATIVE
    assert decided[paths["src/model.py"]].basis.startswith("no program in sight builds it")
    # one that builds its Cell: any graph-mode program that builds it makes it graph code
    paths.update(_project(tmp_path, {"export.py": "from mindspore import context\nfrom src import model\n"
                                                  "context.set_context(mode=context.GRAPH_MODE)\nnet = model.Net()\n"}))
    decided = programs.decide(paths.values())
    assert decided[paths["src/model.py"]] == mode.Decision(mode.GRAPH, "../export.py sets GRAPH_MODE")
    # the setting decides for every file
    assert {d.mode for d in programs.decide(paths.values(), setting="pynative").values()} == {mode.PYNATIVE}


def test_a_program_taking_only_plain_functions_from_a_module_does_not_compile_its_cells(tmp_path: Path) -> None:
    model = MODEL + "def warp(x):\n    return x * 2\ndef build():\n    return Net()\n"
    paths = _project(
        tmp_path,
        {
            "train.py": "import mindspore as ms\nfrom src.model import Net\nms.set_context(mode=ms.PYNATIVE_MODE)\nNet()\n",
            "preprocess.py": "import mindspore as ms\nms.set_context(mode=ms.GRAPH_MODE)\n"
                             "def run():\n    from src.model import warp\n    return warp(1)\n",
            "src/__init__.py": "",
            "src/model.py": model,
        },
    )
    decided = programs.decide(paths.values())
    # the graph-mode preprocessing script runs warp() eagerly; the Cell runs in train.py
    assert decided[paths["src/model.py"]] == mode.Decision(mode.PYNATIVE, "../train.py runs PyNative")
    # a factory that builds the Cell brings it: the graph-mode program compiles it
    paths.update(_project(tmp_path, {"preprocess.py": "import mindspore as ms\nfrom src.model import build\n"
                                                      "ms.set_context(mode=ms.GRAPH_MODE)\nbuild()\n"}))
    decided = programs.decide(paths.values())
    assert decided[paths["src/model.py"]] == mode.Decision(mode.GRAPH, "../preprocess.py sets GRAPH_MODE")


def test_a_program_without_set_context_runs_pynative_and_an_unreadable_mode_is_assumed_graph(tmp_path: Path) -> None:
    paths = _project(
        tmp_path,
        {
            "a/main.py": 'from model import Net\nif __name__ == "__main__":\n    Net()\n',
            "a/model.py": MODEL,
            "b/main.py": "import mindspore as ms\nfrom model import Net\nms.set_context(mode=cfg.mode)\nNet()\n",
            "b/model.py": MODEL,
        },
    )
    decided = programs.decide(paths.values())
    # each script imports the model of its own folder (its folder is first on sys.path)
    assert decided[paths["a/model.py"]].mode == mode.PYNATIVE
    assert decided[paths["b/model.py"]].mode == mode.GRAPH and decided[paths["b/model.py"]].assumed


def test_the_mode_of_a_config_helper_counts_when_the_entry_sets_none(tmp_path: Path) -> None:
    paths = _project(
        tmp_path,
        {
            "train.py": "from utils import init_env\nfrom net import Net\nif __name__ == '__main__':\n    init_env()\n",
            "utils.py": "from mindspore import context\ndef init_env(mode=context.GRAPH_MODE):\n"
                        "    context.set_context(mode=mode)\n",
            "net.py": MODEL,
        },
    )
    assert programs.decide(paths.values())[paths["net.py"]].mode == mode.GRAPH


@pytest.mark.parametrize(("selected", "expected"), [("pynative_mode", mode.PYNATIVE), ("graph_mode", mode.GRAPH)])
def test_a_helper_the_main_path_calls_supersedes_the_entrys_top_level_mode(
        tmp_path: Path, selected: str, expected: str) -> None:
    # export.py sets GRAPH_MODE on import, then its main calls init_env(cfg), which sets
    # the mode its configuration selects: what it builds after runs in that mode
    paths = _project(
        tmp_path,
        {
            "export.py": "from mindspore import context\nfrom utils import init_env\nfrom net import Net\n"
                         "context.set_context(mode=context.GRAPH_MODE)\n"
                         "if __name__ == '__main__':\n    cfg = load('config.yaml')\n    init_env(cfg)\n    Net()\n",
            "utils.py": "from mindspore import context\ndef init_env(cfg):\n"
                        "    context.set_context(mode={'graph_mode': context.GRAPH_MODE, "
                        "'pynative_mode': context.PYNATIVE_MODE}[cfg.system.context_mode])\n",
            "config.yaml": f"system:\n  context_mode: {selected}\n",
            "net.py": MODEL,
        },
    )
    assert programs.decide(paths.values())[paths["net.py"]].mode == expected


def test_when_each_set_context_runs() -> None:
    source = textwrap.dedent("""
        import mindspore as ms
        ms.set_context(mode=ms.PYNATIVE_MODE)
        def check():
            ms.set_context(mode=0)
        class Env:
            def __init__(self, cfg):
                ms.set_context(**cfg)
        def setup():
            ms.set_context(mode=ms.GRAPH_MODE)
        setup()
        if __name__ == "__main__":
            ms.set_context(mode=ms.GRAPH_MODE)
    """).encode()
    assert [(set(call.modes), call.runs) for call in mode.context_calls(source)] == [
        ({"pynative"}, mode.ON_IMPORT),
        ({"graph"}, "check"),
        ({"unknown"}, "Env"),
        ({"graph"}, mode.ON_IMPORT),  # setup() is called at the module's top level
        ({"graph"}, mode.AS_SCRIPT),
    ]


def test_a_module_that_sets_the_mode_on_import_sets_the_program_mode(tmp_path: Path) -> None:
    # distilled from a real project: the data module of an evaluation script selects
    # PYNATIVE_MODE at its top level, so importing it selects the program's mode
    paths = _project(
        tmp_path,
        {
            "eval.py": "from src.data import pad\nfrom src.net.model import Net\nif __name__ == '__main__':\n    Net()\n",
            "src/__init__.py": "",
            "src/data.py": "from mindspore import set_context, PYNATIVE_MODE\nset_context(mode=PYNATIVE_MODE)\n"
                           "def pad(x):\n    return x\nif __name__ == '__main__':\n    set_context(mode=0)\n",
            "src/net/__init__.py": "",
            "src/net/model.py": MODEL,
            "src/net/loss.py": MODEL,
        },
    )
    decided = programs.decide(paths.values())
    assert decided[paths["src/net/model.py"]] == mode.Decision(mode.PYNATIVE, "../../eval.py runs PyNative")
    # no script imports loss.py: the program that imports its package runs PyNative
    loss = decided[paths["src/net/loss.py"]]
    assert (loss.mode, loss.assumed) == (mode.PYNATIVE, True)
    assert "../../eval.py, which imports its package, runs PyNative" in loss.basis
    # the entry's own set_context comes after its imports: it decides
    paths.update(_project(tmp_path, {"eval.py": "import mindspore as ms\nfrom src.data import pad\n"
                                                "from src.net.model import Net\nms.set_context(mode=ms.GRAPH_MODE)\nNet()\n"}))
    decided = programs.decide(paths.values())
    assert decided[paths["src/net/model.py"]] == mode.Decision(mode.GRAPH, "../../eval.py sets GRAPH_MODE")
    # nothing builds loss.py's Cell: the only program importing its package compiles
    loss = decided[paths["src/net/loss.py"]]
    assert (loss.mode, loss.assumed) == (mode.GRAPH, True)
    assert loss.basis == "no program in sight builds it, and ../../eval.py, which imports its package, compiles"


def test_a_set_context_in_a_function_the_program_never_calls_selects_nothing(tmp_path: Path) -> None:
    # distilled from real projects: the package's self-check, or another script's
    # main(), selects GRAPH_MODE when called; the script imports the module but never
    # calls it, and importing a module runs its top level, not its functions
    paths = _project(
        tmp_path,
        {
            "run.py": "import helpers\nfrom model import Net\nif __name__ == '__main__':\n    Net()\n",
            "helpers.py": "import mindspore as ms\ndef self_check():\n    ms.set_context(mode=0)\n",
            "model.py": MODEL,
        },
    )
    decided = programs.decide(paths.values())[paths["model.py"]]
    assert decided == mode.Decision(mode.PYNATIVE, "run.py runs PyNative")
    # called by the script, the helper sets the mode
    paths.update(_project(tmp_path, {"run.py": "import helpers\nfrom model import Net\n"
                                               "if __name__ == '__main__':\n    helpers.self_check()\n    Net()\n"}))
    assert programs.decide(paths.values())[paths["model.py"]] == mode.Decision(mode.GRAPH, "run.py sets GRAPH_MODE")
    # a helper that could only select PyNative changes nothing: the program runs PyNative either way
    paths.update(_project(tmp_path, {"helpers.py": "import mindspore as ms\ndef self_check():\n"
                                                   "    ms.set_context(mode=1)\n"}))
    assert programs.decide(paths.values())[paths["model.py"]].mode == mode.PYNATIVE


DROPPING = ("import mindspore as ms\nfrom mindspore import nn\nclass Drop(nn.Cell):\n"
            "    def construct(self, x):\n        layer = nn.Dropout(p=0.5)\n        layer.set_train()\n"
            "        return layer(x)\n")


@pytest.mark.parametrize(("script", "expected"), [
    # distilled from a real project (a transformer's self-test): the main guard calls the
    # network, then sets GRAPH_MODE with nothing after it: the network ran in PyNative
    ("import numpy as np\nimport mindspore as ms\nfrom model import Drop\nif __name__ == '__main__':\n"
     "    net = Drop()\n    out = net(ms.Tensor(np.ones((4, 4), np.float32)))\n    device_id = 6\n"
     "    print('device {}'.format(device_id))\n"
     "    ms.set_context(mode=ms.GRAPH_MODE, device_id=device_id)\n    # model = Model(net)\n",
     mode.Decision(mode.PYNATIVE, "run.py runs PyNative")),
    # the same at the top level, no main guard
    ("import mindspore as ms\nfrom model import Drop\nnet = Drop()\nnet(None)\n"
     "ms.set_context(mode=ms.GRAPH_MODE)\n",
     mode.Decision(mode.PYNATIVE, "run.py runs PyNative")),
    # a call after it may run the network: it decides
    ("import mindspore as ms\nfrom model import Drop\nif __name__ == '__main__':\n    net = Drop()\n"
     "    net(None)\n    ms.set_context(mode=ms.GRAPH_MODE)\n    net(None)\n",
     mode.Decision(mode.GRAPH, "run.py sets GRAPH_MODE")),
    ("import mindspore as ms\nfrom model import Drop\nnet = Drop()\nfor step in range(2):\n"
     "    net(None)\n    ms.set_context(mode=ms.GRAPH_MODE)\n",
     mode.Decision(mode.GRAPH, "run.py sets GRAPH_MODE")),  # the next turn of the loop runs after it
    ("import mindspore as ms\nfrom model import Drop\nms.set_context(mode=ms.GRAPH_MODE)\n"
     "if __name__ == '__main__':\n    Drop()(None)\n",
     mode.Decision(mode.GRAPH, "run.py sets GRAPH_MODE")),
])
def test_a_set_context_after_the_scripts_last_call_selects_nothing(tmp_path: Path, script: str, expected) -> None:
    paths = _project(tmp_path, {"run.py": script, "model.py": DROPPING})
    decided = programs.decide(paths.values())[paths["model.py"]]
    assert (decided.mode, decided.basis) == (expected.mode, expected.basis)


def test_a_set_context_that_ends_an_imported_module_still_selects_the_mode(tmp_path: Path) -> None:
    # the importer's code runs after it: only the entry's own last call selects nothing
    paths = _project(tmp_path, {
        "run.py": "import setup_env\nfrom model import Drop\nDrop()(None)\n",
        "setup_env.py": "import mindspore as ms\nms.set_context(mode=ms.GRAPH_MODE)\n",
        "model.py": DROPPING,
    })
    decided = programs.decide(paths.values())[paths["model.py"]]
    assert (decided.mode, decided.basis) == (mode.GRAPH, "run.py sets GRAPH_MODE")
    calls = mode.context_calls((tmp_path / "setup_env.py").read_bytes())
    assert [(call.runs, call.last) for call in calls] == [(mode.ON_IMPORT, True)]


# -- the command -----------------------------------------------------------------


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def _lint(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, dict]:
    code = cli.main(["--format", "json", "--jobs", "1", "--select", "ms-asnumpy-in-graph", *args])
    return code, json.loads(capsys.readouterr().out)


def test_command_reads_the_mode_and_says_which_it_took(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    _project(tmp_path, {"train.py": "import mindspore as ms\nfrom model import Net\nms.set_context(mode=ms.PYNATIVE_MODE)\nNet()\n",
                        "model.py": MODEL, "lib.py": MODEL})
    _, report = _lint(capsys, ".")
    # model.py runs PyNative, and so does lib.py, which no program builds: the project's programs run PyNative
    assert report["findings"] == []
    # the cache follows a change of the entry script, not only of the module
    (tmp_path / "train.py").write_text("import mindspore as ms\nfrom model import Net\nms.set_context(mode=ms.GRAPH_MODE)\nNet()\n")
    _, report = _lint(capsys, ".")
    found = {item["path"]: item for item in report["findings"]}
    assert sorted(found) == ["lib.py", "model.py"]
    assert found["model.py"]["modeBasis"] == "train.py sets GRAPH_MODE"
    assert found["model.py"]["reached"] is True
    assert "assuming" not in found["model.py"]["message"]
    # lib.py: no program builds it, the project's programs compile; reported, unreached, the assumption said
    assert found["lib.py"]["reached"] is False
    assert found["lib.py"]["modeBasis"] == "assumed: no program in sight builds it, and train.py, which builds Cells beside it, compiles"
    assert "(assuming graph mode: no program in sight builds it" in found["lib.py"]["message"]
    # a project with no program at all: assumed graph, and said
    (tmp_path / "train.py").unlink()
    _, report = _lint(capsys, ".")
    finding = next(item for item in report["findings"] if item["path"] == "lib.py")
    assert finding["mode"] == "graph" and finding["modeBasis"].startswith("assumed: no entry script")
    assert "(assuming graph mode: no entry script in sight sets the mode; set [tool.mslint] mode)" in finding["message"]
    assert "reached" not in finding  # no program in sight to say


def test_mode_setting_overrides_the_inference(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    _project(tmp_path, {"model.py": MODEL})
    _, report = _lint(capsys, "--mode", "pynative", ".")
    assert report["findings"] == []
    _, report = _lint(capsys, "--mode", "graph", "--format", "sarif", ".")
    result = report["runs"][0]["results"][0]
    assert result["properties"]["mode"] == {"mode": "graph", "basis": "--mode mode = 'graph'"}
    assert "assuming" not in result["message"]["text"]
    (tmp_path / "pyproject.toml").write_text('[tool.mslint]\nmode = "pynative"\n')
    _, report = _lint(capsys, ".")
    assert report["findings"] == []
    (tmp_path / "pyproject.toml").write_text('[tool.mslint]\nmode = "eager"\n')
    assert cli.main(["."]) == cli.EXIT_ERROR
    assert "mode must be one of auto, graph, pynative, not 'eager'" in capsys.readouterr().err


def test_text_report_says_the_mode_of_the_files_with_findings(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    _project(tmp_path, {"model.py": MODEL})
    cli.main(["--no-cache", "--select", "ms-asnumpy-in-graph", "."])
    out = capsys.readouterr().out
    assert "Mode: model.py runs in graph mode (assumed: no entry script in sight sets the mode)." in out


def test_a_main_guard_in_a_package_module_is_a_self_test_not_a_program(tmp_path: Path) -> None:
    paths = _project(
        tmp_path,
        {
            "pkg/__init__.py": "from .layers import Net\n",
            "pkg/layers.py": MODEL,
            "pkg/wrapper.py": 'import mindspore as ms\nfrom .layers import Net\nif __name__ == "__main__":\n    ms.set_context(mode=ms.PYNATIVE_MODE)\n',
            "tools/use.py": "import pkg\n",  # the package is a library others import
        },
    )
    assert programs.decide(paths.values())[paths["pkg/layers.py"]] == mode.LIBRARY
    # a folder of scripts with an __init__.py that nothing imports is no library: its scripts are programs
    del paths["tools/use.py"]
    (tmp_path / "tools" / "use.py").unlink()
    decided = programs.decide(paths.values())[paths["pkg/layers.py"]]
    assert (decided.mode, decided.basis) == (
        mode.PYNATIVE, "no program in sight builds it, and wrapper.py, which imports its package, runs PyNative"
    )


def test_a_module_only_export_scripts_compile_is_never_differentiated_in_graph_mode(tmp_path: Path) -> None:
    export = ("import mindspore as ms\nfrom src.model import Net\nms.set_context(mode=ms.GRAPH_MODE)\n"
              "net = Net()\nnet.set_train(False)\nms.export(net, x, file_name='net')\n")
    paths = _project(
        tmp_path,
        {
            "train.py": "import mindspore as ms\nfrom src.model import Net\n"
                        "grad_fn = ms.value_and_grad(lambda x: Net()(x).sum())\n",
            "export.py": export,
            "src/__init__.py": "",
            "src/model.py": MODEL,
        },
    )
    decided = programs.decide(paths.values())[paths["src/model.py"]]
    assert (decided.mode, decided.trained, decided.exported_by) == (mode.GRAPH, False, "../export.py")
    assert decided.basis == "../export.py sets GRAPH_MODE, and every program that compiles it runs inference only"
    assert programs.decide(paths.values())[paths["train.py"]].mode == mode.PYNATIVE
    # an evaluation script under the context's level: inference, nothing exported
    paths.update(_project(tmp_path, {"export.py": export.replace("ms.export(net, x, file_name='net')", "print(net(x))")}))
    decided = programs.decide(paths.values())[paths["src/model.py"]]
    assert (decided.trained, decided.exported_by) == (False, "")
    # a project module the export script imports trains: it may differentiate what it compiles
    paths.update(_project(tmp_path, {
        "src/trainer.py": "from mindspore import nn\nstep = nn.TrainOneStepCell\n",
        "export.py": "from src.trainer import step\n" + export,
    }))
    assert programs.decide(paths.values())[paths["src/model.py"]].trained
    # a program that evaluates and also calls a library's training loop trains
    paths.update(_project(tmp_path, {"export.py": export.replace("ms.export(net, x, file_name='net')",
                                                                 "train_one_epoch(net, data)")}))
    assert programs.decide(paths.values())[paths["src/model.py"]].trained
    # a graph-mode program that shows no use mslint can read (no inference, no weights loaded) is taken to train
    paths.update(_project(tmp_path, {"export.py": "import mindspore as ms\nfrom src.model import Net\n"
                                                  "ms.set_context(mode=ms.GRAPH_MODE)\nprint(Net()(x))\n"}))
    assert programs.decide(paths.values())[paths["src/model.py"]] == mode.Decision(mode.GRAPH, "../export.py sets GRAPH_MODE")


@pytest.mark.parametrize(
    ("source", "exports"),
    [
        ("from mindspore import Tensor, export\nexport(net, x)", True),
        ("from mindspore import (\n    Tensor,\n    export,\n)\n", True),
        ("import mindspore as ms\nms.export(net, x, file_name='n')", True),
        ("from mindspore.train.serialization import export", True),
        ("def export():\n    pass\nexport()", False),  # the project's own export
        ("from mindspore import Tensor\nfrom tools import export_model", False),
    ],
)
def test_which_programs_call_mindspore_export(source: str, exports: bool) -> None:
    assert programs.read_facts(source.encode())["exports"] is exports


_TRAIN = """
import mindspore as ms
from mindspore import nn
from src.model import Net
ms.set_context(mode=ms.GRAPH_MODE)
net = Net()
{before}
step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
for data, label in dataset:
    step(data, label)
{after}
"""


@pytest.mark.parametrize(
    ("before", "after", "extra", "flag"),
    [
        # set_train() before the loop, nothing evaluates: self.training is True whenever it compiles
        ("net.set_train()", "", {}, True),
        ("net.set_train(True)", "", {}, True),
        ("net.set_train(mode=True)", "", {}, True),
        # Model.train calls set_train itself (FACTS.md)
        ("", "ms.train.Model(step).train(2, dataset)", {}, True),
        # TrainOneStepCell alone leaves the flag off: the inference branch compiles (measured)
        ("", "", {}, None),
        # any evaluation, a flag the program computes, Model.fit's validation, a flag assigned
        ("net.set_train()", "net.set_train(False)\nprint(net(data))", {}, None),
        ("net.set_train()", "ms.train.Model(net).eval(dataset)", {}, None),
        ("net.set_train(args.train)", "", {}, None),
        ("", "ms.train.Model(step).fit(2, dataset, valid_dataset)", {}, None),
        ("net.set_train()\nnet.training = False", "", {}, None),
        # a module the program imports evaluates: a callback
        ("net.set_train()\nfrom src.callbacks import EvalCallback", "",
         {"src/callbacks.py": "class EvalCallback:\n    def on_epoch_end(self, run):\n        self.model.eval(self.ds)\n"},
         None),
    ],
)
def test_a_program_that_only_trains_fixes_the_training_flag(tmp_path: Path, before, after, extra, flag) -> None:
    paths = _project(tmp_path, {
        "train.py": _TRAIN.format(before=before, after=after),
        "src/__init__.py": "",
        "src/model.py": MODEL,
        **extra,
    })
    decided = programs.decide(paths.values())[paths["src/model.py"]]
    assert decided.mode == mode.GRAPH
    assert decided.training_flag() is flag
    assert decided.evaluated is (flag is not True)


def test_the_training_flag_is_fixed_only_when_every_compiling_program_agrees(tmp_path: Path) -> None:
    train = _TRAIN.format(before="net.set_train()", after="")
    evaluate = ("import mindspore as ms\nfrom src.model import Net\nms.set_context(mode=ms.GRAPH_MODE)\n"
                "net = Net()\nnet.set_train(False)\nprint(net(x))\n")
    paths = _project(tmp_path, {"train.py": train, "eval.py": evaluate, "src/__init__.py": "", "src/model.py": MODEL})
    # one program trains, the other evaluates: both branches of self.training compile
    assert programs.decide(paths.values())[paths["src/model.py"]].training_flag() is None
    # the evaluation runs PyNative: only the training program compiles the Cell
    paths.update(_project(tmp_path, {"eval.py": evaluate.replace("GRAPH_MODE", "PYNATIVE_MODE")}))
    assert programs.decide(paths.values())[paths["src/model.py"]].training_flag() is True
    # only the evaluation compiles it: the flag is never turned on
    paths.update(_project(tmp_path, {"eval.py": evaluate, "train.py": train.replace("GRAPH_MODE", "PYNATIVE_MODE")}))
    decided = programs.decide(paths.values())[paths["src/model.py"]]
    assert (decided.trained, decided.training_flag()) == (False, False)


@pytest.mark.parametrize(("source", "trains"), [
    ("opt = nn.Adam(net.trainable_params())\nopt(grads)\n", True),
    ("opt = nn.Adam(net.trainable_params())\nmodel = Model(net, loss, opt)\n", True),
    ("model = Model(net, loss, nn.Adam(net.trainable_params()))\n", True),
    ("def main():\n    opt = nn.SGD(net.trainable_params())\n    def step(g):\n        return opt(g)\n", True),
    ("train_one_epoch(net)\n", True),
    # built and never read; a training loop in a comment or a docstring; a parameter count;
    # an optimizer's own class definition; a training function only defined
    ("opt = nn.Adam(net.trainable_params())\nnet.set_train(False)\n", False),
    ("# train_loop(net, opt)\n'''do_train(bool): whether to train'''\n", False),
    ("n = sum(p.size for p in net.trainable_params())\n", False),
    ("class Momentum(Optimizer):\n    pass\n", False),
    ("def train_loop(net):\n    pass\n", False),
    ("x = '中文'  # 训练 train(net)\nopt = nn.Adam(net.trainable_params())\n", False),
    # reads of the training split, and a helper's definition header: no training step
    ("clip = self._get_video_train_data(key)\ndata = create_train_dataset(cfg)\nds = build_trainset(cfg)\n", False),
    ("def _get_video_train_data(self, key):\n    pass\n", False),
    ("loss = train_step(x)\n", True),
    ("data = get_train_data_parallel(net)\n", True),
])
def test_training_text_is_read_past_comments_strings_and_idle_optimizers(source: str, trains: bool) -> None:
    data = source.encode("utf-8")
    assert programs.read_facts(data)["trains"] is trains


def _tokenized_code_only(data: bytes) -> bytes:
    """What mode._code_only must give: the tokenizer's string and comment tokens blanked."""
    import io  # noqa: PLC0415
    import tokenize  # noqa: PLC0415

    text = data.decode("utf-8")
    lines = io.StringIO(text).readlines()
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line.encode("utf-8")))
    out = bytearray(data)
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type in (tokenize.COMMENT, tokenize.STRING):
            (row, col), (end_row, end_col) = token.start, token.end
            first = starts[row - 1] + len(lines[row - 1][:col].encode("utf-8"))
            last = starts[end_row - 1] + len(lines[end_row - 1][:end_col].encode("utf-8"))
            for index in range(first, last):
                if out[index] not in b"\r\n":
                    out[index] = 32
    return bytes(out)


@pytest.mark.parametrize("source", [
    "x = 'a' # train(net)\n",
    "x = \"it's\" + 'say \"hi\"'  # a 'quote'\n",
    "s = '''one\n train(net) ''' + \"\"\"two\n\"\" \" \"\"\"\n",
    "r = rb'\\\\' + Rb\"\\\"\" + f'{x[\"a\"]}' + br'x'\n",
    "if'x' in y: pass\nelif\"#\" in z: train(net)\n",
    "s = 'line \\\n continued' # c\r\nt = 2\r\n",
    "u = '中文 train(x)'  # 训练\nv = f'''{a!r:>{w}} {'#'}'''\n",
    "def f():\n    '''doc: train(x)'''\n    return '#' # done\n",
    "x = 1\n# only a comment, no newline at the end",
    "pref = u'x' + B'y' + rB'z' + Br'w' + fR'{q}'\n",
    "t = ''''quoted' start''' + \"\"\"end \"q\\\"\"\"\"\n",
])
def test_code_only_blanks_what_the_tokenizer_reads_as_strings_and_comments(source: str) -> None:
    data = source.encode("utf-8")
    ast.parse(data)  # each sample is Python
    assert mode._code_only(data) == _tokenized_code_only(data)


LOCAL_DROPOUT = ("class Drop(nn.Cell):\n    def construct(self, x):\n        layer = nn.Dropout(p=self.p)\n"
                 "        if self.training:\n            layer.set_train()\n        return layer(x)\n")


@pytest.mark.parametrize(("source", "trains"), [
    # distilled from a real project: construct builds a Dropout and turns its own flag on;
    # no network of the program trains, nor has its flag turned on
    (LOCAL_DROPOUT, False),
    # the network's flag (self.set_train()), a layer held by the Cell, a script's network: they do
    (LOCAL_DROPOUT.replace("layer.set_train()", "self.set_train()"), True),
    (LOCAL_DROPOUT.replace("layer = nn.Dropout(p=self.p)", "layer = self.drop"), True),
    ("net = Net()\nnet.set_train()\n", True),
    ("def run():\n    net = Net()\n    net.set_train()\n    return net(x)\n", True),
])
def test_a_layer_construct_builds_and_sets_itself_trains_nothing(source: str, trains: bool) -> None:
    read = programs.read_facts(source.encode("utf-8"))
    assert (read["trains"], read["sets_training"]) == (trains, trains)


_PATTERN_SAMPLES = [
    "train(x)", "self.train (x)", "pretrain(x)", "reTrain(", "trained(x)", "trainedX(", "retrained(x)",
    "stop_train(x)", "no_grad()", "zero_grad()", "value_and_grad(f)", "degrad(x)", "constrain(x)",
    "_grad(x)", "x_train_step(", "StopGradient(x)", "stop_gradient(x)", "set_train(False)",
    "set_train( mode = False )", "set_train()", "set_train(True)", "set_train(mode=True )", "set_train(flag)",
    "TrainOneStepCell(net)", "MyTrainOneStep", "xTrainOneStep", "Trainer", "Trainers", "_Trainer", "grad_fn",
    "my_grad_fn", "grad_fnx", "model.fit(data)", ".fit (", "Momentum(p)", "AdamWeightDecay(p)", "xAdam(",
    "SGD (", "Lamb(", "LARS(", "RMSProp(", "Optimizer(", "nn.Optimizer(", "export(net)", "ms.export (",
    "predict(x)", "_eval(x)", "evaluate(x)", "infer(x)", "load_checkpoint(p)", "from_pretrained(x)",
    "xload_state_dict(", "Model(net)", "ms.Model (net)", "MyModel(net)", "net.training = False", "net.training == x",
    "jacfwd(f)", "jvp(", "vjp (", "\ntrain\n(\n", "train(\n  False)", "train(mode=False)", "grad(False)",
    "trainable_params()", "net.trainable_params()", "trainable_paramsX(",
]


@pytest.mark.parametrize("name", ["TRAINS", "INFERS", "LOADS_WEIGHTS", "SETS_TRAINING", "BUILDS_MODEL", "MAY_EVALUATE"])
def test_fast_text_patterns_agree_with_the_patterns_as_written(name: str) -> None:
    import re  # noqa: PLC0415

    fast, written = getattr(mode, name), re.compile(getattr(mode, f"{name}_AS_WRITTEN"))
    for sample in _PATTERN_SAMPLES:
        for text in (sample, f"a {sample}", f"x{sample}", f"_{sample}", f"stop_{sample}", f"no_{sample}"):
            data = text.encode()
            assert (fast.search(data) is None) == (written.search(data) is None), (name, text)
