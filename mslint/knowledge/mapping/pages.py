"""Readers for MindSpore's PyTorch-to-MindSpore mapping pages (mindspore-ai/docs).

Two kinds of page, both Markdown:

* the mapping table (``note/api_mapping/pytorch_api_mapping.md``): one section per
  PyTorch package (``## torch.nn``), each a table of rows
  ``| [torch API](url) | [MindSpore API](url) | description |``, where the
  description is "Consistent", a sentence ("... parameter names are
  inconsistent"), or a link to a difference page (``pytorch_diff/<page>.html``);
* a difference page (``note/api_mapping/pytorch_diff/<page>.md``): the two
  signatures in code blocks, prose, and a table of parameters
  ``| Categories | Subcategories | PyTorch | MindSpore | Differences |`` whose rows
  pair a PyTorch parameter with a MindSpore one (``-`` when a side has none).

The English and the Chinese (zh_cn) pages have the same layout; the readers know
both languages' words. Nothing here imports mslint, a framework or the network:
the functions take page text and return plain data (``generate.py`` feeds them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_LINK = re.compile(r"\[([^\]]*)\]\(([^)\s]*)\)")
_DIFF_LINK = re.compile(r"pytorch_diff/([\w.\-]+?)\.html")
_API_NAME = re.compile(r"^(?:class\s+)?((?:torch|torchvision|torchaudio|torchtext|mindspore)(?:\.\w+)+)")
_CONSISTENT_WORDS = ("consistent", "一致")
_NOT_CONSISTENT_WORDS = ("inconsistent", "different", "not ", "no ", "不一致", "不同", "差异", "没有", "不")
# Words of a difference table's header and categories, English and Chinese.
_PARAMETER_CATEGORY = ("parameter", "参数")
_INPUT_CATEGORY = ("input", "输入")
_OUTPUT_CATEGORY = ("output", "输出", "return", "返回")


@dataclass
class MappingRow:
    """One row of the mapping table."""

    torch: str  # the PyTorch API, e.g. "torch.nn.Conv2d"
    mindspore: list[str]  # the MindSpore APIs named ([] when none)
    description: str  # the row's text, links removed
    consistent: bool  # the row says "Consistent" and nothing else
    diff_page: str | None  # the difference page's name, e.g. "Conv2d"
    section: str  # the heading above the table, e.g. "torch.nn"


@dataclass
class ParameterRow:
    """One row of a difference page's table."""

    category: str  # "parameter", "input" or "output"
    torch: str | None  # the PyTorch name, None for "-"
    mindspore: str | None  # the MindSpore name, None for "-"
    note: str  # the row's "Differences" text


@dataclass
class Signature:
    """A signature as a page writes it: parameters as (name, default text or None)."""

    api: str
    parameters: list[tuple[str, str | None]] = field(default_factory=list)
    inputs: list[str] = field(default_factory=list)  # ``Class(...)(inputs)``: the forward call's


@dataclass
class DiffPage:
    """What a difference page says."""

    name: str
    title_api: str | None  # "Differences with torch.nn.Linear" -> "torch.nn.Linear"
    pairs: list[tuple[str, str]]  # its "PyTorch APIs | MindSpore APIs" table, when it has one
    signatures: list[Signature]
    rows: list[ParameterRow]
    summary: list[str]  # the "PyTorch:" / "MindSpore:" sentences of its Differences section
    not_consistent: bool = False  # "API function of MindSpore is not consistent with that of PyTorch."


def _cells(line: str) -> list[str] | None:
    line = line.strip()
    if not (line.startswith("|") and line.endswith("|")):
        return None
    return [cell.strip() for cell in line[1:-1].split("|")]


def _is_rule(cells: list[str]) -> bool:
    return all(re.fullmatch(r":?-{2,}:?", cell.replace(" ", "")) or not cell for cell in cells)


def _plain(text: str) -> str:
    """Cell text with links replaced by their text, markup and spaces squeezed."""
    text = _LINK.sub(lambda m: m.group(1), text)
    text = re.sub(r"<br\s*/?>", " ", text)
    text = text.replace("`", "").replace("**", "")
    return re.sub(r"\s+", " ", text).strip()


