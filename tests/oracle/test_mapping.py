"""The PyTorch-to-MindSpore mapping data (mslint/knowledge/mapping) against the
installed frameworks, and the premises of what ms-torch-keyword-args and
ms-torch-positional-args take from it.

- The shipped data still describes the installed MindSpore and PyTorch: every
  candidate re-measured gives the same existence, parameters and status
  (``generate --check``), and a tampered copy is caught.
- Every keyword the data adds to ms-torch-keyword-args raises TypeError in the
  installed MindSpore, PyTorch's counterpart takes it, and every rename exists.
- Every positional trap the data adds binds PyTorch's value to another
  parameter (tests/oracle/test_layers.py proves nn.TripletMarginLoss(0.3) sets p).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from mslint.knowledge import apis
from mslint.knowledge.mapping import DATA_FILE

pytestmark = pytest.mark.frameworks


def _check(path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mslint.knowledge.mapping.generate", "--check", "--output", str(path)],
        capture_output=True, text=True, timeout=600, check=False,
    )


def test_table_mapping_data_matches_the_installed_frameworks():
    completed = _check(DATA_FILE)
    assert completed.returncode == 0, completed.stdout[-4000:] + completed.stderr[-2000:]


def test_table_mapping_check_fails_when_the_frameworks_no_longer_match(tmp_path):
    data = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    candidate = next(c for c in data["apis"]["torch.nn.TripletMarginLoss"]["candidates"]
                     if c["api"] == "mindspore.nn.TripletMarginLoss")
    candidate["signature"] = [["margin", "pk", "1.0"]] + [p for p in candidate["signature"] if p[0] != "margin"]
    data["apis"]["torch.nn.Linear"]["candidates"][0]["exists"] = False
    data["mindspore"] = "2.9.0"
    tampered = tmp_path / "data.json"
    tampered.write_text(json.dumps(data), encoding="utf-8")
    completed = _check(tampered)
    assert completed.returncode == 1
    assert "torch.nn.TripletMarginLoss -> mindspore.nn.TripletMarginLoss: signature" in completed.stdout
    assert "torch.nn.Linear -> mindspore.mint.nn.Linear: exists" in completed.stdout
    assert "the data describes mindspore 2.9.0" in completed.stdout


# ---------------------------------------------------------------------------
# ms-torch-keyword-args: the keywords the data adds
# ---------------------------------------------------------------------------
def test_table_torch_keyword_apis_from_the_data_raise_and_renames_exist(run_snippet):
    table = {}
    for qname, keyword in sorted(apis.DATA_TORCH_KEYWORDS):
        api = apis.TORCH_KEYWORD_APIS[qname]
        table.setdefault(qname, {"torch": api.torch, "keywords": {}})["keywords"][keyword] = \
            api.keywords[keyword].rename
    result = run_snippet(f'''
import inspect
from mslint.knowledge.mapping.measure import resolve, signatures
table = json.loads({json.dumps(table)!r})
out = {{}}
for qname, entry in table.items():
    obj = resolve(qname)
    _, torch_overloads, _ = signatures(entry["torch"])
    torch_names = {{p[0] for params in torch_overloads or () for p in params}}
    _, ms_overloads, _ = signatures(qname)
    ms_names = {{p[0] for params in ms_overloads or () for p in params}}
    # required parameters get a placeholder: a decorator that binds the arguments
    # (MindSpore's Cells) reports a missing one before an unexpected keyword
    required = [None for name, kind, default in (ms_overloads or [[]])[0] if kind in ("p", "pk") and default is None]
    for keyword, rename in entry["keywords"].items():
        try:
            obj(*required, **{{keyword: None}})
            raised = "nothing"
        except TypeError as error:
            raised = "TypeError" if keyword in str(error) else "TypeError about something else: " + str(error)[:80]
        except Exception as error:
            raised = type(error).__name__ + ": " + str(error)[:80]
        out[qname + ":" + keyword] = [raised, keyword in torch_names, rename is None or rename in ms_names]
report(**out)
''')
    assert len(result) == len(apis.DATA_TORCH_KEYWORDS) > 500
    wrong = {key: value for key, value in result.items() if value != ["TypeError", True, True]}
    assert not wrong, wrong  # [the call raises TypeError naming the keyword, PyTorch takes it, the rename exists]


# ---------------------------------------------------------------------------
# ms-torch-positional-args: the traps the data adds
# ---------------------------------------------------------------------------
_SAMPLE = {"bool": True, "str": "zeros", "fraction": 0.3, "int": 2}


def test_table_positional_traps_from_the_data_bind_another_parameter(run_snippet):
    traps = [
        [qname, trap.index, trap.ms_param, trap.torch_param, _SAMPLE[trap.looks_like],
         (apis.LAYER_APIS.get(qname) or apis.POSITIONAL_APIS[qname]).torch]
        for qname, found in apis.DATA_POSITIONAL_TRAPS.items() for trap in found
    ]
    result = run_snippet(f'''
import inspect
from mslint.knowledge.mapping.measure import _unwrapped_init, resolve

def bound(qname, args):
    """The arguments as the class's own __init__ (decorators unwrapped) binds them."""
    init = _unwrapped_init(resolve(qname))
    return inspect.signature(init).bind_partial(object(), *args).arguments

