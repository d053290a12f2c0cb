"""The port rules where the code shows it is a port (mslint.analysis.port).

The ``mslint`` command runs the port rules (manifest.PORT_RULES) beside the
others unless the user chose them (``--select``, ``enable``, ``ignore``); their
findings are shown only in code that reads as a port: a top-level class or
function (or a module, at module level) with a finding of an evidence rule
(manifest.PORT_EVIDENCE: PyTorch keywords, ``forward``, torch idioms, PyTorch's
padding, drop rate or momentum), modules whose PyTorch original
the project keeps beside them, or every module with ``--port`` /
``[tool.mslint] port-from = "pytorch"``. The others are counted, and the summary
says how many the port rules would add.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from mslint.analysis.port import pytorch_originals
from mslint.knowledge.manifest import PORT_EVIDENCE, PORT_RULES
from mslint.report.findings import Finding


@dataclass
class PortView:
    """Which port-rule findings a run shows, and why."""

    conditional: frozenset[str]  # the port rules the run turned on by itself
    forced: str = ""  # "--port" or '[tool.mslint] port-from = "pytorch"' when the user said so
    forced_shown: int = 0  # port-rule findings shown because the user said so
    originals: dict[str, str] = field(default_factory=dict)  # path -> why it reads as a port
    reasons: dict[str, str] = field(default_factory=dict)  # path -> why its port findings are shown
    held: dict[str, int] = field(default_factory=dict)  # path -> port-rule findings not shown

    @property
    def withheld(self) -> int:
        """Port-rule findings not shown (no sign of a port)."""
        return sum(self.held.values())

    def filter(self, found: list[Finding], paths: list[str] | None = None) -> list[Finding]:
        """``found`` without the port-rule findings of modules that show no sign of
        a port (counted in :attr:`withheld`); sets :attr:`reasons`. ``paths``: the
        files ``found`` is for, when only some were checked again (``--fix``)."""
        if paths is not None:
            for path in paths:
                self.held.pop(os.path.abspath(path), None)
        else:
            self.held.clear()
        if not self.conditional:
            if self.forced:
                self.forced_shown = sum(1 for item in found if item.symbol in PORT_RULES)
            return found
        # evidence per file and top-level class or function (a module may hold native
        # MindSpore code beside a ported class: the evidence in one class says
        # nothing of another); evidence outside any class speaks for the module
        evidence: dict[tuple[str, str], set[str]] = {}
        for item in found:
            if item.symbol in PORT_EVIDENCE and not _misspelled_construct(item):
                evidence.setdefault((os.path.abspath(item.path), _owner(item)), set()).add(item.symbol)
        shown = []
        for item in found:
            if item.symbol not in self.conditional:
                shown.append(item)
                continue
            path = os.path.abspath(item.path)
            symbols = evidence.get((path, _owner(item)), set()) | evidence.get((path, ""), set())
            reason = self._reason(path, symbols)
            if reason:
                self.reasons[path] = reason
                shown.append(item)
            else:
                self.held[path] = self.held.get(path, 0) + 1
        return shown

    def _reason(self, path: str, symbols: set[str]) -> str:
        if symbols:
            return f"it carries PyTorch idioms mslint flags ({', '.join(sorted(symbols))})"
        return self.originals.get(path, "")

    def summary(self, shown_path) -> str:  # noqa: ANN001 - display_path(str) -> str
        """What the summary says about the port rules, or ""."""
        parts = []
        if self.forced and self.forced_shown:
            parts.append(f"Port rules on everywhere ({self.forced}).")
        elif self.reasons:
            if len(self.reasons) == 1:
                path, reason = next(iter(self.reasons.items()))
                parts.append(f"Port rules on in {shown_path(path)}: {reason}.")
            else:
                parts.append(
                    f"Port rules on in {len(self.reasons)} files that show they are ports from PyTorch "
                    "(PyTorch idioms mslint flags, or their PyTorch originals beside them)."
                )
        if self.withheld:
            parts.append(
                f"{self.withheld} more from port rules: --port (or [tool.mslint] port-from = \"pytorch\") "
                "if this code is ported from PyTorch."
            )
        return " ".join(parts)


def _misspelled_construct(item: Finding) -> bool:
    """An ms-forward-not-construct finding on a misspelled construct (``consturct``),
    not on PyTorch's ``forward``: a typo, no sign of a port."""
    return item.symbol == "ms-forward-not-construct" and not (item.obj or "").endswith(".forward")


def _owner(item: Finding) -> str:
    """The top-level class or function a finding is in ("" at module level)."""
    return (item.obj or "").split(".", 1)[0]


def view(files: list[str], conditional: frozenset[str], forced: str, originals: dict[str, str] | None = None) -> PortView:
    """The port view of a run over ``files``: ``conditional`` the port rules the run
    turned on by itself; ``forced`` set when the user turned them on everywhere;
    ``originals``: ``pytorch_originals(files)`` when it was read already."""
    if forced or not conditional:
        return PortView(frozenset(), forced=forced)
    return PortView(conditional, originals=pytorch_originals(files) if originals is None else originals)
