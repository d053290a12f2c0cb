"""The PyTorch-to-MindSpore mapping data: its page readers, its generator (on a
sample of pages written for these tests, tests/data/mapping_pages), the signature
comparison, the measurement's verification logic (with a stand-in for the
frameworks), and the shipped data file. No framework is needed here;
tests/oracle/test_mapping.py measures the shipped data against the installed ones.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mslint.knowledge import apis, mapping
from mslint.knowledge.mapping import compare, generate, pages

SAMPLE = Path(__file__).resolve().parent / "data" / "mapping_pages"
MAPPING = "docs/mindspore/source_{lang}/note/api_mapping/pytorch_api_mapping.md"


def _read(revision: str, path: str) -> str:
    return (SAMPLE / revision / path).read_text(encoding="utf-8")


# ---------------------------------------------------------------------------
# Page readers
# ---------------------------------------------------------------------------
def test_mapping_page_rows_sections_and_descriptions():
    rows = {row.torch: row for row in pages.read_mapping_page(_read("older", MAPPING.format(lang="en")))}
    assert set(rows) == {"torch.abs", "torch.mean", "torch.nn.Linear", "torch.nn.TripletMarginLoss",
                         "torch.nn.Softmax2d", "torch.optim.Adam"}
    assert rows["torch.abs"].consistent and rows["torch.abs"].mindspore == ["mindspore.ops.abs"]
    assert rows["torch.abs"].section == "torch"
    assert not rows["torch.mean"].consistent and "parameter names are inconsistent" in rows["torch.mean"].description
    assert rows["torch.nn.Linear"].diff_page == "Dense" and rows["torch.nn.Linear"].section == "torch.nn"
    assert rows["torch.optim.Adam"].mindspore == ["mindspore.nn.Adam"]


def test_mapping_page_takes_the_spelling_of_the_link():
    rows = {row.torch: row for row in pages.read_mapping_page(_read("newest", MAPPING.format(lang="en")))}
    assert "torch.nn.CELU" in rows and "torch.nn.CeLU" not in rows  # the URL spells it CELU
    assert not rows["torch.topk"].consistent  # "consistent, but the default value ... is different"


def test_general_parameters_table():
    assert pages.general_parameters(_read("older", MAPPING.format(lang="en"))) == ["out", "size_average"]


def test_chinese_page_reads_the_same_way():
    rows = {row.torch: row for row in pages.read_mapping_page(_read("older", MAPPING.format(lang="zh_cn")))}
    assert rows["torch.nn.ReLU"].consistent
    assert rows["torch.nn.Linear"].diff_page == "Dense"


def test_difference_page_signatures_rows_and_verdict():
    page = pages.read_diff_page("TripletMarginLoss", _read(
        "older", "docs/mindspore/source_en/note/api_mapping/pytorch_diff/TripletMarginLoss.md"))
    assert page.title_api == "torch.nn.TripletMarginLoss"
    assert page.pairs[1] == ("torch.nn.functional.triplet_margin_loss", "mindspore.ops.triplet_margin_loss")
    torch_sig, ms_sig = page.signatures
    assert torch_sig.parameters[0] == ("margin", "1.0") and torch_sig.inputs == ["anchor", "positive", "negative"]
    assert [name for name, _ in ms_sig.parameters] == ["p", "swap", "eps", "reduction"]
    assert page.not_consistent
    assert [(row.category, row.torch, row.mindspore) for row in page.rows][:3] == [
        ("parameter", "margin", None), ("parameter", "p", "p"), ("parameter", "eps", "swap")]
    assert page.rows[-1].category == "input" and page.rows[-1].mindspore == "margin"


# ---------------------------------------------------------------------------
# Comparing signatures
# ---------------------------------------------------------------------------
TRIPLET_TORCH = [["margin", "pk", "1.0"], ["p", "pk", "2.0"], ["eps", "pk", "1e-06"], ["swap", "pk", "False"],
                 ["size_average", "pk", "None"], ["reduce", "pk", "None"], ["reduction", "pk", "'mean'"]]
TRIPLET_MS = [["p", "pk", "2"], ["swap", "pk", "False"], ["eps", "pk", "1e-06"], ["reduction", "pk", "'mean'"],
              ["margin", "pk", "1.0"]]
DOC_ROWS = [{"torch": "eps", "mindspore": "swap", "note": "Different position, same function"}]


def test_compare_positions_follow_names_not_slot_rows():
    result = compare.compare(TRIPLET_TORCH, TRIPLET_MS, DOC_ROWS, {"size_average", "reduce"})
    assert result["parameters"]["margin"] == "margin" and result["parameters"]["eps"] == "eps"
    moved = [(d["torch"], d["index"], d["mindspore_at_index"]) for d in result["differences"] if d["kind"] == "position"]
    assert moved == [("margin", 0, "p"), ("p", 1, "swap"), ("swap", 3, "reduction")]  # stops at size_average
    assert result["general"] == ["size_average", "reduce"]


def test_compare_renames_need_the_page_to_say_so_and_matching_values():
    torch_params = [["params", "pk", None], ["lr", "pk", "0.001"], ["betas", "pk", "(0.9, 0.999)"],
                    ["padding_mode", "pk", "'zeros'"]]
    ms_params = [["params", "pk", None], ["learning_rate", "pk", "0.001"], ["beta1", "pk", "0.9"],
                 ["pad_mode", "pk", "'same'"]]
    rows = [{"torch": "lr", "mindspore": "learning_rate", "note": "Same function, different parameter names"},
            {"torch": "betas", "mindspore": "beta1", "note": "Same function, different parameter names"},
            {"torch": "padding_mode", "mindspore": "pad_mode", "note": "Refer to the above"}]
    result = compare.compare(torch_params, ms_params, rows)
    assert result["parameters"] == {"params": "params", "lr": "learning_rate", "betas": None, "padding_mode": None}
    assert result["rejected"] and "betas -> beta1" in result["rejected"][0]  # a tuple is not a float
    assert {"kind": "renamed", "torch": "lr", "mindspore": "learning_rate"} in result["differences"]


def test_compare_pairs_by_position_where_the_page_says_names_differ():
    torch_params = [["input", "pk", None], ["dim", "pk", "None"], ["keepdim", "pk", "False"]]
    ms_params = [["x", "pk", None], ["axis", "pk", "None"], ["keep_dims", "pk", "False"]]
    result = compare.compare(torch_params, ms_params, pair_by_position=True)
    assert result["parameters"] == {"input": "x", "dim": "axis", "keepdim": "keep_dims"}
    assert [d["kind"] for d in result["differences"]] == ["renamed", "renamed", "renamed"]
    assert compare.compare(torch_params, ms_params)["parameters"] == {"input": None, "dim": None, "keepdim": None}


def test_compare_defaults_dtypes_and_enums():
    assert compare.same_default("torch.int64", "mindspore.int64")
    assert compare.same_default("None", "mindspore.float32", "dtype")
    assert compare.same_default("2", "2.0") and not compare.same_default("True", "1")
    assert compare.same_default("<RedOpType.SUM: 0>", "'sum'")
    assert not compare.same_default("0.1", "0.9")


def test_compare_overloads_exception_four_and_optional_overloads():
    torch_overloads = [[["input", "pk", None]], [["input", "pk", None], ["dim", "pk", "-1"], ["keepdim", "pk", "False"]]]
    ms_overloads = [[["input", "pk", None], ["dim", "pk", "None"], ["keepdim", "pk", "False"]]]
    _, _, result = compare.compare_overloads(torch_overloads, ms_overloads)
    assert result["differences"] == []  # dim=None is torch.median(input) (the pages' exception 4)
    ms_two = [[["dim", "pk", None], ["keepdim", "pk", "False"]], []]
    _, _, result = compare.compare_overloads([[["dim", "pk", "None"], ["keepdim", "pk", "False"]]], ms_two)
    assert result["differences"] == []  # x.max() binds the overload without dim


def test_describe_says_each_difference():
    assert compare.describe({"kind": "renamed", "torch": "bias", "mindspore": "has_bias"}) == "bias is called has_bias"
    assert "positional argument 1 is PyTorch's margin, MindSpore's p" == compare.describe(
        {"kind": "position", "torch": "margin", "mindspore": "margin", "index": 0, "mindspore_at_index": "p"})


# ---------------------------------------------------------------------------
# The generator, on the sample pages
# ---------------------------------------------------------------------------
def _sources():
    return [(generate.FolderDocs(SAMPLE, "newest"), "2.1"), (generate.FolderDocs(SAMPLE, "older"), "1.8.1")]


def test_generator_without_measurement_says_what_the_pages_say():
    data = generate.build(_sources())
    entries = data["apis"]
    assert {"torch.abs", "torch.nn.Linear", "torch.nn.ReLU", "torch.nn.CELU", "torch.mean"} <= set(entries)
    abs_entry = entries["torch.abs"]
    assert [c["api"] for c in abs_entry["candidates"]] == ["mindspore.mint.abs", "mindspore.ops.abs"]  # newest first
    assert abs_entry["status"] == "same" and abs_entry["counterpart"] == "mindspore.mint.abs"
    linear = entries["torch.nn.Linear"]
    assert linear["status"] == "differs" and linear["candidates"][0]["docs"]["diff_page"] == "Dense"
    assert linear["candidates"][0]["docs"]["rows"][0]["torch"] == "in_features"
    assert entries["torch.nn.ReLU"]["candidates"][0]["docs"]["revision"] == "older"  # from the Chinese page
    assert data["general_parameters"] == ["out", "device", "size_average"]
    assert "verification" not in data and "mindspore" not in data


class StandIn:
    """The frameworks as the generator asks about them, from a table."""

    def __init__(self, table: dict[str, tuple[str, list | None]]) -> None:
        self.table = table

    def _side(self, qname):
        if qname not in self.table:
            return {"exists": False, "kind": None}
        kind, overloads = self.table[qname]
        return {"exists": True, "kind": kind, "overloads": overloads, "how": "inspect",
                "signature": overloads[0] if overloads else None}

    def exists(self, qname):
        return qname in self.table

    def torch_side(self, qname):
        return self._side(qname)

    def mindspore_side(self, qname):
        return self._side(qname)

    def public_torch_apis(self):
        return ["torch.nn.GELU"]

    def versions(self):
        return {"mindspore": "2.10.0", "torch": "2.13.0"}

    def tensor_attributes(self):
        return ["view"]

    def torch_modules(self):
        return ["torch", "torch.nn"]


LINEAR_TORCH = [["in_features", "pk", None], ["out_features", "pk", None], ["bias", "pk", "True"],
                ["device", "pk", "None"], ["dtype", "pk", "None"]]
STAND_IN = {
    "torch.abs": ("function", [[["input", "pk", None]]]),
    "mindspore.mint.abs": ("function", [[["input", "pk", None]]]),
    "mindspore.ops.abs": ("function", [[["input", "pk", None]]]),
    "torch.topk": ("function", [[["input", "pk", None], ["k", "pk", None], ["dim", "pk", "None"]]]),
    "mindspore.mint.topk": ("function", [[["input", "pk", None], ["k", "pk", None], ["dim", "pk", "None"]]]),
    "torch.nn.Linear": ("class", [LINEAR_TORCH]),
    "mindspore.nn.Dense": ("class", [[["in_channels", "pk", None], ["out_channels", "pk", None],
                                      ["weight_init", "pk", "None"], ["has_bias", "pk", "True"]]]),
    "mindspore.mint.nn.Linear": ("class", [[["in_features", "pk", None], ["out_features", "pk", None],
                                            ["bias", "pk", "True"], ["dtype", "pk", "None"]]]),
    "torch.nn.Softmax2d": ("class", [[]]),
    "torch.mean": ("function", [[["input", "pk", None], ["dim", "pk", "None"]]]),
    "mindspore.ops.mean": ("function", [[["x", "pk", None], ["axis", "pk", "None"]]]),
    "torch.nn.CELU": ("class", [[["alpha", "pk", "1.0"]]]),
    "mindspore.mint.nn.CELU": ("class", [[["alpha", "pk", "1.0"]]]),
    "torch.nn.ReLU": ("class", [[]]),
    "mindspore.nn.ReLU": ("class", [[]]),
    "torch.nn.TripletMarginLoss": ("class", [TRIPLET_TORCH]),
    "mindspore.nn.TripletMarginLoss": ("class", [TRIPLET_MS]),
    "torch.nn.GELU": ("class", [[["approximate", "pk", "'none'"]]]),
    "mindspore.mint.nn.GELU": ("class", [[["approximate", "pk", "'none'"]]]),
    "torch.optim.Adam": ("class", [[["params", "pk", None], ["lr", "pk", "0.001"], ["betas", "pk", "(0.9, 0.999)"]]]),
    "mindspore.nn.Adam": ("class", [[["params", "pk", None], ["learning_rate", "pk", "0.001"], ["beta1", "pk", "0.9"],
                                     ["beta2", "pk", "0.999"]]]),
}


def test_generator_measures_and_counts_what_the_measurement_changed():
    data = generate.build(_sources(), StandIn(STAND_IN))
    entries = data["apis"]
    # the pages' counterpart does not exist: missing, and counted
    assert entries["torch.nn.Softmax2d"]["status"] == "missing"
    assert "does not exist" in entries["torch.nn.Softmax2d"]["verification"][0]
    # the pages say "default differs", the signatures agree: same, and counted
    assert entries["torch.topk"]["status"] == "same"
    assert "the pages say differs, the signatures say same" in entries["torch.topk"]["verification"]
    # a mint namesake with PyTorch's parameters is preferred to the pages' nn class
    linear = entries["torch.nn.Linear"]
    assert linear["counterpart"] == "mindspore.mint.nn.Linear" and linear["status"] == "same"
    dense = next(c for c in linear["candidates"] if c["api"] == "mindspore.nn.Dense")
    assert dense["parameters"]["bias"] == "has_bias" and dense["status"] == "differs"
    # a rename the page states but the values contradict is rejected, and counted
    adam = entries["torch.optim.Adam"]
    assert adam["candidates"][0]["parameters"]["lr"] == "learning_rate"
    assert any("betas -> beta1" in change for change in adam["verification"])
    # an API the pages do not list, with a mint namesake: found by measurement
    assert entries["torch.nn.GELU"]["counterpart"] == "mindspore.mint.nn.GELU"
    assert entries["torch.nn.GELU"]["docs"] is None
    # the names differ by position only where the page says so (torch.mean)
    assert entries["torch.mean"]["candidates"][0]["parameters"] == {"input": "x", "dim": "axis"}
    # a difference page that says "not consistent" keeps the pair differing
    triplet = entries["torch.nn.TripletMarginLoss"]
    assert triplet["status"] == "differs" and "not consistent" in triplet["candidates"][0]["notes"][0]
    summary = data["verification"]
    # Softmax2d, and the migration guide's six rows (the stand-in has none of their classes)
    assert summary["counterpart_absent"] == 1 + len(generate.GUIDE_ROWS) and summary["found_by_name"] == 1
    assert entries["torch.nn.Module"]["docs"]["counterpart"] == "mindspore.nn.Cell"
    assert summary["changed"] == sum(1 for e in entries.values() if e.get("docs") and e["verification"])


def test_check_reports_what_no_longer_holds():
    stand_in = StandIn(STAND_IN)
    data = json.loads(json.dumps(generate.build(_sources(), stand_in)))
    assert generate.check(data, stand_in) == []
    changed = dict(STAND_IN)
    changed["mindspore.mint.nn.Linear"] = ("class", [[["in_features", "pk", None], ["out_features", "pk", None]]])
    del changed["mindspore.mint.topk"]
    problems = generate.check(data, StandIn(changed))
    assert any(p.startswith("torch.nn.Linear -> mindspore.mint.nn.Linear: signature") for p in problems)
    assert any(p.startswith("torch.topk -> mindspore.mint.topk: exists") for p in problems)
    assert any(p == "torch.topk: the counterpart is now None" for p in problems)


# ---------------------------------------------------------------------------
# The shipped data
# ---------------------------------------------------------------------------
def test_shipped_data_says_what_it_describes():
    data = mapping.data()
    assert data["format"] == generate.FORMAT
    assert data["mindspore"] == "2.10.0" and data["torch"] == "2.13.0"
    revisions = [source["revision"] for source in data["sources"]]
    assert revisions == ["master", "r2.4.10"] and all(len(s["commit"]) == 40 for s in data["sources"])
    assert data["verification"]["documented"] > 900 and data["verification"]["changed"] > 0
    for torch_api, entry in data["apis"].items():
        assert entry["status"] in mapping.STATUSES, torch_api
        assert (entry["counterpart"] is None) == (entry["status"] == "missing"), torch_api
        if entry["counterpart"]:
            assert mapping.chosen(entry)["status"] == entry["status"], torch_api


def test_shipped_data_feeds_the_linter_tables():
    assert apis.TORCH_KEYWORD_APIS["mindspore.ops.mean"].keywords["dim"].rename == "axis"
    assert apis.TORCH_KEYWORD_APIS["mindspore.ops.mean"].call == "calling it"
    # the hand-written advice wins where both speak
    assert "beta1" in apis.TORCH_KEYWORD_APIS["mindspore.nn.Adam"].keywords["betas"].instead
    assert apis.TORCH_KEYWORD_APIS["mindspore.nn.Adam"].raises == "KeyError"
    traps = apis.POSITIONAL_APIS["mindspore.nn.TripletMarginLoss"].positional_traps
    assert (traps[0].index, traps[0].ms_param, traps[0].torch_param) == (0, "p", "margin")
    assert all(not name.startswith("_") for _, keywords, _ in mapping.torch_keywords().values() for name in keywords)


def test_data_file_is_package_data():
    assert mapping.DATA_FILE.name == "torch_to_mindspore.json"
    pyproject = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert '"mslint.knowledge.mapping" = ["*.json"]' in pyproject and '"mslint.knowledge.mapping",' in pyproject


@pytest.mark.parametrize("name", ["torch.nn.Conv2d", "torch.abs", "torch.Tensor.view"])
def test_common_apis_are_in_the_data(name):
    entry = mapping.entry(name)
    assert entry is not None and entry["counterpart"]


def test_namesakes_elsewhere_are_exposed_and_never_chosen():
    found = mapping.namesakes_elsewhere()
    transpose = found["torch.transpose"]
    assert transpose["api"] == "mindspore.ops.transpose" and transpose["status"] == "differs"
    assert {"kind": "extra", "mindspore": "dims"} in transpose["differences"]  # a permutation, not two dims
    assert mapping.entry("torch.transpose")["counterpart"] == "mindspore.mint.transpose"
    assert all(mapping.entry(api)["counterpart"] != candidate["api"] for api, candidate in found.items())


def test_linter_tables_are_what_the_data_gives():
    """The small file the rules load (mslint/knowledge/mapping/linter_tables.json)
    is regenerated with the data: it equals what the data's functions compute."""
    assert mapping.linter_tables() == generate.linter_tables()
