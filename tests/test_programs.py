"""The program model (mslint.analysis.programs): what each program in sight builds,
in which mode, the framework names a project rebinds, reachability on findings,
and the same verdict however the files are named. Static: no mindspore, no user
code run."""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest

from mslint.analysis import mode, programs
from mslint.run import cli

CELL = "from mindspore import nn, Tensor\nclass {name}(nn.Cell):\n    def construct(self, x):\n        return x * Tensor(x.asnumpy().max())\n"


def _project(root: Path, files: dict[str, str]) -> dict[str, str]:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    (root / ".git").mkdir(exist_ok=True)  # the project's root
    return {name: str(root / name) for name in files}


def _model(root: Path) -> programs.Model:
    return programs.Model(str(root), programs.python_files(str(root)), explain=True)


def _built(model: programs.Model, entry: str) -> set[str]:
    """The classes ``entry``'s program reaches, as file::Class."""
    program = next(item for item in model.programs if item.path.endswith(entry))
    return {
        f"{os.path.relpath(path, model.root)}::{name}"
        for path, name in program.reached or ()
        if name in model.facts(path)["classes"]
    }


# -- what a program builds ------------------------------------------------------


def test_importing_a_package_builds_nothing_of_what_it_re_exports(tmp_path: Path) -> None:
    _project(tmp_path, {
        "demo.py": "import mindspore as ms\nimport zoo\nms.set_context(mode=ms.GRAPH_MODE)\nnet = zoo.Tiny()\nnet(None)\n",
        "zoo/__init__.py": "from .tiny import *\nfrom .wide import *\n",
        "zoo/tiny.py": CELL.format(name="Tiny"),
        "zoo/wide.py": CELL.format(name="Wide"),
    })
    model = _model(tmp_path)
    assert _built(model, "demo.py") == {"zoo/tiny.py::Tiny"}
    assert model.decision(str(tmp_path / "zoo/tiny.py"), "Tiny") == mode.Decision(mode.GRAPH, "../demo.py sets GRAPH_MODE")
    wide = model.decision(str(tmp_path / "zoo/wide.py"), "Wide")
    assert (wide.mode, wide.assumed) == (mode.GRAPH, True)  # the only program importing zoo compiles
    assert not model.reached(str(tmp_path / "zoo/wide.py"), "Wide")


def test_a_program_is_self_contained_when_nothing_imports_it_and_nothing_it_reaches_trains(tmp_path: Path) -> None:
    paths = _project(tmp_path, {
        "demo.py": "import mindspore as ms\nfrom nets import Tiny\nms.set_context(mode=ms.GRAPH_MODE)\nprint(Tiny()(None))\n",
        "nets.py": CELL.format(name="Tiny"),
        "fit.py": "import mindspore as ms\nfrom helpers import fit\nfrom nets import Tiny\nfit(Tiny())\n",
        "helpers.py": "from mindspore import nn\ndef fit(net):\n    nn.SGD(net.trainable_params(), 0.1)\n",
        "script.py": "import mindspore as ms\nfrom nets import Tiny\nprint(Tiny()(None))\n",
        "runner.py": "import script\n",
    })
    model = _model(tmp_path)
    verdict = model.verdict
    assert verdict(paths["demo.py"])["self_contained"] is True  # what trains Tiny elsewhere is not its program
    assert verdict(paths["fit.py"])["self_contained"] is False  # its program reaches helpers.py, which trains
    assert verdict(paths["script.py"])["self_contained"] is False  # runner.py imports it
    assert verdict(paths["nets.py"])["self_contained"] is False  # no program of its own


def test_cells_built_in_init_and_passed_to_factories_are_built(tmp_path: Path) -> None:
    _project(tmp_path, {
        "train.py": "from net import build\nif __name__ == '__main__':\n    build()\n",
        "net.py": CELL.format(name="Block") + CELL.format(name="Head").split("\n", 1)[1] + textwrap.dedent("""
            class Body(nn.Cell):
                def __init__(self, block):
                    super().__init__()
                    self.blocks = nn.CellList([block() for _ in range(2)])
                    self.head = Head()
                def construct(self, x):
                    return self.head(x)
                def rarely_used(self):
                    return Unused()
            class Unused(nn.Cell):
                pass
            def build():
                return Body(Block)
        """),
    })
    model = _model(tmp_path)
    # Block is passed to Body, which builds it; Head is built in __init__; a method
    # nothing names builds nothing
    assert _built(model, "train.py") == {"net.py::Block", "net.py::Head", "net.py::Body"}


def test_a_method_runs_when_reached_code_names_it(tmp_path: Path) -> None:
    _project(tmp_path, {
        "run.py": "from net import Net\nif __name__ == '__main__':\n    Net().fuse()\n",
        "net.py": CELL.format(name="Net") + "    def fuse(self):\n        return 1\n    def export(self):\n        return 2\n",
    })
    model = _model(tmp_path)
    path = str(tmp_path / "net.py")
    assert model.reached(path, "Net.fuse") and model.reached(path, "Net.construct")
    assert not model.reached(path, "Net.export")


@pytest.mark.parametrize(
    ("option", "config", "built"),
    [
        ('parser.add_argument("--arch", default="small")', None, {"small"}),
        ('parser.add_argument("--arch", choices=["small", "big"])', None, {"small", "big"}),
        ('parser.add_argument("--arch")', "arch: big\n", {"big"}),
        ('parser.add_argument("--arch")', None, {"small", "big", "huge"}),  # anything: every candidate
    ],
)
def test_a_registry_builds_what_the_key_can_select(tmp_path: Path, option: str, config: str | None, built: set[str]) -> None:
    files = {
        "train.py": f"""
            import argparse
            from models import create
            parser = argparse.ArgumentParser()
            {option}
            if __name__ == "__main__":
                net = create(parser.parse_args().arch)
        """,
        "models/__init__.py": "from .registry import create\nfrom . import nets\n",
        "models/registry.py": """
            _entries = {}
            def register_model(fn):
                name = fn.__name__
                _entries[name] = fn
                return fn
            def entry(name):
                return _entries[name]
            def create(name, **kwargs):
                return entry(name)(**kwargs)
        """,
        "models/nets.py": CELL.format(name="Net") + textwrap.dedent("""
            from .registry import register_model
            @register_model
            def small():
                return Net()
            @register_model
            def big():
                return Net()
            @register_model
            def huge():
                return Net()
        """),
    }
    if config:
        files["configs/run.yaml"] = config
    _project(tmp_path, files)
    model = _model(tmp_path)
    program = model.programs[0]
    reached = {name for path, name in program.reached if path.endswith("nets.py") and name in ("small", "big", "huge")}
    assert reached == built


@pytest.mark.parametrize(
    ("option", "config", "built"),
    [
        ('parser.add_argument("--arch", default="small")', None, {"small"}),
        ('parser.add_argument("--arch", default="tiny")', None, {"huge"}),  # the else branch
        ('parser.add_argument("--arch")', "arch: big\n", {"big"}),
        ('parser.add_argument("--arch", default="other")', "arch: big\n", {"big", "huge"}),  # either may be given
        ('parser.add_argument("--arch")', None, {"small", "big", "medium", "huge"}),  # anything: every branch
    ],
)
def test_a_name_imported_in_branches_builds_what_the_option_selects(tmp_path: Path, option: str, config: str | None,
                                                                     built: set[str]) -> None:
    # the model zoo's `if config.net_name == "resnet18": from src.resnet import resnet18 as resnet`
    files = {
        "train.py": f"""
            import argparse
            parser = argparse.ArgumentParser()
            {option}
            args = parser.parse_args()
            if args.arch in ("small", "big"):
                if args.arch == "small":
                    from models.nets import small as build
                else:
                    from models.nets import big as build
            elif args.arch == "medium":
                from models.nets import medium as build
            else:
                from models.nets import huge as build
            if __name__ == "__main__":
                net = build()
        """,
        "models/__init__.py": "",
        "models/nets.py": CELL.format(name="Net") + textwrap.dedent("""
            def small():
                return Net()
            def big():
                return Net()
            def medium():
                return Net()
            def huge():
                return Net()
        """),
    }
    if config:
        files["configs/run.yaml"] = config
    _project(tmp_path, files)
    model = _model(tmp_path)
    program = model.programs[0]
    reached = {name for path, name in program.reached if path.endswith("nets.py") and name in ("small", "big", "medium", "huge")}
    assert reached == built
    if built == {"small"}:
        assert "build, imported in the branch for arch 'small'" in model.explain()


def test_a_name_imported_once_or_with_a_fallback_keeps_its_one_binding(tmp_path: Path) -> None:
    _project(tmp_path, {
        "train.py": """
            try:
                from models.nets import small as build
            except ImportError:
                from models.nets import big as build
            if __name__ == "__main__":
                net = build()
        """,
        "models/__init__.py": "",
        "models/nets.py": CELL.format(name="Net") + "def small():\n    return Net()\ndef big():\n    return Net()\n",
    })
    program = _model(tmp_path).programs[0]
    reached = {name for path, name in program.reached if path.endswith("nets.py") and name in ("small", "big")}
    assert reached == {"big"}  # as before: the last binding


REGISTRY = """
class Registry:
    _table = {}
    @classmethod
    def register_cls(cls, klass, alias=None):
        cls._table[alias or klass.__name__] = klass
    @classmethod
    def add_hook(cls, hook):
        cls._table["hook"] = hook
    @classmethod
    def get_cls(cls, alias):
        return cls._table[alias]
"""


def test_a_class_registered_is_built_only_by_a_lookup_that_returns_it(tmp_path: Path) -> None:
    # a function called on import files classes (and a hook) in a class's table:
    # filing builds nothing; the lookup with the key "gate" builds the class filed under it
    files = {
        "zoo/__init__.py": "from zoo import cells\n",
        "zoo/registry.py": REGISTRY,
        "zoo/cells.py": CELL.format(name="Gate") + CELL.format(name="Rescale").split("\n", 1)[1] + textwrap.dedent("""
            from zoo.registry import Registry
            def on_step(x):
                return Probe()
            class Probe(nn.Cell):
                pass
            def file_all():
                Registry.register_cls(Gate, alias="gate")
                Registry.register_cls(klass=Rescale, alias="rescale")
                Registry.add_hook(on_step)
            file_all()
        """),
        "convert.py": "import zoo\nif __name__ == '__main__':\n    print(zoo)\n",
        "serve.py": "from zoo.registry import Registry\nif __name__ == '__main__':\n    Registry.get_cls('gate')()\n",
    }
    paths = _project(tmp_path, files)
    facts = programs.read_facts(Path(paths["zoo/cells.py"]).read_bytes())
    assert facts["bodies"]["file_all"]["registers"] == [
        ["Registry.register_cls", "Gate", ["lit", "gate"]], ["Registry.register_cls", "Rescale", ["lit", "rescale"]],
        ["Registry.add_hook", "on_step", None],
    ]
    assert "Gate" not in facts["bodies"]["file_all"].get("refs", ())
    model = _model(tmp_path)
    cells = {"zoo/cells.py::Gate", "zoo/cells.py::Rescale", "zoo/cells.py::Probe"}
    # a hook registered still runs when its owner calls it: what it builds is built
    assert _built(model, "convert.py") & cells == {"zoo/cells.py::Probe"}
    assert _built(model, "serve.py") & cells == {"zoo/cells.py::Gate", "zoo/cells.py::Probe"}
    assert "registry registry.py:Registry['gate']" in model.explain()


