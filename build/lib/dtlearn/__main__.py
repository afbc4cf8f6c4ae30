"""`python -m dtlearn ...`: the command line (see `dtlearn.cli`)."""

import sys

from .cli import main

sys.exit(main())
