"""Where the problem of a finding reported at a call into another module of the
project really is: the note its message ends with (written by
mslint.checkers.follow) and how to read it back (mslint.report.findings: SARIF's
relatedLocations, JSON's "related")."""

from __future__ import annotations

import re


# A finding reported at a call into another module ends with where the problem
# is there; mslint.report.findings.related_place reads it back (SARIF's
# relatedLocations, JSON's "related").
PLACE_NOTE = re.compile(
    r" \(in (?P<function>[^()\s]+)\(\) at (?P<path>.+):(?P<line>\d+)"
    r"(?:, reached through (?P<through>[^()\s]+)\(\))?, called from (?P<kind>\w+) code here\)$"
)


def place_note(function: str, shown_path: str, line: int, kind: str, through: str | None = None) -> str:
    """What a message reported at a call appends: where in the callee's module
    the problem is (``shown_path`` relative to the calling file's folder), and
    the function the call runs when the problem is further down."""
    reached = f", reached through {through}()" if through and through != function else ""
    return f" (in {function}() at {shown_path}:{line}{reached}, called from {kind} code here)"