@pytest.mark.parametrize(("name", "registering"), [
    ("register", True), ("register_cls", True), ("Registry.register_module", True), ("registerModel", True),
    ("add", True), ("add_model", True), ("addHook", True), ("_register_wrapper", True),
    ("address", False), ("addmm", False), ("get_cls", False), ("build", False), ("adder", False),
])
def test_which_calls_register_what_they_are_given(name: str, registering: bool) -> None:
    from mslint.analysis import facts
    assert facts.is_registering(name) is registering


def test_dicts_of_classes_and_getattr_on_a_module_are_registries(tmp_path: Path) -> None:
    _project(tmp_path, {
        "train.py": """
            import nets
            from nets import BACKBONES
            def main(kind="resnet"):
                backbone = BACKBONES[kind]()
                head = getattr(nets, "Head")()
            if __name__ == "__main__":
                main()
        """,
        "nets.py": CELL.format(name="ResNet") + "\n".join(
            line for line in CELL.format(name="Vgg").splitlines() if not line.startswith("from")
        ) + "\n" + "\n".join(line for line in CELL.format(name="Head").splitlines() if not line.startswith("from"))
        + "\nBACKBONES = {'resnet': ResNet, 'vgg': Vgg}\n",
    })
    # the key is a parameter whose only caller passes nothing: its default is not read, any
    assert _built(_model(tmp_path), "train.py") == {"nets.py::ResNet", "nets.py::Vgg", "nets.py::Head"}


def test_a_module_namespace_looked_up_by_key_builds_what_the_key_selects(tmp_path: Path) -> None:
    # models.__dict__[args.arch], vars(models)[...], getattr(models, ...): the module's
    # names, those its package __init__ re-exports included (by name or with *)
    paths = _project(tmp_path, {
        "models/__init__.py": "from .small import Small\nfrom .big import *\n",
        "models/small.py": CELL.format(name="Small"),
        "models/big.py": CELL.format(name="Big") + "class _Hidden(nn.Cell):\n    pass\n",
        "train.py": "import argparse\nimport models\nif __name__ == '__main__':\n    p = argparse.ArgumentParser()\n"
                    "    p.add_argument('--arch', default='Big')\n    args = p.parse_args()\n"
                    "    net = models.__dict__[args.arch]()\n",
        "tune.py": "import models\nif __name__ == '__main__':\n    net = vars(models)[name]()\n",
        "serve.py": "import models\ndef serve(arch='Small'):\n    return getattr(models, arch)()\n"
                    "if __name__ == '__main__':\n    import fire\n    fire.Fire()\n",
    })
    model = _model(tmp_path)
    assert _built(model, "train.py") == {"models/big.py::Big"}
    assert _built(model, "tune.py") == {"models/big.py::Big", "models/small.py::Small"}
    # fire.Fire(): the command line may run any function of the module
    assert _built(model, "serve.py") == {"models/big.py::Big", "models/small.py::Small"}
    assert "models/big.py::Big  (through the names of models/__init__.py['Big'] <- main guard)" in model.explain()
    assert model.reached(paths["models/small.py"], "Small")


def test_a_module_imported_from_a_folder_without_init_is_a_module(tmp_path: Path) -> None:
    # from src import models, from src.config import lr: src a namespace package (no
    # __init__.py); importing src/config.py runs its top level, which selects GRAPH_MODE
    _project(tmp_path, {
        "src/models/__init__.py": "from .net import Net\n",
        "src/models/net.py": CELL.format(name="Net"),
        "src/tools/factory.py": "from src import models\ndef get_model(args):\n    return models.__dict__[args.arch]()\n",
        "src/config.py": "import mindspore as ms\nms.set_context(mode=ms.GRAPH_MODE)\nlr = 0.1\n",
        "train.py": "from src.tools.factory import get_model\nfrom src.config import lr\n"
                    "if __name__ == '__main__':\n    get_model(load())\n",
    })
    model = _model(tmp_path)
    assert _built(model, "train.py") == {"src/models/net.py::Net"}
    train = next(program for program in model.programs if program.path.endswith("train.py"))
    assert (train.kind, train.evidence) == (programs.SETS_GRAPH, "sets GRAPH_MODE (src/config.py:2)")


# -- modes ---------------------------------------------------------------------------

ENV_SETUP = ("import mindspore as ms\ndef setup(env_args):\n"
             "    ms.set_context(mode=ms.GRAPH_MODE if env_args.mode.upper().startswith('GRAPH') else ms.PYNATIVE_MODE)\n")


@pytest.mark.parametrize(
    ("files", "kind"),
    [
        # an option read in another module, set by a helper the entry calls
        ({"train.py": "from cfg import parse\nfrom env import setup\nif __name__ == '__main__':\n    setup(parse())\n",
          "cfg.py": "import argparse\ndef parse():\n    p = argparse.ArgumentParser()\n    p.add_argument('--mode', type=int, default=1)\n    return p.parse_args()\n",
          "env.py": "import mindspore as ms\ndef setup(args):\n    ms.set_context(mode=args.mode)\n"}, programs.RUNS_PYNATIVE),
        # a YAML configuration beside the entry
        ({"train.py": "import mindspore as ms\nimport yaml\nif __name__ == '__main__':\n    cfg = yaml.safe_load(open('c.yaml'))\n    ms.set_context(mode=cfg['mode'])\n",
          "c.yaml": "mode: 0\n"}, programs.SETS_GRAPH),
        # a JSON configuration the entry names
        ({"train.py": "import mindspore as ms, json\nif __name__ == '__main__':\n    cfg = json.load(open('settings/run.json'))\n    ms.set_context(mode=cfg['run_mode'])\n",
          "settings/run.json": '{"run_mode": "PYNATIVE_MODE", "lr": 0.1}'}, programs.RUNS_PYNATIVE),
        # an environment switch read with a default
        ({"train.py": "import os\nimport mindspore as ms\nms.set_context(mode=int(os.getenv('MS_MODE', '1')))\n"}, programs.RUNS_PYNATIVE),
        # a local name of the main guard
        ({"train.py": "import mindspore as ms\nif __name__ == '__main__':\n    m = ms.GRAPH_MODE if flag else ms.PYNATIVE_MODE\n    ms.set_context(mode=m)\n"},
         programs.SETS_GRAPH),
        # unreadable: assumed graph
        ({"train.py": "import mindspore as ms\nms.set_context(mode=cfg.mode)\n"}, programs.UNREADABLE),
        # a helper that switches to PyNative and restores the saved mode selects no other mode
        ({"train.py": "from conv import convert\nif __name__ == '__main__':\n    print(convert)\n",
          "conv.py": "from mindspore import context\ndef convert():\n    saved = context.get_context('mode')\n"
                     "    context.set_context(mode=context.PYNATIVE_MODE)\n    context.set_context(mode=saved)\n"},
         programs.RUNS_PYNATIVE),
        # a conditional testing an option another module declares, with string methods:
        # the arm each of the option's values takes (its choices, else its default)
        ({"train.py": "import argparse\nfrom env import setup\nif __name__ == '__main__':\n    p = argparse.ArgumentParser()\n"
                      "    p.add_argument('--mode', default='PYNATIVE', choices=['PYNATIVE'])\n    setup(p.parse_args())\n",
          "env.py": ENV_SETUP}, programs.RUNS_PYNATIVE),
        ({"train.py": "import argparse\nfrom env import setup\nif __name__ == '__main__':\n    p = argparse.ArgumentParser()\n"
                      "    p.add_argument('--mode', default='graph')\n    setup(p.parse_args())\n",
          "env.py": ENV_SETUP}, programs.SETS_GRAPH),
        # no value in sight: either arm
        ({"train.py": "from env import setup\nif __name__ == '__main__':\n    setup(load())\n", "env.py": ENV_SETUP},
         programs.SETS_GRAPH),
    ],
)
def test_modes_are_read_where_programs_set_them(tmp_path: Path, files: dict[str, str], kind: str) -> None:
    _project(tmp_path, files)
    model = _model(tmp_path)
    assert [program.kind for program in model.programs] == [kind]


ZOO_BY_NAME = {
    "zoo/__init__.py": "from zoo import builders\nfrom zoo.table import build_model\n",
    "zoo/table.py": "BUILDERS = {}\ndef builder(fn):\n    BUILDERS[fn.__name__] = fn\n    return fn\n"
                    "def build_model(name):\n    return BUILDERS[name]()\n",
    "zoo/builders.py": "from zoo.nets import Eager, Compiled\nfrom zoo.table import builder\n@builder\ndef eager():\n"
                       "    return Eager()\n@builder\ndef compiled():\n    return Compiled()\n",
    "zoo/nets.py": CELL.format(name="Eager") + CELL.format(name="Compiled").split("\n", 1)[1],
}


@pytest.mark.parametrize(("setter", "eager_mode"), [
    # a table keyed by a nested configuration key
    ('    ms.set_context(mode={"pynative_mode": ms.PYNATIVE_MODE, "graph_mode": ms.GRAPH_MODE}[cfg.system.context_mode])\n',
     "pynative_mode"),
    # branches on it, through a str method
    ("    kind = cfg.system.context_mode.lower()\n    mode = None\n    if kind == 'pynative_mode':\n"
     "        mode = ms.PYNATIVE_MODE\n    elif kind == 'graph_mode':\n        mode = ms.GRAPH_MODE\n"
     "    ms.set_context(mode=mode)\n", "Pynative_Mode"),
])
def test_the_mode_each_configuration_selects_rules_what_it_selects(tmp_path: Path, setter: str, eager_mode: str) -> None:
    # every configuration names the model and the mode (system.context_mode): a
    # registry builds what each names, in the mode the same file names
    paths = _project(tmp_path, {
        **ZOO_BY_NAME,
        "envs.py": "import mindspore as ms\ndef init_env(cfg):\n" + setter,
        "train.py": "from envs import init_env\nfrom zoo import build_model\nif __name__ == '__main__':\n"
                    "    cfg = load()\n    init_env(cfg)\n    build_model(cfg.model.name)\n",
        "configs/a.yaml": f"system:\n  context_mode: {eager_mode}\nmodel:\n  name: eager\n",
        "configs/b.yaml": "system:\n  seed: 1\n  context_mode: graph_mode  # compiled\nmodel:\n  name: compiled\n",
    })
    calls = programs.read_facts(Path(paths["envs.py"]).read_bytes())["contexts"]
    assert [call[3] for call in calls] == [["system.context_mode"]]
    model = _model(tmp_path)
    program = model.programs[0]
    assert program.kind == programs.SETS_GRAPH and "'system.context_mode' from configs/a.yaml, configs/b.yaml" in program.evidence
    compiled = model.decision(paths["zoo/nets.py"], "Compiled")
    assert (compiled.mode, compiled.basis) == (mode.GRAPH, "../train.py sets GRAPH_MODE")
    eager = model.decision(paths["zoo/nets.py"], "Eager")
    assert eager == mode.Decision(
        mode.PYNATIVE, "../train.py runs it only with the configurations that select PYNATIVE_MODE (configs/a.yaml)")
    # a model both kinds of configuration select is compiled
    (tmp_path / "configs/c.yaml").write_text("system:\n  context_mode: graph_mode\nmodel:\n  name: eager\n")
    assert _model(tmp_path).decision(paths["zoo/nets.py"], "Eager").mode == mode.GRAPH


