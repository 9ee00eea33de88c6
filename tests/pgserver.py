"""A throwaway PostgreSQL server for the tests: Debian's ``postgresql`` binaries, a cluster made with
``initdb`` in a temporary folder, listening on a free loopback port, stopped and deleted afterwards.

``initdb`` refuses to run as root, so as root the cluster belongs to the ``postgres`` user (made by the
Debian package) and both programs run as that user.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

USER = "sprawlscan"


def _bindir() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb is None:
        raise RuntimeError("PostgreSQL is not installed: apt-get install -y postgresql (.ci/run does)")
    return Path(initdb).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """Start with :meth:`start`, make databases with :meth:`new_database`, end with :meth:`stop`."""

    def __init__(self) -> None:
        self.bindir = _bindir()
        self.root = Path(tempfile.mkdtemp(prefix="sprawlscan-pg-"))
        self.port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self._count = 0
        self._as: dict[str, object] = {"cwd": self.root}
        if os.geteuid() == 0:
            account = pwd.getpwnam("postgres")
            os.chown(self.root, account.pw_uid, account.pw_gid)
            self._as.update(user=account.pw_uid, group=account.pw_gid, extra_groups=[])

    def start(self) -> PostgresServer:
        data, log = self.root / "data", self.root / "server.log"
        subprocess.run(
            [str(self.bindir / "initdb"), "-D", str(data), "-U", USER, "-A", "trust"]
            + ["-E", "UTF8", "--locale=C", "--no-sync"],
            check=True,
            capture_output=True,
            **self._as,  # type: ignore[call-overload]
        )
        options = ["-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "full_page_writes=off"]
        options += ["-p", str(self.port), "-k", str(self.root), "-c", "max_connections=100"]
        with open(log, "wb") as out:  # a file: a full pipe would block the server
            self.proc = subprocess.Popen(
                [str(self.bindir / "postgres"), "-D", str(data), *options],
                stdout=out,
                stderr=subprocess.STDOUT,
                **self._as,  # type: ignore[call-overload]
            )
        deadline = time.monotonic() + 30
        while not self._ready():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"PostgreSQL did not start:\n{log.read_text(errors='replace')}")
            time.sleep(0.2)
        return self

    def _ready(self) -> bool:
        import psycopg

        try:
            psycopg.connect(self._dsn("postgres"), connect_timeout=2).close()
        except psycopg.OperationalError:
            return False
        return True

    def _dsn(self, database: str) -> str:
        return f"host=127.0.0.1 port={self.port} user={USER} dbname={database}"

    def new_database(self) -> str:
        """An empty database of its own; returns its URL (``postgresql://…``, as a user would write it)."""
        import psycopg

        self._count += 1
        name = f"test_{self._count}"
        with psycopg.connect(self._dsn("postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # "fast" shutdown: ends the sessions, then exits
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.root, ignore_errors=True)