def _api_name(text: str, url: str = "") -> str | None:
    """The API a link names: its text, unless the URL spells the same name with
    another case (``torch.nn.CeLU`` linked to ``torch.nn.CELU.html``)."""
    text = text.strip().strip("`").strip()
    text = re.sub(r"\(\)$|\.html$", "", text)
    match = _API_NAME.match(text)
    if match is None:
        return None
    name = match.group(1)
    url_name = re.search(r"/((?:torch|torchvision|torchaudio|torchtext|mindspore)[\w.]*?)\.html", url)
    if url_name and url_name.group(1).lower() == name.lower() and url_name.group(1) != name:
        return url_name.group(1)
    return name


def _names(cell: str) -> list[str]:
    found = []
    links = _LINK.findall(cell)
    for text, url in links:
        name = _api_name(text, url)
        if name and name not in found:
            found.append(name)
    if not links:
        for part in re.split(r"[,/、;]|\s+or\s+|<br\s*/?>", cell):
            name = _api_name(_plain(part))
            if name and name not in found:
                found.append(name)
    return found


def read_mapping_page(text: str) -> list[MappingRow]:
    """The rows of ``pytorch_api_mapping.md``, in page order."""
    rows: list[MappingRow] = []
    section = ""
    for line in text.splitlines():
        heading = re.match(r"^#{2,3}\s+(.*)$", line)
        if heading:
            section = _plain(heading.group(1))
            continue
        cells = _cells(line)
        if cells is None or len(cells) < 3 or _is_rule(cells):
            continue
        torch_names = [name for name in _names(cells[0]) if not name.startswith("mindspore")]
        if not torch_names:
            continue  # a header row, or the general-difference table
        description_cell = cells[2]
        diff = _DIFF_LINK.search(description_cell)
        description = _plain(description_cell)
        lowered = description.lower()
        consistent = (
            diff is None
            and any(word in lowered for word in _CONSISTENT_WORDS)
            and not any(word in lowered for word in _NOT_CONSISTENT_WORDS)
        )
        mindspore = [name for name in _names(cells[1]) if name.startswith("mindspore")]
        for torch in torch_names:
            rows.append(MappingRow(torch, mindspore, description, consistent, diff.group(1) if diff else None, section))
    return rows


def general_parameters(text: str) -> list[str]:
    """The "general difference parameters" the mapping page lists: PyTorch
    parameters MindSpore never has (``out``, ``device``, ...)."""
    names = []
    in_table = False
    for line in text.splitlines():
        if re.match(r"^#{2,3}\s", line):
            in_table = bool(re.search(r"General Difference Parameter|通用差异参数", line))
            continue
        cells = _cells(line) if in_table else None
        if not cells or _is_rule(cells):
            continue
        name = _plain(cells[0])
        if re.fullmatch(r"[a-z_]+", name):
            names.append(name)
    return names


def _split_top_level(text: str) -> list[str]:
    """``a, b=(1, 2), c`` -> ["a", "b=(1, 2)", "c"]."""
    parts, depth, current = [], 0, []
    quote = None
    for char in text:
        if quote:
            current.append(char)
            if char == quote:
                quote = None
            continue
        if char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        if char == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(char)
    if "".join(current).strip():
        parts.append("".join(current).strip())
    return parts


def _balanced(text: str, start: int) -> int | None:
    """The index of the parenthesis closing the one at ``start``."""
    depth = 0
    for index in range(start, len(text)):
        if text[index] == "(":
            depth += 1
        elif text[index] == ")":
            depth -= 1
            if depth == 0:
                return index
    return None