ZOO_BY_TABLE = {
    **ZOO_BY_NAME,
    # the configurations name a model; a table maps the name to its builder, which a
    # helper returns with other information (``cfg, builder = model_info(name)``)
    "zoo/table.py": "BUILDERS = {}\nINFO = {'EAGER_X2': ['eager', 2], 'COMPILED_X2': ['compiled', 2]}\n"
                    "def builder(fn):\n    BUILDERS[fn.__name__] = fn\n    return fn\n"
                    "def model_info(name):\n    chosen = INFO[name][0]\n    return INFO[name][1], chosen\n"
                    "def build_model(name):\n    scale, chosen = model_info(name)\n    return BUILDERS[chosen]()\n",
}
TABLE_TRAIN = {
    "envs.py": "import mindspore as ms\ndef init_env(cfg):\n"
               "    ms.set_context(mode={'pynative_mode': ms.PYNATIVE_MODE, 'graph_mode': ms.GRAPH_MODE}[cfg.system.context_mode])\n",
    "train.py": "from envs import init_env\nfrom zoo import build_model\nif __name__ == '__main__':\n"
                "    cfg = load()\n    init_env(cfg)\n    build_model(cfg.model.name)\n",
    "configs/a.yaml": "system:\n  context_mode: pynative_mode\nmodel:\n  name: EAGER_X2\n",
    "configs/b.yaml": "system:\n  context_mode: graph_mode\nmodel:\n  name: COMPILED_X2\n",
}


def test_a_key_read_through_a_table_pairs_each_configuration_with_its_mode(tmp_path: Path) -> None:
    paths = _project(tmp_path, {**ZOO_BY_TABLE, **TABLE_TRAIN})
    facts = programs.read_facts(Path(paths["zoo/table.py"]).read_bytes())
    assert facts["tables"]["INFO"] == [["EAGER_X2", ["eager", 2]], ["COMPILED_X2", ["compiled", 2]]]
    assert facts["bodies"]["build_model"]["lookups"] == [["BUILDERS", ["ret", "model_info", 1], "item"]]
    assert facts["bodies"]["model_info"]["returns"] == [
        ["tuple", [["table", "INFO", ["param", "name", "model_info"], [1]], ["table", "INFO", ["param", "name", "model_info"], [0]]]]]
    model = _model(tmp_path)
    assert model.decision(paths["zoo/nets.py"], "Compiled").mode == mode.GRAPH
    assert model.decision(paths["zoo/nets.py"], "Eager") == mode.Decision(
        mode.PYNATIVE, "../train.py runs it only with the configurations that select PYNATIVE_MODE (configs/a.yaml)")
    assert "BUILDERS['eager']" in model.explain()
    # a name the table lacks (the lookup raises there): every builder is still
    # reached, as for a key mslint cannot read, and what the table maps stays paired
    (tmp_path / "configs/c.yaml").write_text("system:\n  context_mode: graph_mode\nmodel:\n  name: eager\n")
    model = _model(tmp_path)
    assert _built(model, "train.py") >= {"zoo/nets.py::Eager", "zoo/nets.py::Compiled"}
    assert model.decision(paths["zoo/nets.py"], "Eager").mode == mode.PYNATIVE
    # a graph configuration whose name the table maps to the same builder: compiled
    (tmp_path / "configs/d.yaml").write_text("system:\n  context_mode: graph_mode\nmodel:\n  name: EAGER_X4\n")
    table = Path(paths["zoo/table.py"])
    table.write_text(table.read_text().replace("'COMPILED_X2'", "'EAGER_X4': ['eager', 4], 'COMPILED_X2'"))
    assert _model(tmp_path).decision(paths["zoo/nets.py"], "Eager").mode == mode.GRAPH


@pytest.mark.parametrize("change", [
    # the table changed by code: its literal is not all it holds
    ("zoo/__init__.py", "from zoo.table import INFO\nINFO.update(extra=['compiled', 1])\n"),
    ("zoo/__init__.py", "from zoo import table\ntable.INFO['EAGER_X2'] = ['compiled', 1]\n"),
    # the helper's name assigned twice: either value
    ("zoo/table.py", "def model_info(name):\n    chosen = INFO[name][0]\n    if not name:\n        chosen = name\n"
                     "    return INFO[name][1], chosen\n"),
    # a configuration without the mode: the program's pooled decision
    ("configs/e.yaml", "model:\n  name: EAGER_X2\n"),
])
def test_a_table_mslint_cannot_read_whole_keeps_the_programs_mode(tmp_path: Path, change: tuple[str, str]) -> None:
    paths = _project(tmp_path, {**ZOO_BY_TABLE, **TABLE_TRAIN})
    name, text = change
    target = tmp_path / name
    if name == "zoo/table.py":
        source = target.read_text()
        start = source.index("def model_info")
        end = source.index("def build_model")
        target.write_text(source[:start] + text + source[end:])
    elif target.exists():
        target.write_text(target.read_text() + text)
    else:
        target.write_text(text)
    assert _model(tmp_path).decision(paths["zoo/nets.py"], "Eager").mode == mode.GRAPH


def test_nested_configuration_keys_are_read_by_their_path(tmp_path: Path) -> None:
    (tmp_path / "run.yaml").write_text("# run\nsystem:\n  seed: null\n  context_mode: 'pynative_mode'  # eager\n"
                                       "model:\n  name: ipt\n  layers:\n    - depth: 2\n  head:\n    width: 8\nmode: 0\n")
    assert programs._config_read(str(tmp_path / "run.yaml"))[1] == {
        "system.seed": ["null"], "system.context_mode": ["pynative_mode"], "model.name": ["ipt"],
        "model.head.width": [8], "mode": [0],
    }


def test_an_option_another_script_declares_in_code_the_program_never_runs_gives_it_nothing(tmp_path: Path) -> None:
    # eval.py imports a helper from train.py, whose parse_args() (never run by
    # eval.py) declares --mode with GRAPH among its choices; eval.py reads its
    # mode from its own YAML configuration
    setter = "    ms.set_context(mode=ms.GRAPH_MODE if args.mode.upper().startswith('GRAPH') else ms.PYNATIVE_MODE)\n"
    _project(tmp_path, {
        "train.py": "import argparse\nimport mindspore as ms\ndef build_loader():\n    return []\ndef parse_args():\n"
                    "    p = argparse.ArgumentParser()\n    p.add_argument('--mode', default='PYNATIVE', choices=['GRAPH', 'PYNATIVE'])\n"
                    "    return p.parse_args()\nif __name__ == '__main__':\n    args = parse_args()\n" + setter,
        "eval.py": "import argparse\nimport mindspore as ms\nfrom train import build_loader\nfrom cfg import load_cfg\ndef main():\n"
                   "    p = argparse.ArgumentParser()\n    p.add_argument('--config', default='configs/eval.yaml')\n"
                   "    args = load_cfg(p.parse_args().config)\n" + setter + "    build_loader()\n"
                   "if __name__ == '__main__':\n    main()\n",
        "cfg.py": "import yaml\nfrom argparse import Namespace\ndef load_cfg(name):\n    return Namespace(**yaml.safe_load(open(name)))\n",
        "configs/eval.yaml": 'mode: "PYNATIVE"\n',
    })
    evaluate = next(program for program in _model(tmp_path).programs if program.path.endswith("eval.py"))
    assert (evaluate.kind, evaluate.evidence) == (
        programs.RUNS_PYNATIVE, "sets PYNATIVE_MODE (eval.py:9, 'mode' from configs/eval.yaml)")
    # the same option, where eval.py runs the function that declares it, gives its choices
    (tmp_path / "eval.py").write_text((tmp_path / "eval.py").read_text()
                                      .replace("from train import build_loader", "from train import build_loader, parse_args")
                                      .replace("load_cfg(p.parse_args().config)", "parse_args()"))
    evaluate = next(program for program in _model(tmp_path).programs if program.path.endswith("eval.py"))
    assert evaluate.kind == programs.SETS_GRAPH and "the choices of --mode at train.py:7" in evaluate.evidence


def test_a_programs_own_top_level_takes_its_mode_with_its_own_reason(tmp_path: Path) -> None:
    # a script that sets GRAPH_MODE and defines nothing the program reaches: its
    # top level is the program, not code "no program builds"
    paths = _project(tmp_path, {
        "main.py": "import mindspore as ms\nms.set_context(mode=ms.GRAPH_MODE)\nfrom mindspore import nn\n"
                   + CELL.format(name="Unused").split("\n", 1)[1]
                   + "if __name__ == '__main__':\n    ms.set_auto_parallel_context(parallel_mode='data_parallel')\n",
    })
    model = _model(tmp_path)
    assert model.module_decision(paths["main.py"]) == mode.Decision(mode.GRAPH, "main.py sets GRAPH_MODE")
    # a Cell it defines and never builds is still only assumed compiled
    unused = model.decision(paths["main.py"], "Unused")
    assert (unused.mode, unused.assumed) == (mode.GRAPH, True)
    assert unused.basis == "no program in sight builds it, and main.py, which imports it, compiles"


def test_the_syntax_level_a_program_selects(tmp_path: Path) -> None:
    _project(tmp_path, {
        "train.py": "import mindspore as ms\nfrom net import Net\nms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=ms.STRICT)\nNet()\n",
        "net.py": CELL.format(name="Net"),
    })
    model = _model(tmp_path)
    assert model.programs[0].syntax_level == mode.STRICT
    assert model.decision(str(tmp_path / "net.py"), "Net").syntax_level == mode.STRICT


def test_code_no_program_builds_takes_the_mode_of_the_programs_beside_it(tmp_path: Path) -> None:
    paths = _project(tmp_path, {
        "train.py": "from net import Net\nif __name__ == '__main__':\n    Net()\n",  # PyNative
        "net.py": CELL.format(name="Net"),
        "extra.py": CELL.format(name="Extra"),  # nothing imports it
    })
    model = _model(tmp_path)
    extra = model.decision(paths["extra.py"], "Extra")
    assert (extra.mode, extra.assumed) == (mode.PYNATIVE, True)
    assert extra.basis == "no program in sight builds it, and train.py, which builds Cells beside it, runs PyNative"


def test_programs_of_unknown_mode_decide_nothing_for_code_they_do_not_build(tmp_path: Path) -> None:
    # a converter whose mode mslint cannot read imports the library and builds none of it
    files = {
        "tools/convert.py": "import json\nimport mindspore as ms\nimport lib\nif __name__ == '__main__':\n"
                            "    ms.set_context(**json.load(open('settings.json')))\n",
        "lib/__init__.py": "from lib import replay\n",
        "lib/replay.py": CELL.format(name="Replay"),
        "demo/run.py": "from toy import Toy\nif __name__ == '__main__':\n    Toy()\n",
        "demo/toy.py": CELL.format(name="Toy"),
    }
    paths = _project(tmp_path, files)
    model = _model(tmp_path)
    assert [program.kind for program in model.programs] == [programs.RUNS_PYNATIVE, programs.UNREADABLE]
    # the code takes the mode of the program whose mode is known
    assert model.decision(paths["lib/replay.py"], "Replay") == mode.Decision(
        mode.PYNATIVE, "no program in sight builds it, and ../demo/run.py, which builds Cells in the project, runs PyNative",
        assumed=True)
    # with none known, a library's assumption, said as it is
    os.remove(paths["demo/run.py"])
    model = _model(tmp_path)
    assert model.decision(paths["lib/replay.py"], "Replay") == mode.Decision(
        mode.GRAPH, "no program in sight builds it, and none sets a mode mslint can read", assumed=True)
    # a program of known mode importing the package decides (GRAPH_MODE here)
    _project(tmp_path, {"tools/serve.py": "import mindspore as ms\nimport lib\nms.set_context(mode=ms.GRAPH_MODE)\n"})
    model = _model(tmp_path)
    assert model.decision(paths["lib/replay.py"], "Replay") == mode.Decision(
        mode.GRAPH, "no program in sight builds it, and ../tools/serve.py, which imports its package, compiles", assumed=True)


