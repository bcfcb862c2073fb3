"""Runs the rules-engine command line: ``python -m games.rules``."""

import sys

from games.rules.cli import main

sys.exit(main())