out = []
for qname, index, ms_param, torch_param, value, torch_api in json.loads({json.dumps(traps)!r}):
    args = [object()] * index + [value]
    ms_bound = bound(qname, args)
    torch_bound = inspect.signature(resolve(torch_api)).bind_partial(*args).arguments
    out.append([qname, index, ms_bound.get(ms_param) == value, torch_bound.get(torch_param) == value])
report(traps=out)
''')
    assert len(result["traps"]) == len(traps) > 20
    wrong = [row for row in result["traps"] if row[2:] != [True, True]]
    assert not wrong, wrong  # MindSpore's slot parameter and PyTorch's each take the value


def test_table_private_modules_re_export_the_public_api():
    """mapping.PUBLIC_HOMES: the name the migration report gives a use written with
    PyTorch's defining module is the same object (measured in torch 2.13)."""
    import importlib  # noqa: PLC0415

    from mslint.knowledge.mapping import public_name  # noqa: PLC0415

    def load(dotted: str):
        module, _, name = dotted.rpartition(".")
        return getattr(importlib.import_module(module), name)

    written = ("torch.utils.data.dataloader.DataLoader", "torch.utils.data.dataset.Dataset",
               "torch.utils.data.sampler.RandomSampler", "torch.nn.modules.linear.Linear",
               "torch.nn.modules.conv.Conv2d", "torch.nn.modules.Dropout", "torch.nn.parameter.Parameter",
               "torch.optim.adamw.AdamW", "torch.optim.sgd.SGD", "torch._tensor.Tensor")
    moved = 0
    for private in written:
        public = public_name(private)
        assert load(private) is load(public), (private, public)
        moved += public != private
    assert moved >= 8  # the data lists most of them under their public name


def test_table_one_hot_num_classes_is_mindspore_s_required_depth(run_snippet):
    """``ops.one_hot(p, num_classes=c)`` raises TypeError, and deleting the keyword
    too (depth is required); passing the count as depth gives PyTorch's
    ``one_hot(p, num_classes=c)``: the advice in apis.DATA_KEYWORD_ADVICE."""
    assert ("mindspore.ops.one_hot", "num_classes") in apis.DATA_KEYWORD_ADVICE
    assert "depth" in apis.TORCH_KEYWORD_APIS["mindspore.ops.one_hot"].keywords["num_classes"].instead
    result = run_snippet('''
import torch
import mindspore.ops.functional as F
labels = [0, 2, 1, 2]
p = Tensor(np.array(labels), ms.int32)
report(
    keyword=attempt(lambda: ops.one_hot(p, num_classes=4) and None),
    deleted=attempt(lambda: ops.one_hot(p) and None),
    functional_is_ops=F.one_hot is ops.one_hot,
    depth=attempt(lambda: ops.one_hot(p, depth=4).asnumpy().tolist()),
    torch=torch.nn.functional.one_hot(torch.tensor(labels), num_classes=4).tolist(),
)
''')
    assert result["keyword"][0] == "error" and result["keyword"][1].startswith("TypeError"), result
    assert result["deleted"][0] == "error" and result["deleted"][1].startswith("TypeError"), result
    assert result["functional_is_ops"] is True
    assert result["depth"] == ["ok", result["torch"]], result