PAIR = CELL.format(name="Encoder") + textwrap.dedent("""
    class Pair(nn.Cell):
        def __init__(self):
            super(Pair, self).__init__()  # the class naming itself passes nothing on
            self.query = Encoder()
        def construct(self, x):
            return Pair.scale(self.query(x)) * Tensor(x.asnumpy().max())  # C.method(): no construction
        @staticmethod
        def scale(x):
            return x
        def embed(self, x):
            return self(x)
""")


@pytest.mark.parametrize(("uses", "compiled"), [
    # built to load its weights, only a sub-cell called: the pair's construct is not compiled
    ("load_param_into_net(pair, load_checkpoint('p.ckpt'))\n    run(pair.query)\n", False),
    ("print(pair)\n    save_checkpoint(pair, 'p.ckpt')\n", False),
    # never used at all: left built (a notebook may call it later)
    ("print(pair)\n", True),
    # called, handed on, a method of its own run, or also built elsewhere: compiled
    ("pair(1)\n", True),
    ("run(pair)\n", True),
    ("pair.embed(1)\n", True),
    ("run(pair.query)\n    other = Pair()\n    other(1)\n", True),
    ("run(pair.query)\n    pair = Pair()\n", True),
])
def test_a_cell_a_graph_program_builds_and_never_calls_is_not_compiled_by_it(tmp_path: Path, uses: str, compiled: bool) -> None:
    paths = _project(tmp_path, {
        "pair.py": PAIR,
        "eval.py": "import mindspore as ms\nfrom mindspore import load_checkpoint, load_param_into_net, save_checkpoint\n"
                   "from pair import Pair\n"
                   "def run(net):\n    return net(1)\n"
                   "def main():\n    ms.set_context(mode=ms.GRAPH_MODE)\n    pair = Pair()\n    " + uses
                   + "if __name__ == '__main__':\n    main()\n",
    })
    model = _model(tmp_path)
    decided = model.decision(paths["pair.py"], "Pair")
    assert decided.mode == (mode.GRAPH if compiled else mode.PYNATIVE)
    if not compiled:
        assert decided.basis == "eval.py builds it and never calls it (eval.py:8)"
        assert "[not compiled there: it builds it and never calls it (eval.py:8)]" in model.explain()
    # the sub-cells it builds are built all the same (a program that loads weights and
    # reaches no training text runs inference only: Program.trains)
    encoder = model.decision(paths["pair.py"], "Encoder")
    assert (encoder.mode, encoder.basis.split(",")[0]) == (mode.GRAPH, "eval.py sets GRAPH_MODE")
    assert encoder.trained == ("load_checkpoint" not in uses)


@pytest.mark.parametrize(("uses", "compiled"), [
    # construct called as a method in plain Python: not compiled (measured,
    # tests/oracle/test_graph.py); the sub-cell it calls is
    ("pair = Pair()\n    pair.construct(1)\n", False),
    ("print(Pair().construct(1))\n", False),
    # in a function handed to ms.grad (GRAPH_MODE compiles it whole), or called too: compiled
    ("pair = Pair()\n    def loss(x):\n        return pair.construct(x)\n    ms.grad(loss)(1)\n", True),
    ("pair = Pair()\n    pair(1)\n    pair.construct(1)\n", True),
])
def test_a_cell_whose_construct_a_graph_program_only_calls_directly_is_not_compiled_by_it(
        tmp_path: Path, uses: str, compiled: bool) -> None:
    paths = _project(tmp_path, {
        "pair.py": PAIR,
        "eval.py": "import mindspore as ms\nfrom pair import Pair\n"
                   "def main():\n    ms.set_context(mode=ms.GRAPH_MODE)\n    " + uses
                   + "if __name__ == '__main__':\n    main()\n",
    })
    model = _model(tmp_path)
    decided = model.decision(paths["pair.py"], "Pair")
    assert decided.mode == (mode.GRAPH if compiled else mode.PYNATIVE)
    if not compiled:
        assert decided.basis.startswith("eval.py calls its construct directly, as plain Python (eval.py:")
    encoder = model.decision(paths["pair.py"], "Encoder")
    assert (encoder.mode, encoder.basis.split(",")[0]) == (mode.GRAPH, "eval.py sets GRAPH_MODE")
    # a program calling construct itself, with no training text, runs forward passes only
    assert encoder.trained == ("ms.grad" in uses)


def test_a_direct_construct_call_in_a_function_handed_on_or_decorated_may_be_compiled(tmp_path: Path) -> None:
    for script in (
        "def step(x):\n    pair = Pair()\n    return pair.construct(x)\nif __name__ == '__main__':\n    ms.grad(step)(1)\n",
        "@ms.jit\ndef step(x):\n    pair = Pair()\n    return pair.construct(x)\nif __name__ == '__main__':\n    step(1)\n",
    ):
        paths = _project(tmp_path, {"pair.py": PAIR, "eval.py": "import mindspore as ms\nfrom pair import Pair\n"
                                    "ms.set_context(mode=ms.GRAPH_MODE)\n" + script})
        assert _model(tmp_path).decision(paths["pair.py"], "Pair").mode == mode.GRAPH, script


GUARDED_LIB = """\
from mindspore import nn, get_context, PYNATIVE_MODE, GRAPH_MODE
class Deployed(nn.Cell):
    def construct(self, x):
        return x
class Collector(nn.Cell):
    def construct(self, x):
        return x
class Probe(nn.Cell):
    def __init__(self):
        super().__init__()
        assert get_context("mode") == PYNATIVE_MODE, "eager only"
class Algo:
    def apply(self, deploy):
        if deploy:
            return Deployed()
        if get_context("mode") != PYNATIVE_MODE:
            raise ValueError("calibrate in PyNative")
        return Collector()
    def probe(self):
        return Probe()
"""


def test_code_past_a_guard_that_raises_unless_pynative_runs_pynative(tmp_path: Path) -> None:
    paths = _project(tmp_path, {
        "serve.py": "import mindspore as ms\nfrom lib import Algo\nif __name__ == '__main__':\n"
                    "    ms.set_context(mode=ms.GRAPH_MODE)\n    Algo().apply(True)\n    Algo().probe()\n",
        "lib.py": GUARDED_LIB,
    })
    model = _model(tmp_path)
    assert {"lib.py::Deployed", "lib.py::Collector", "lib.py::Probe"} <= _built(model, "serve.py")  # reached all the same
    assert model.decision(paths["lib.py"], "Deployed") == mode.Decision(mode.GRAPH, "serve.py sets GRAPH_MODE")
    collector = model.decision(paths["lib.py"], "Collector")
    assert collector.mode == mode.PYNATIVE
    assert collector.basis == "serve.py runs it only past a guard that raises unless PyNative (lib.py:16)"
    # a class whose __init__ refuses graph mode is never built there, whoever builds it
    assert model.decision(paths["lib.py"], "Probe") == mode.Decision(mode.PYNATIVE, "it raises unless PyNative (lib.py:11)")
    # code the program also reaches before the guard keeps the program's mode
    paths = _project(tmp_path, {"lib.py": GUARDED_LIB.replace("return Deployed()", "return Deployed(), Collector()")})
    assert _model(tmp_path).decision(paths["lib.py"], "Collector").mode == mode.GRAPH


@pytest.mark.parametrize(
    ("statement", "guard"),
    [
        ("if get_context('mode') != PYNATIVE_MODE:\n    raise ValueError()", True),
        ("if ms.get_context('mode') == ms.GRAPH_MODE:\n    raise ValueError()", True),
        ("if 0 == context.get_context(attr_key='mode'):\n    log()\n    raise ValueError()", True),
        ("if not get_context('mode') == 1:\n    raise ValueError()", True),
        ("assert get_context('mode') == PYNATIVE_MODE", True),
        ("if get_context('mode') == PYNATIVE_MODE:\n    raise ValueError()", False),  # refuses PyNative
        ("if get_context('mode') != PYNATIVE_MODE:\n    log()", False),  # does not raise
        ("if get_context('mode') != PYNATIVE_MODE:\n    raise ValueError()\nelse:\n    pass", False),
        ("if get_context('device_target') != 'Ascend':\n    raise ValueError()", False),
    ],
)
def test_what_reads_as_a_guard_that_raises_unless_pynative(statement: str, guard: bool) -> None:
    import ast  # noqa: PLC0415

    assert mode.is_pynative_guard(ast.parse(statement).body[0]) is guard


# -- overrides -------------------------------------------------------------------


def test_a_package_that_rebinds_framework_names_changes_them_for_its_modules(tmp_path: Path) -> None:
    paths = _project(tmp_path, {
        "lib/__init__.py": "from lib import patch\nfrom lib.model import Encoder\n",
        "lib/patch.py": textwrap.dedent("""
            import mindspore
            from mindspore import nn, Tensor
            class MyDropout(nn.Cell):
                pass
            def _size(self, dim=None):
                return self.shape
            def _install():
                mindspore.nn.LayerNorm = MyDropout
            nn.Dropout = MyDropout
            setattr(nn, "Dense", MyDropout)
            Tensor.size = _size
            nn.Conv2d = wrap(nn.Conv2d)
            mindspore.set_context = wrap(mindspore.set_context)  # a wrapper still sets the context
            _install()
        """),
        "lib/model.py": "from mindspore import nn\nclass Encoder(nn.Cell):\n    pass\n",
        "app.py": "import lib\nif __name__ == '__main__':\n    lib.Encoder()\n",
        "other/tool.py": "from mindspore import nn\n",
    })
    model = _model(tmp_path)
    [group] = model.overrides
    assert group["mapping"] == {
        "mindspore.nn.Dropout": "lib.patch.MyDropout",
        "mindspore.nn.Dense": "lib.patch.MyDropout",
        "mindspore.nn.LayerNorm": "lib.patch.MyDropout",
        "mindspore.Tensor.size": "lib.patch._size",
        "mindspore.nn.Conv2d": "lib.patch.<Conv2d>",
    }
    assert {paths["lib/model.py"], paths["app.py"], paths["lib/__init__.py"]} <= group["file_set"]
    assert paths["other/tool.py"] not in group["file_set"]


def test_a_tensor_method_patch_beside_its_scripts_covers_their_folder(tmp_path: Path) -> None:
    # mspatch.py gives Tensor .cuda(); train.py beside it imports it, and its model
    # copy under log/ is loaded through importlib (not in sight): the patch holds
    # there too; not in a module another program runs without the patch
    paths = _project(tmp_path, {
        "port/mspatch.py": "import mindspore as ms\ndef _cuda(self):\n    return self\nms.Tensor.cuda = _cuda\n",
        "port/train.py": "import mspatch\nfrom models import Net\nif __name__ == '__main__':\n    Net()\n",
        "port/models.py": CELL.format(name="Net"),
        "port/log/copy_of_models.py": CELL.format(name="Net"),
        "port/demo.py": "from helper import Helper\nif __name__ == '__main__':\n    Helper()\n",
        "port/helper.py": CELL.format(name="Helper"),
        "other/mspatch_free.py": CELL.format(name="Other"),
    })
    [group] = _model(tmp_path).overrides
    assert group["mapping"] == {"mindspore.Tensor.cuda": "mspatch._cuda"}
    assert {paths["port/models.py"], paths["port/log/copy_of_models.py"]} <= group["file_set"]
    assert paths["port/helper.py"] not in group["file_set"]  # demo.py runs it without the patch
    assert paths["other/mspatch_free.py"] not in group["file_set"]