def read_signatures(code: str) -> list[Signature]:
    """The signatures written in a page's code block (one or several)."""
    found: list[Signature] = []
    text = re.sub(r"#[^\n]*", "", code)
    for match in re.finditer(r"(?m)^\s*(?:class\s+)?((?:torch|torchvision|torchaudio|torchtext|mindspore)[\w.]*)\s*\(", text):
        opening = match.end() - 1
        closing = _balanced(text, opening)
        if closing is None:
            continue
        signature = Signature(match.group(1))
        for part in _split_top_level(text[opening + 1:closing]):
            part = re.sub(r":\s*[^=]+(?==)|:\s*[^=]+$", "", part).strip()  # annotations
            if not part or part == "/":
                continue
            name, _, default = part.partition("=")
            name = name.strip()
            if re.fullmatch(r"\*{0,2}\w+|\*", name):
                signature.parameters.append((name, default.strip() if default else None))
        rest = text[closing + 1:].lstrip()
        if rest.startswith("("):
            end = _balanced(rest, 0)
            if end is not None:
                signature.inputs = [part.split("=")[0].strip() for part in _split_top_level(rest[1:end]) if part.strip()]
        found.append(signature)
    return found


def _side(cell: str) -> str | None:
    name = _plain(cell).strip()
    if not name or set(name) <= set("-—/ "):
        return None
    name = re.split(r"[\s(（,，]", name)[0]
    return name if re.fullmatch(r"\*{0,2}[A-Za-z_]\w*", name) else None


def read_diff_page(name: str, text: str) -> DiffPage:
    """What one difference page says."""
    title = re.search(r"^#\s+(.*)$", text, re.M)
    title_api = None
    if title:
        names = [n for n in (_api_name(word) for word in re.split(r"[\s与的]+", _plain(title.group(1)))) if n]
        title_api = names[0] if names else None
    pairs: list[tuple[str, str]] = []
    rows: list[ParameterRow] = []
    columns: tuple[int, int, int] | None = None
    category = "parameter"
    for line in text.splitlines():
        cells = _cells(line)
        if cells is None:
            columns = None if line.strip() else columns
            continue
        if _is_rule(cells):
            continue
        lowered = [_plain(cell).lower() for cell in cells]
        if "pytorch" in lowered and "mindspore" in lowered:
            torch_at, ms_at = lowered.index("pytorch"), lowered.index("mindspore")
            columns = (torch_at, ms_at, ms_at + 1)
            continue
        if any(cell.startswith("pytorch api") for cell in lowered) and len(cells) == 2:
            columns = (0, 1, -1)  # the page's "PyTorch APIs | MindSpore APIs" table
            continue
        if columns is None:
            continue
        torch_at, ms_at, note_at = columns
        if note_at == -1:
            torch_names, ms_names = _names(cells[0]), _names(cells[1])
            if torch_names and ms_names:
                pairs.append((torch_names[0], ms_names[0]))
            continue
        if len(cells) <= ms_at:
            continue
        head = _plain(cells[0]).lower()
        if head:
            if head.startswith(_PARAMETER_CATEGORY):
                category = "parameter"
            elif head.startswith(_INPUT_CATEGORY):
                category = "input"
            elif head.startswith(_OUTPUT_CATEGORY):
                category = "output"
            else:
                category = "other"
        note = _plain(cells[note_at]) if note_at < len(cells) else ""
        rows.append(ParameterRow(category, _side(cells[torch_at]), _side(cells[ms_at]), note))
    signatures = []
    for block in re.findall(r"```(?:text|python)?\n(.*?)```", text, re.S):
        if re.search(r"^\s*(?:import|from)\s", block, re.M):
            continue  # a code example
        signatures += read_signatures(block)
    differences = _section(text, ("Differences", "差异对比"))
    summary = [
        _plain(line) for line in differences.splitlines()
        if re.match(r"^\s*(PyTorch|MindSpore)\s*[:：]", line)
    ]
    not_consistent = bool(re.search(r"is not consistent with (that of )?PyTorch|功能与PyTorch不一致", differences))
    return DiffPage(name, title_api, pairs, signatures, rows, summary, not_consistent)


def _section(text: str, titles: tuple[str, ...]) -> str:
    match = re.search(r"^##\s+(?:%s)\s*$(.*?)(?=^##\s|\Z)" % "|".join(map(re.escape, titles)), text, re.M | re.S)
    return match.group(1) if match else ""
