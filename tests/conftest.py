"""Shared test setup: every database the tests open by default lives in a temporary folder."""

from __future__ import annotations

import os
import tempfile

# Before api.app is imported: its module-level app, and every server a test starts, would otherwise use the
# per-user database of whoever runs the tests.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="sprawlscan-tests-")