def test_a_key_no_option_gives_into_many_candidates_reaches_none(tmp_path: Path) -> None:
    # ProcessorMixin's getattr(import_module("pkg"), class_name), class_name a class
    # attribute: one of the package's many classes, which is out of sight
    many = "".join(CELL.format(name=f"Model{i}").replace("from mindspore import nn, Tensor\n", "") for i in range(40))
    _project(tmp_path, {
        "pkg/__init__.py": "from .zoo import *\n",
        "pkg/zoo.py": "from mindspore import nn, Tensor\n" + many,
        "pkg/mixin.py": "import pkg\nmodule = pkg\nclass Mixin:\n    model_class = 'Model3'\n"
                        "    def load(self, attribute):\n        name = getattr(self, f'{attribute}_class')\n"
                        "        return getattr(module, name)()\n",
        "train.py": "from pkg.mixin import Mixin\nif __name__ == '__main__':\n    Mixin().load('model')\n",
        "pick.py": "import argparse\nimport pkg\nif __name__ == '__main__':\n    p = argparse.ArgumentParser()\n"
                   "    p.add_argument('--model')\n    getattr(pkg, p.parse_args().model)()\n",
    })
    model = _model(tmp_path)
    assert not any(name.startswith("pkg/zoo.py") for name in _built(model, "train.py"))
    # a key the user gives (an option without default or choices): any of them
    assert len(_built(model, "pick.py")) == 40


def test_resolve_names_the_projects_class_where_it_rebinds_a_framework_name(tmp_path: Path) -> None:
    import astroid

    from mslint.analysis import resolve

    paths = _project(tmp_path, {
        "lib/__init__.py": "from lib import patch\n",
        "lib/patch.py": "from mindspore import nn, Tensor\nclass D(nn.Cell):\n    pass\nnn.Dropout = D\nTensor.size = len\n",
        "lib/model.py": "from mindspore import nn\nlayer = nn.Dropout(0.1)\nother = nn.ReLU()\n",
    })
    verdicts, groups = programs.verdicts([paths["lib/model.py"]])
    programs.configure("auto", verdicts, overrides=groups)
    try:
        module = astroid.parse(Path(paths["lib/model.py"]).read_text(), path=paths["lib/model.py"])
        dropout, relu = [node.value for node in module.body[1:]]
        assert resolve.call_name(dropout) == "lib.patch.D"
        assert resolve.call_name(relu) == "mindspore.nn.ReLU"
        assert resolve.tensor_method_rebound(module, "size") and not resolve.tensor_method_rebound(module, "view")
    finally:
        programs.release()


# -- the files in sight ----------------------------------------------------------


def test_the_project_root(tmp_path: Path) -> None:
    (tmp_path / "repo" / "src" / "pkg").mkdir(parents=True)
    (tmp_path / "repo" / "pyproject.toml").write_text("")
    (tmp_path / "repo" / "src" / "pkg" / "__init__.py").write_text("")
    assert programs.project_root(str(tmp_path / "repo" / "src" / "pkg" / "m.py")) == str((tmp_path / "repo").resolve())
    # under a hidden folder (an unpacked wheel in a cache): the folder above its top package
    (tmp_path / "repo" / ".cache" / "lib" / "pkg").mkdir(parents=True)
    (tmp_path / "repo" / ".cache" / "lib" / "pkg" / "__init__.py").write_text("")
    found = programs.project_root(str(tmp_path / "repo" / ".cache" / "lib" / "pkg" / "m.py"))
    assert found == str((tmp_path / "repo" / ".cache" / "lib").resolve())


def test_a_repository_whose_top_folder_is_a_package_is_its_own_project(tmp_path: Path) -> None:
    """A model-zoo copy with an __init__.py beside its train.py and requirements.txt,
    cloned beside other checkouts: the programs in sight are its own, not those of the
    folder holding every checkout (which made one repository read 1,400 files)."""
    for name in ("zoo/__init__.py", "zoo/train.py", "zoo/src/__init__.py", "zoo/src/net.py", "other/train.py"):
        (tmp_path / "checkouts" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "checkouts" / name).write_text("")
    net = str(tmp_path / "checkouts" / "zoo" / "src" / "net.py")
    beside = str((tmp_path / "checkouts").resolve())
    assert programs.project_root(net) == beside  # nothing says the package is a repository
    (tmp_path / "checkouts" / "zoo" / "requirements.txt").write_text("mindspore\n")
    programs._repository_top.cache_clear()
    assert programs.project_root(net) == str((tmp_path / "checkouts" / "zoo").resolve())
    assert programs.project_root(net, [str(tmp_path / "checkouts" / "zoo")]) == str((tmp_path / "checkouts" / "zoo").resolve())
    # a folder above with scripts of its own uses the package: it stays the project
    (tmp_path / "checkouts" / "run.py").write_text("")
    programs._repository_top.cache_clear()
    assert programs.project_root(net) == beside


def test_a_project_nothing_marks_is_bounded_by_the_folder_named(tmp_path: Path, capsys, monkeypatch) -> None:
    # an unpacked archive of sub-projects (no .git): a sub-project's scripts and the
    # model they build sit in sibling folders without packages
    root = tmp_path / "courses"
    for name, text in {
        "gan/src/train.py": "from model.net import Net\nif __name__ == '__main__':\n    Net()\n",  # PyNative
        "gan/src/model/net.py": CELL.format(name="Net"),
    }.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(name.endswith("net.py") and CELL.format(name="Net") or text)
    net = str((root / "gan/src/model/net.py").resolve())
    assert programs.project_root(net) == str((root / "gan/src/model").resolve())  # the folder above its top package
    assert programs.project_root(net, [str(root)]) == str(root.resolve())
    assert programs.project_root(net, [str(root / "gan/src/model/net.py")]) == str((root / "gan/src/model").resolve())
    monkeypatch.chdir(root)
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(tmp_path / "cache"))
    # the finding's mode is that of the program --explain shows building it (it said "no entry script in sight")
    assert _lint(capsys, ".")["findings"] == []
    cli.main(["--explain", "."])
    assert "Program gan/src/train.py: PyNative" in capsys.readouterr().out


@pytest.fixture()
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def _lint(capsys: pytest.CaptureFixture, *args: str, stdin: str | None = None, monkeypatch=None) -> dict:
    if stdin is not None:
        import io
        import sys

        monkeypatch.setattr(sys, "stdin", type("In", (), {"buffer": io.BytesIO(stdin.encode())})())
    cli.main(["--format", "json", "--jobs", "1", "--select", "ms-asnumpy-in-graph,ms-dropout-keep-prob", *args])
    return json.loads(capsys.readouterr().out)


@pytest.mark.usefixtures("_isolated")
def test_the_same_verdict_however_the_file_is_named(tmp_path: Path, capsys, monkeypatch) -> None:
    # a PyNative project: its model's host copy is no graph finding, whether the
    # whole project, the one file or standard input is checked
    _project(tmp_path, {"train.py": "import mindspore as ms\nfrom model import Net\nnet = Net()\n"
                                    "grad_fn = ms.value_and_grad(lambda x: net(x).sum(), None, net.trainable_params())\n",
                        "model.py": CELL.format(name="Net")})
    monkeypatch.chdir(tmp_path)
    # (the PyNative step differentiating net(x) reports the copy at its call, in train.py:
    # test_a_training_step_follows_a_network_of_another_module)
    assert [item for item in _lint(capsys, ".")["findings"] if item["path"] == "model.py"] == []
    assert _lint(capsys, "model.py")["findings"] == []
    monkeypatch.chdir(tmp_path.parent)
    assert _lint(capsys, str(tmp_path / "model.py"))["findings"] == []
    monkeypatch.chdir(tmp_path)
    source = (tmp_path / "model.py").read_text()
    assert _lint(capsys, "-", "--stdin-filename", "model.py", stdin=source, monkeypatch=monkeypatch)["findings"] == []
    # the buffer decides for itself: an edit that makes it a graph-mode program is one
    graph = "import mindspore as ms\nms.set_context(mode=ms.GRAPH_MODE)\n" + source + "Net()\n"
    found = _lint(capsys, "-", "--stdin-filename", "model.py", stdin=graph, monkeypatch=monkeypatch)["findings"]
    assert [(item["symbol"], item["reached"]) for item in found] == [("ms-asnumpy-in-graph", True)]


@pytest.mark.usefixtures("_isolated")
def test_reachability_in_every_output(tmp_path: Path, capsys, monkeypatch) -> None:
    _project(tmp_path, {"train.py": "import mindspore as ms\nfrom model import Net\nms.set_context(mode=ms.GRAPH_MODE)\nNet()\n",
                        "model.py": CELL.format(name="Net") + "class Spare(nn.Cell):\n    def __init__(self):\n"
                                                               "        self.drop = nn.Dropout(0.1)\n"
                                                               "    def construct(self, x):\n"
                                                               "        return self.drop(x)\n"})
    monkeypatch.chdir(tmp_path)
    found = {item["line"]: item for item in _lint(capsys, ".")["findings"]}
    assert found[4]["reached"] is True and found[7]["reached"] is False  # Spare: built by nothing, still wrong
    cli.main(["--format", "sarif", "--jobs", "1", "--select", "ms-asnumpy-in-graph,ms-dropout-keep-prob", "."])
    results = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    assert sorted((result["properties"]["reached"], result["rank"]) for result in results) == [(False, 40.0), (True, 90.0)]
    cli.main(["--jobs", "1", "--select", "ms-asnumpy-in-graph,ms-dropout-keep-prob", "."])
    assert "; 1 in code no program in sight reaches." in capsys.readouterr().out


@pytest.mark.usefixtures("_isolated")
def test_the_program_model_is_cached_and_follows_its_configs(tmp_path: Path, capsys, monkeypatch) -> None:
    paths = _project(tmp_path, {"train.py": "import mindspore as ms\nfrom model import Net\nms.set_context(mode=cfg['mode'])\nNet()\n",
                                "config.yaml": "mode: 1\n", "model.py": CELL.format(name="Net")})
    monkeypatch.chdir(tmp_path)
    assert _lint(capsys, ".")["findings"] == []  # PyNative, from the configuration
    from mslint.run import cache

    store = cache.ResultCache()
    try:
        model = programs.Model(str(tmp_path), list(paths.values()), facts_store=store)
        assert model.parsed == 0  # every file's facts came from the cache
    finally:
        store.close()
    (tmp_path / "config.yaml").write_text("mode: 0\n")  # the configuration changes: re-decided
    assert [item["line"] for item in _lint(capsys, ".")["findings"]] == [4]


class _ModelStore:
    """The result cache's model entries, in memory (mslint.run.cache.ResultCache)."""

    def __init__(self) -> None:
        self.models: dict[str, object] = {}
        self.facts: dict[str, dict] = {}

    def get_facts(self, hashes):
        return {digest: self.facts[digest] for digest in hashes if digest in self.facts}

    def put_facts(self, rows) -> None:
        self.facts.update(rows)

    def get_model(self, key):
        return json.loads(json.dumps(self.models.get(key)))

    def put_model(self, key, value) -> None:
        self.models[key] = value


def _verdicts_built(store: _ModelStore, files: list[str], monkeypatch) -> tuple[dict, int]:
    """programs.verdicts of ``files`` with ``store``, and how many models it built."""
    built = []
    real_init = programs.Model.__init__

    def counting(self, *args, **kwargs):
        built.append(1)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(programs.Model, "__init__", counting)
    found, _ = programs.verdicts(files, None, store)
    monkeypatch.setattr(programs.Model, "__init__", real_init)
    return found, len(built)


