"""``python -m api.cli``: the ``sprawlscan`` command line."""

import sys

from api.cli.dispatch import main

sys.exit(main())
