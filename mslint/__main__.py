"""``python -m mslint``: the same as the ``mslint`` command."""

import os
import sys

# ``python -m`` puts the current folder first on sys.path: a project's own logging.py
# or typing.py would shadow the standard library mslint imports (as pylint's
# modify_sys_path guards against). mslint never imports the checked code.
_cwd = os.getcwd()
sys.path[:] = [entry for entry in sys.path if entry not in ("", ".") and os.path.abspath(entry) != _cwd] or sys.path

from mslint.run.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
