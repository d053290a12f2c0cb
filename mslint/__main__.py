"""``python -m mslint``: the same as the ``mslint`` command."""

import sys

from mslint.run.cli import main

if __name__ == "__main__":
    sys.exit(main())