def test_an_unchanged_project_takes_the_models_verdicts_from_the_cache(tmp_path: Path, monkeypatch) -> None:
    paths = _project(tmp_path, {"train.py": "import mindspore as ms\nfrom model import Net\nms.set_context(mode=ms.GRAPH_MODE)\n"
                                            "if __name__ == '__main__':\n    Net()\n",
                                "model.py": CELL.format(name="Net"), "lib/__init__.py": "", "lib/util.py": "x = 1\n"})
    store = _ModelStore()
    files = list(paths.values())
    first, built = _verdicts_built(store, files, monkeypatch)
    assert built == 1 and first[paths["model.py"]]["symbols"]["Net"][0] == mode.GRAPH
    again, built = _verdicts_built(store, files, monkeypatch)
    assert built == 0  # nothing it read changed: not built again
    assert json.loads(json.dumps(again)) == json.loads(json.dumps(first))
    # a file it read changes: built again, and so for a file in sight added
    (tmp_path / "lib" / "util.py").write_text("x = 2\n")
    assert _verdicts_built(store, files, monkeypatch)[1] == 1
    assert _verdicts_built(store, files, monkeypatch)[1] == 0
    (tmp_path / "lib" / "more.py").write_text("y = 1\n")
    assert _verdicts_built(store, [*files, str(tmp_path / "lib" / "more.py")], monkeypatch)[1] == 1
    # a file checked that the entry does not hold: built again (its verdict was not kept)
    assert _verdicts_built(store, files[:1], monkeypatch)[1] == 0


def test_the_cached_model_follows_its_configs_and_entries(tmp_path: Path, monkeypatch) -> None:
    paths = _project(tmp_path, {"train.py": "import mindspore as ms\nfrom model import Net\ncfg = load('run.yaml')\n"
                                            "ms.set_context(mode=cfg['mode'])\nNet()\n",
                                "model.py": CELL.format(name="Net")})
    files = list(paths.values())
    store = _ModelStore()

    def net_mode() -> str:
        return _verdicts_built(store, files, monkeypatch)[0][paths["model.py"]]["symbols"]["Net"][0]

    # run.yaml, which the code names, is missing: the mode cannot be read (graph assumed)
    assert net_mode() == mode.GRAPH and _verdicts_built(store, files, monkeypatch)[1] == 0
    (tmp_path / "run.yaml").write_text("mode: 1\n")  # the configuration looked for appears: PyNative
    assert net_mode() == mode.PYNATIVE
    assert _verdicts_built(store, files, monkeypatch)[1] == 0
    (tmp_path / "run.yaml").write_text("mode: 0\n")  # edited: GRAPH_MODE
    assert net_mode() == mode.GRAPH
    (tmp_path / "run.yaml").write_text("mode: 1\n")
    assert net_mode() == mode.PYNATIVE
    # a YAML file beside the entry, read whatever the code names
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "big.yaml").write_text("mode: 0\n")
    assert net_mode() == mode.GRAPH
    (tmp_path / "configs" / "big.yaml").unlink()
    assert net_mode() == mode.PYNATIVE
    # the entry edited: it sets the mode itself
    (tmp_path / "train.py").write_text("import mindspore as ms\nfrom model import Net\nms.set_context(mode=ms.GRAPH_MODE)\nNet()\n")
    assert net_mode() == mode.GRAPH


@pytest.mark.usefixtures("_isolated")
def test_the_command_keeps_the_model_in_its_result_cache(tmp_path: Path, capsys, monkeypatch) -> None:
    _project(tmp_path, {"train.py": "import mindspore as ms\nfrom model import Net\ncfg = load('run.yaml')\n"
                                    "ms.set_context(mode=cfg['mode'])\nNet()\n",
                        "run.yaml": "mode: 1\n", "model.py": CELL.format(name="Net")})
    monkeypatch.chdir(tmp_path)
    assert _lint(capsys, ".")["findings"] == []
    built = []
    real_init = programs.Model.__init__
    monkeypatch.setattr(programs.Model, "__init__", lambda self, *a, **k: (built.append(1), real_init(self, *a, **k))[1])
    assert _lint(capsys, ".")["findings"] == [] and built == []
    (tmp_path / "run.yaml").write_text("mode: 0\n")  # only the configuration changes: re-decided
    assert [item["line"] for item in _lint(capsys, ".")["findings"]] == [4] and built == [1]


@pytest.mark.usefixtures("_isolated")
def test_facts_read_past_the_first_reading_are_cached_too(tmp_path: Path) -> None:
    # a library (no program): the model's first reading reads no file; the facts
    # asked later (names resolved through a module, a verdict) are kept, and the
    # next run takes them from the cache instead of parsing the file again
    paths = _project(tmp_path, {"lib/__init__.py": "", "lib/model.py": CELL.format(name="Net")})
    from mslint.run import cache

    parsed = []
    for _ in range(2):
        store = cache.ResultCache()
        try:
            model = programs.Model(str(tmp_path), list(paths.values()), facts_store=store)
            assert "Net" in model.facts(paths["lib/model.py"])["classes"]
            parsed.append(model.parsed)
            model.keep_late_facts()
        finally:
            store.close()
    assert parsed == [1, 0]


def test_explain_prints_the_programs_their_modes_and_what_they_build(tmp_path: Path, capsys) -> None:
    _project(tmp_path, {"train.py": "import mindspore as ms\nfrom model import Net\nms.set_context(mode=ms.GRAPH_MODE)\n"
                                    "def main():\n    Net()\nif __name__ == '__main__':\n    main()\n",
                        "model.py": CELL.format(name="Net")})
    assert cli.main(["--explain", str(tmp_path)]) == cli.EXIT_OK
    out = capsys.readouterr().out
    assert "Program train.py: GRAPH_MODE; sets GRAPH_MODE (train.py:3)" in out
    assert "model.py::Net  (through main <- main guard)" in out


def test_the_analysis_module_run_as_a_script_explains_a_project(tmp_path: Path) -> None:
    # ``python -m mslint.analysis.programs --explain PATH``, as the README names it: run
    # as a script, the module's definitions below its main() (the injecting libraries
    # a file imports) are read too
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    _project(tmp_path, {"serve.py": "import mindnlp\nfrom model import Net\nif __name__ == '__main__':\n    Net()\n",
                        "model.py": CELL.format(name="Net")})
    done = subprocess.run([sys.executable, "-m", "mslint.analysis.programs", "--explain", str(tmp_path)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "Program serve.py" in done.stdout


def test_the_construction_sites_of_a_class_in_programs_that_run(tmp_path: Path) -> None:
    paths = _project(tmp_path, {
        "train.py": textwrap.dedent("""
            from blocks import Block, Head, Free
            def build(rate):
                return [Block(0.0), Block(drop=0.0), Block(), Head(rate), Free]
            if __name__ == "__main__":
                build(0.5)
        """),
        "blocks.py": textwrap.dedent("""
            from mindspore import nn
            class Block(nn.Cell):
                def __init__(self, drop=0.1):
                    super().__init__()
            class Head(nn.Cell):
                def __init__(self, drop):
                    super(Head, self).__init__()  # its own code naming it: nothing passed on
            class Free(nn.Cell):
                def __init__(self, drop=0.1):
                    super().__init__()
            class Unused(nn.Cell):
                pass
        """),
    })
    verdicts, groups = programs.verdicts([paths["blocks.py"]])
    programs.configure("auto", verdicts, overrides=groups)
    try:
        block = programs.construction(paths["blocks.py"], "Block")
        assert block.params == ("drop",) and [site.line for site in block.sites] == [4, 4, 4]
        assert block.values("drop") == ([0.0, 0.0, programs.DEFAULT], True)
        head = programs.construction(paths["blocks.py"], "Head")
        assert head.values("drop") == ([], False)  # a parameter: not read
        assert not head.passed_along
        assert programs.construction(paths["blocks.py"], "Free").passed_along  # passed on as a value
        assert programs.construction(paths["blocks.py"], "Unused") is None  # no program builds it
    finally:
        programs.release()


def test_a_script_without_a_main_guard_is_a_program(tmp_path: Path) -> None:
    # course code: the top level builds the network and trains it, in PyNative
    paths = _project(tmp_path, {
        "lesson.py": "from net import Net, make\nnet = Net()\nfor step in range(3):\n    make(net)\n",
        "net.py": CELL.format(name="Net") + "def make(net):\n    return net\nhelper = make(None)\n",
    })
    model = _model(tmp_path)
    assert [os.path.basename(program.path) for program in model.programs] == ["lesson.py"]  # net.py is imported
    assert model.decision(paths["net.py"], "Net") == mode.Decision(mode.PYNATIVE, "lesson.py runs PyNative")


def test_a_package_module_importing_its_siblings_by_bare_name_is_a_script(tmp_path: Path) -> None:
    # seg/main.py imports seg/models/ as ``models``: that only works run from seg/
    # (``python main.py``), so it is a program though tests/ import the package
    paths = _project(tmp_path, {
        "seg/__init__.py": "",
        "seg/main.py": "import mindspore as ms\nfrom models.net import Net\n"
                       "ms.set_context(mode=ms.PYNATIVE_MODE)\nNet()(None)\n",
        "seg/models/__init__.py": "",
        "seg/models/net.py": CELL.format(name="Net"),
        "seg/demo.py": "import mindspore as ms\nfrom seg.models.net import Net\n"
                       "if __name__ == '__main__':\n    Net()(None)\n",
        "tests/test_seg.py": "from seg.models.net import Net\ndef test_net():\n    Net()\n",
    })
    model = _model(tmp_path)
    # demo.py imports the package by its name from the root: a self-test, no program
    assert [os.path.relpath(program.path, tmp_path) for program in model.programs] == [os.path.join("seg", "main.py")]
    assert model.decision(paths["seg/models/net.py"], "Net") == mode.Decision(mode.PYNATIVE, "../main.py runs PyNative")


def test_a_package_module_the_project_runs_with_dash_m_is_a_program(tmp_path: Path) -> None:
    # src/train.py says it runs as ``python -m src.train``, app.py that src/serve runs
    # as ``python -m src.serve``: programs, though app.py imports the package;
    # src/check.py, named nowhere, stays a self-test (``-m src.train_all`` names another module)
    paths = _project(tmp_path, {
        "src/__init__.py": "",
        "src/net.py": CELL.format(name="Net"),
        "src/train.py": '"""Run from the root: python -m src.train --epochs 5"""\n'
                        "import mindspore as ms\nfrom src.net import Net\n"
                        "def main():\n    ms.set_context(mode=ms.GRAPH_MODE)\n    Net()(None)\n"
                        "if __name__ == '__main__':\n    main()\n",
        "src/check.py": "from src.net import Net\nif __name__ == '__main__':\n    Net()(None)\n",
        "src/serve/__init__.py": "",
        "src/serve/__main__.py": "from src.net import Net\nif __name__ == '__main__':\n    Net()(None)\n",
        "app.py": "from src.net import Net\n"
                  "print('serve with: python -m src.serve --port 80; not python -m src.train_all')\n"
                  "if __name__ == '__main__':\n    Net()(None)\n",
    })
    model = _model(tmp_path)
    assert sorted(os.path.relpath(program.path, tmp_path) for program in model.programs) == [
        "app.py", os.path.join("src", "serve", "__main__.py"), os.path.join("src", "train.py")]
    assert model.decision(paths["src/net.py"], "Net").mode == mode.GRAPH


@pytest.mark.usefixtures("_isolated")
def test_a_training_step_follows_a_network_of_another_module(tmp_path: Path, capsys, monkeypatch) -> None:
    # a PyNative loop differentiates a function calling a Cell defined in model.py:
    # asking how model.py runs must not crash the analysis of train.py
    _project(tmp_path, {"train.py": "import mindspore as ms\nfrom mindspore import nn\nfrom model import Net\n"
                                    "net = Net()\nlayer = nn.Dense(4, 4)\n"
                                    "def forward_fn(x):\n    return net(layer(x)).sum()\n"
                                    "grad_fn = ms.value_and_grad(forward_fn, None, layer.trainable_params())\n",
                        "model.py": CELL.format(name="Net")})
    monkeypatch.chdir(tmp_path)
    found = _lint(capsys, ".")["findings"]
    # the host copy in Net.construct cuts the gradient of the layer before it in this
    # PyNative step (FACTS.md); a copy of the step's own input (``net(x)``) would cut nothing
    assert [(item["path"], item["line"], item["symbol"]) for item in found] == [("train.py", 7, "ms-asnumpy-in-graph")]


@pytest.mark.usefixtures("_isolated")
def test_a_later_top_level_switch_to_pynative_rules_what_follows_it(tmp_path: Path, capsys, monkeypatch) -> None:
    # a notebook-like script: GRAPH_MODE for the first experiment, then PYNATIVE_MODE
    # and a second training step defined after the switch, which only runs PyNative
    step = ("def train_{n}(net, optimizer, data, label):\n"
            "    def forward_fn(x, y):\n"
            "        y = ms.Tensor(np.eye(10)[y.asnumpy()], ms.float32)\n"
            "        return ((net(x) - y) ** 2).mean()\n"
            "    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)\n"
            "    optimizer(grad_fn(data, label)[1])\n")
    _project(tmp_path, {"run.py": "import numpy as np\nimport mindspore as ms\nfrom mindspore import nn\n"
                                  "ms.set_context(mode=ms.GRAPH_MODE)\n" + step.format(n="a")
                                  + "net = nn.Dense(4, 10)\nopt = nn.SGD(net.trainable_params())\n"
                                  "train_a(net, opt, None, None)\n"
                                  "ms.set_context(mode=ms.PYNATIVE_MODE)\n" + step.format(n="b")
                                  + "train_b(net, opt, None, None)\n"})
    monkeypatch.chdir(tmp_path)
    found = _lint(capsys, ".")["findings"]
    assert [(item["line"], item["symbol"]) for item in found] == [(7, "ms-asnumpy-in-graph")], found


# -- reading the facts in forked processes (the command's cold run) ---------------


def _sources(count: int) -> list[tuple[bytes, str]]:
    return [(CELL.format(name=f"Net{index}").encode() + b"import mindspore\nmindspore.set_context(mode=0)\n",
             f"/project/net{index}.py") for index in range(count)]


def test_facts_read_by_forked_processes_are_the_facts_read_here(monkeypatch: pytest.MonkeyPatch) -> None:
    from mslint.analysis import facts, forked  # noqa: PLC0415
    from mslint.analysis.imports import scan_imports  # noqa: PLC0415

    monkeypatch.setattr(forked, "FORK_AT_MOST", 2**62)  # fork, however large the test process has grown
    sources = _sources(forked.PARALLEL_AT_LEAST + 5)
    read = facts.read_many(sources, jobs=2, with_imports=True)
    assert [found for found, _ in read] == [facts.read_facts(data, path) for data, path in sources]
    assert [imports for _, imports in read] == [scan_imports(data) for data, _ in sources]


def test_forked_readers_end_although_the_command_handles_sigterm() -> None:
    """The command turns SIGTERM into an exception (cli.main); readers forked with
    that handler raised it when the pool ended them, and the run hung (run in a
    child process, so that a hang fails the test instead of stopping the suite)."""
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    script = textwrap.dedent("""
        import signal
        from mslint.analysis import facts, forked

        def stop(*_args):
            raise RuntimeError("stop")

        signal.signal(signal.SIGTERM, stop)
        source = (b"from mindspore import nn\\nclass Net(nn.Cell):\\n    pass\\n", "/project/net.py")
        for _ in range(10):
            assert len(facts.read_many([source] * forked.PARALLEL_AT_LEAST, jobs=2)) == forked.PARALLEL_AT_LEAST
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


def test_facts_of_a_function_defined_twice_one_definition_guarded() -> None:
    """Two definitions of one name merge their bodies; the guard's line is kept (it
    was added to a list: reading the file raised TypeError)."""
    from mslint.analysis import facts  # noqa: PLC0415

    source = textwrap.dedent("""
        import mindspore
        if mindspore.__version__ > "2":
            def calibrate(net):
                if mindspore.get_context("mode") != mindspore.PYNATIVE_MODE:
                    raise ValueError("PyNative only")
                return net
        else:
            def calibrate(net):
                return net
    """).encode()
    read = facts.read_facts(source, "/project/calibrate.py")
    assert read["bodies"]["calibrate"]["guard"] == 5


# -- trained or only evaluated, whatever the mode ------------------------------------


def test_code_every_program_only_evaluates_is_untrained_in_pynative_too(tmp_path: Path) -> None:
    files = _project(tmp_path, {
        "serve.py": (
            "import mindspore as ms\nfrom served import Served\nfrom shared import Shared\n"
            "if __name__ == '__main__':\n"
            "    for net in (Served(), Shared()):\n"
            "        ms.load_param_into_net(net, ms.load_checkpoint('w.ckpt'))\n"
            "        net.set_train(False)\n"
            "        print(net(None))\n"
        ),
        "fit.py": (  # builds Shared through a table it keys by an option
            "import argparse\nimport mindspore as ms\nfrom mindspore import nn\nfrom shared import TABLE\n"
            "if __name__ == '__main__':\n"
            "    parser = argparse.ArgumentParser()\n    parser.add_argument('--arch', default='shared')\n"
            "    net = TABLE[parser.parse_args().arch]()\n"
            "    opt = nn.SGD(net.get_parameters(), learning_rate=0.1)\n"
            "    grads = ms.grad(lambda x: net(x).sum(), None, opt.parameters)(None)\n"
            "    opt(grads)\n"
        ),
        "served.py": CELL.format(name="Served"),
        "shared.py": CELL.format(name="Shared") + "TABLE = {'shared': Shared}\n",
        "lonely.py": CELL.format(name="Lonely"),
    })
    model = _model(tmp_path)
    assert model.decision(files["served.py"], "Served").mode == mode.PYNATIVE
    assert model.verdict(files["served.py"])["untrained"] == ["Served"]
    assert model.verdict(files["shared.py"])["untrained"] == []  # fit.py trains it
    assert model.verdict(files["lonely.py"])["untrained"] == []  # no program builds it
    programs.configure(verdicts={path: model.verdict(path) for path in files.values()})
    try:
        assert programs.trained_at(files["served.py"], "Served") is False
        assert programs.trained_at(files["shared.py"], "Shared") is True
        assert programs.trained_at(files["lonely.py"], "Lonely") is True
    finally:
        programs.release()
    library = tmp_path / "library"
    paths = _project(library, {"net.py": CELL.format(name="Net")})
    programs.configure(verdicts={paths["net.py"]: _model(library).verdict(paths["net.py"])})
    try:
        assert programs.trained_at(paths["net.py"], "Net") is None  # no program in sight: anyone may train it
    finally:
        programs.release()


@pytest.mark.parametrize(("script", "trains"), [
    # loads weights and runs forward passes; stop_gradient (a port of torch.no_grad),
    # from_pretrained and a method named degrad_... are no training text
    ("net = Net()\n    ms.load_param_into_net(net, ms.load_checkpoint('w.ckpt'))\n"
     "    print(ms.ops.stop_gradient(net(1)))\n", False),
    ("net = Net()\n    ms.load_checkpoint('w.ckpt', net)\n    print(net.degrad_latent(net(1)))\n", False),
    ("net = Net.from_pretrained('w.ckpt')\n    print(net(1))\n", False),
    # calls construct itself to look at a shape (a notebook's scratch cell)
    ("print(Net().construct(1).shape)\n", False),
    # training text anywhere it reaches: it may train
    ("net = Net()\n    ms.load_checkpoint('w.ckpt', net)\n    net.set_train()\n    print(net(1))\n", True),
    ("net = Net()\n    ms.load_checkpoint('w.ckpt', net)\n    ms.value_and_grad(net)(1)\n", True),
    ("net = Net()\n    ms.load_checkpoint('w.ckpt', net)\n    train_one_epoch(net)\n", True),
    # an optimizer built and never used, a training loop left in a comment: no training
    ("net = Net()\n    opt = ms.nn.Adam(net.trainable_params())\n    net.set_train(False)\n"
     "    # train_one_epoch(net, opt)\n    print(net(1))\n", False),
    # the optimizer handed on: whatever takes it may step it
    ("net = Net()\n    opt = ms.nn.Adam(net.trainable_params())\n    net.set_train(False)\n"
     "    print(net(1))\n    run(net, opt)\n", True),
    # shows no use mslint can read: it may hand the network to code that trains it
    ("run(Net())\n", True),
    ("print(Net()(1))\n", True),
])
def test_a_program_that_only_loads_weights_and_runs_forward_does_not_train(
        tmp_path: Path, script: str, trains: bool) -> None:
    files = _project(tmp_path, {
        "net.py": CELL.format(name="Net"),
        "main.py": "import mindspore as ms\nfrom net import Net\nfrom engine import run, train_one_epoch\n"
                   "if __name__ == '__main__':\n    " + script,
    })
    model = _model(tmp_path)
    (program,) = [program for program in model.programs if program.path.endswith("main.py")]
    assert program.trains is trains
    assert model.verdict(files["net.py"])["untrained"] == ([] if trains else ["Net"])




@pytest.mark.parametrize(("script", "trains"), [
    # a module's self-test: runs its own class forward and hands it on nowhere
    ("print(Fusion(3)(1))\n", False),
    ("fusion = Fusion(3)\n    out = fusion(1)\n    print(out, fusion.gate)\n", False),
    # hands it on, or runs a class of another module: may train it
    ("fusion = Fusion(3)\n    print(fusion(1))\n    run(fusion)\n", True),
    ("print(Fusion(3)(1), Net()(1))\n", True),
])
def test_a_module_s_self_test_running_its_own_class_forward_does_not_train(
        tmp_path: Path, script: str, trains: bool) -> None:
    files = _project(tmp_path, {
        "net.py": CELL.format(name="Net"),
        "fusion.py": "import mindspore as ms\nfrom mindspore import nn\nfrom net import Net\nfrom engine import run\n"
                     "class Fusion(nn.Cell):\n    def __init__(self, n):\n        super().__init__()\n"
                     "        self.gate = nn.Dropout(0.01)\n    def construct(self, x):\n        return self.gate(x)\n"
                     "if __name__ == '__main__':\n    " + script,
    })
    model = _model(tmp_path)
    (program,) = [program for program in model.programs if program.path.endswith("fusion.py")]
    assert program.trains is trains
    assert model.verdict(files["fusion.py"])["untrained"] == ([] if trains else ["Fusion", programs.MAIN])


@pytest.mark.parametrize(("source", "shadowed"), [
    ("class Net:\n    def f(self):\n        return 1  # here\n\nclass Net:\n    def g(self):\n        return Net\n", True),
    ("def build():\n    return 1  # here\n\nbuild = 3\n", True),
    ("class Net:\n    x = 1  # here\n\nfrom other import Net\n", True),
    # read before the rebinding, or by it; decorated; rebound only under an if; never rebound
    ("class Net:\n    x = 1  # here\n\nAlias = Net\n\nclass Net:\n    pass\n", False),
    ("class Net:\n    x = 1  # here\n\nclass Net(Net):\n    pass\n", False),
    ("class Net:\n    x = 1  # here\n\nNet = wrap(Net)\n", False),
    ("@register\nclass Net:\n    x = 1  # here\n\nclass Net:\n    pass\n", False),
    ("class Net:\n    x = 1  # here\n\nif flag:\n    class Net:\n        pass\n", False),
    ("class Net:\n    x = 1  # here\n\nclass Other:\n    pass\n", False),
])
def test_a_definition_replaced_by_a_later_one_of_its_name_is_never_reached(source: str, shadowed: bool) -> None:
    import astroid  # noqa: PLC0415

    module = astroid.parse(source)
    line = source.split("\n").index(next(text for text in source.split("\n") if "# here" in text)) + 1
    node = next(found for found in module.nodes_of_class(astroid.nodes.NodeNG)
                if getattr(found, "lineno", None) == line and type(found).__name__ in ("Return", "Assign"))
    assert (programs.reach_name(node) == programs.SHADOWED) is shadowed
    assert (programs.trained_at("nowhere.py", programs.reach_name(node)) is False) is shadowed


@pytest.mark.parametrize(("source", "expected"), [
    # a default, a keyword-only default, a keyword, a dict key, a negative number, across lines
    ("def block(c, dropout=0.9, *, other=1, dropout2=3):\n    pass\n", [0.9]),
    ("def f(*, dropout=-0.5):\n    pass\n", [-0.5]),
    ("layer = Block(\n    64,\n    dropout=\n        0.1,\n)\n", [0.1]),
    ("cfg = {'width': 4, \"dropout\": .25, 'inner': {'dropout': 1e-1}}\n", [0.25, 0.1]),
    ("x = Net(dropout=(0.3))\ny = Net(dropout=+0.3)\n", [0.3]),
    # no number given: an assignment, a comment, a string, a name, a bool, another name
    ("dropout = 0.1\nself.dropout = 0.2\n# Net(dropout=0.3)\ns = 'Net(dropout=0.4)'\n", []),
    ("Net(dropout=rate)\nNet(dropout=True)\nNet(my_dropout=0.5)\nNet(dropouts=0.5)\n", []),
    # nested: a keyword inside a default inside a class, a lambda's default
    ("class A:\n    def f(self, x=g(dropout=0.7)):\n        return lambda dropout=0.6: dropout\n", [0.7, 0.6]),
])
def test_values_a_source_gives_a_name(source: str, expected: list) -> None:
    from mslint.analysis.programs import _values_in_source  # noqa: PLC0415

    data = source.encode("utf-8")
    assert sorted(_values_in_source(data, "dropout")) == sorted(expected)
    path = f"/virtual/{abs(hash(source))}.py"
    assert sorted(_values_in_source(data, "dropout", path)) == sorted(expected)
    assert sorted(_values_in_source(data, "dropout", path)) == sorted(expected)  # the second time, as kept


def test_a_registry_keyed_by_a_table_read_in_place_is_followed(tmp_path: Path) -> None:
    # ``BUILDERS[INFO[name][0]]()``: the lookup's key is a table read whose parts nest
    # (it crashed the model once: an edge holding a list)
    zoo = dict(ZOO_BY_TABLE)
    zoo["zoo/table.py"] = zoo["zoo/table.py"].replace(
        "def build_model(name):\n    scale, chosen = model_info(name)\n    return BUILDERS[chosen]()\n",
        "def build_model(name):\n    return BUILDERS[INFO[name][0]]()\n")
    paths = _project(tmp_path, {**zoo, **TABLE_TRAIN})
    lookups = programs.read_facts(Path(paths["zoo/table.py"]).read_bytes())["bodies"]["build_model"]["lookups"]
    assert ["BUILDERS", ["table", "INFO", ["param", "name", "build_model"], [0]], "item"] in lookups
    model = _model(tmp_path)
    assert model.decision(paths["zoo/nets.py"], "Compiled").mode == mode.GRAPH
    assert model.decision(paths["zoo/nets.py"], "Eager").mode == mode.PYNATIVE


def test_real_paths_of_relative_names_follow_the_working_folder(tmp_path: Path, monkeypatch) -> None:
    # project.real_path memoizes: a relative name ("." of a run) must not keep the
    # folder the first run was started from (a later run in another folder, a server)
    from mslint.analysis.project import real_path  # noqa: PLC0415

    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        monkeypatch.chdir(tmp_path / name)
        assert real_path(".") == str((tmp_path / name).resolve())
        assert real_path("x.py") == str((tmp_path / name / "x.py").resolve())


_BLOCK_WITHOUT_INIT = {
    # a folder of blocks without __init__.py below the package, importing each other
    # relatively; a layer built from a parameter named otherwise than the
    # configuration's key, which the program reads from its YAML file
    "train.py": "import yaml\nfrom pkg.model import build\nconfig = yaml.safe_load(open('configs/run.yaml'))\n"
                "net = build(config)\nnet.set_train()\n",
    "pkg/__init__.py": "",
    "pkg/model/__init__.py": "from .blocks.encoder import Encoder\n\n\ndef build(config):\n"
                             "    return Encoder(config['width'], dropout=config['dropout'])\n",
    "pkg/model/blocks/encoder.py": "from mindspore import nn\nfrom .attention import Attention\n\n\n"
                                   "class Encoder(nn.Cell):\n    def __init__(self, width, dropout):\n        super().__init__()\n"
                                   "        self.attention = Attention(width, 4, dropout)\n        self.drop = nn.Dropout(dropout)\n\n"
                                   "    def construct(self, x):\n        return self.drop(self.attention(x))\n",
    "pkg/model/blocks/attention.py": "from mindspore import nn\n\n\nclass Attention(nn.Cell):\n"
                                     "    def __init__(self, width, heads, dropout_rate=None):\n        super().__init__()\n"
                                     "        self.proj = nn.Dense(width, width)\n        self.drop = nn.Dropout(dropout_rate)\n\n"
                                     "    def construct(self, x):\n        return self.drop(self.proj(x))\n",
}


@pytest.mark.usefixtures("_isolated")
@pytest.mark.parametrize(("written", "expected"), [(0.9, []), (0.1, [("pkg/model/blocks/attention.py", 8), ("pkg/model/blocks/encoder.py", 9)])])
def test_configured_keep_probabilities_reach_a_folder_without_init(tmp_path: Path, capsys, monkeypatch, written, expected) -> None:
    # the YAML file at the repository's root writes the only number for ``dropout``: 0.9,
    # a keep probability, reaches the blocks folder's layer through the positional
    # ``dropout`` its constructor passes (round 25: a Uni-Mol port); 0.1 is a drop rate
    _project(tmp_path, {**_BLOCK_WITHOUT_INIT, "configs/run.yaml": f"width: 8\ndropout: {written}\n"})
    monkeypatch.chdir(tmp_path)
    found = _lint(capsys, ".")["findings"]
    assert sorted((item["path"], item["line"]) for item in found if item["symbol"] == "ms-dropout-keep-prob") == expected


# -- a project with no program: its README's usage examples -----------------------


def test_a_library_runs_as_its_readme_examples_show(tmp_path: Path) -> None:
    layer = CELL.format(name="Quantize")
    _project(tmp_path, {"quantize/__init__.py": "from .layer import Quantize\n", "quantize/layer.py": layer})
    (tmp_path / "README.md").write_text(
        "## Usage\n\n```python\nfrom quantize import Quantize\nq = Quantize()\ncodes = q(x)\n```\n\n"
        "```bash\npython -c 'import mindspore; mindspore.set_context(mode=0)'\n```\n")
    decision = _model(tmp_path).decision(str(tmp_path / "quantize/layer.py"), "Quantize")
    assert (decision.mode, decision.assumed) == (mode.PYNATIVE, False)
    assert "README.md" in decision.basis
    # an interactive example that selects GRAPH_MODE compiles the code, and says where
    (tmp_path / "README.md").write_text(
        "```pycon\n>>> import mindspore as ms\n>>> from quantize import Quantize\n"
        ">>> ms.set_context(mode=ms.GRAPH_MODE)\n```\n")
    decision = _model(tmp_path).decision(str(tmp_path / "quantize/layer.py"), "Quantize")
    assert (decision.mode, decision.assumed) == (mode.GRAPH, False)
    # examples that do not use the code (a shell session), or none: assumed graph, as before
    (tmp_path / "README.md").write_text("```bash\npip install quantize\n```\n")
    assert _model(tmp_path).decision(str(tmp_path / "quantize/layer.py"), "Quantize") == mode.LIBRARY


def test_readme_examples_are_read_from_markdown_and_restructured_text() -> None:
    text = ("```python\nimport mindspore\n```\n\n~~~py\nx = 1\n~~~\n\n```yaml\nmode: 0\n```\n\n"
            ".. code-block:: python\n\n    from lib import Net\n    Net()\n\nAfter.\n")
    assert mode.readme_examples(text) == ["import mindspore\n", "x = 1\n", "\n    from lib import Net\n    Net()\n\n"]
    packages = frozenset({"lib"})
    assert mode.documented_mode(["x = 1\n"], packages) is None  # uses neither MindSpore nor the project
    assert mode.documented_mode(["from lib import Net\nNet()(x)\n"], packages)[0] == mode.PYNATIVE
    assert mode.documented_mode(["import lib\n@ms.jit\ndef step(x):\n    return lib.f(x)\n"], packages)[0] == mode.GRAPH
    # a mode the example reads from somewhere mslint cannot see: no decision
    assert mode.documented_mode(["import lib, mindspore\nmindspore.set_context(mode=args.mode)\n"], packages) is None


@pytest.mark.usefixtures("_isolated")
def test_editing_the_readme_re_decides_the_cached_model(tmp_path: Path, capsys, monkeypatch) -> None:
    _project(tmp_path, {"lib/__init__.py": "", "lib/net.py": CELL.format(name="Net")})
    (tmp_path / "README.md").write_text("```python\nfrom lib.net import Net\nNet()(x)\n```\n")
    monkeypatch.chdir(tmp_path)
    assert _lint(capsys, ".")["findings"] == []  # PyNative, as the example runs it: nothing differentiates it
    (tmp_path / "README.md").write_text("```python\nimport mindspore as ms\nfrom lib.net import Net\n"
                                        "ms.set_context(mode=ms.GRAPH_MODE)\nNet()(x)\n```\n")
    assert [item["line"] for item in _lint(capsys, ".")["findings"]] == [4]


def test_projects_built_side_by_side_give_the_verdicts_built_one_after_another(tmp_path: Path, monkeypatch) -> None:
    # two projects of even size: their models are built in two forked processes,
    # each reading its own files; the verdicts are those of the plain loop
    files = []
    for name, mode_line in (("one", "ms.set_context(mode=ms.GRAPH_MODE)\n"), ("two", "")):
        root = tmp_path / name
        paths = _project(root, {"train.py": f"import mindspore as ms\nfrom model import Net\n{mode_line}Net()(None)\n",
                                "model.py": CELL.format(name="Net")})
        files += [paths["train.py"], paths["model.py"]]
    monkeypatch.setattr(programs.forked, "PARALLEL_AT_LEAST", 1)
    apart = []
    real_apart = programs.forked.apart

    def counted(work, items, jobs):  # noqa: ANN001, ANN202
        found = real_apart(work, items, jobs)
        apart.append(found is not None)
        return found

    monkeypatch.setattr(programs.forked, "apart", counted)
    side_by_side = programs.verdicts(files, jobs=2)
    assert apart == [True]
    one_after_another = programs.verdicts(files, jobs=1)
    assert side_by_side == one_after_another
    model = side_by_side[0][str(tmp_path / "one" / "model.py")]
    assert model["symbols"]["Net"][0] == mode.GRAPH
    assert side_by_side[0][str(tmp_path / "two" / "model.py")]["symbols"]["Net"][0] == mode.PYNATIVE
