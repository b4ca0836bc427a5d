"""A throwaway PostgreSQL server for the tests, started from the binaries that the
``pgserver`` package (dev extra) ships, or else Debian's ``postgresql``.

PostgreSQL refuses to run as root, and CI runs as root: then the server runs as the
unprivileged ``nobody``, in a data folder of its own under a fresh temporary folder.
Durability is switched off (``fsync``, full page writes): a test server loses
nothing it needs on a crash. Listens on a Unix socket in the data folder only.
"""

from __future__ import annotations

import importlib.util
import itertools
import os
import pwd
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import psycopg

from bot.store import LATEST_VERSION

UNPRIVILEGED = "nobody"
SETTINGS = (
    "-c listen_addresses='' -c fsync=off -c full_page_writes=off "
    "-c synchronous_commit=off -c max_connections=300"
)


class ServerError(RuntimeError):
    """The test server could not be set up; the message says why and how to fix it."""


def binaries() -> Path:
    """The folder with ``initdb``, ``pg_ctl`` and ``postgres``."""
    spec = importlib.util.find_spec("pgserver")  # found, not imported (its import has effects)
    if spec is not None and spec.origin is not None:
        found = Path(spec.origin).parent / "pginstall" / "bin"
        if (found / "pg_ctl").exists():
            return found
    for folder in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (folder / "pg_ctl").exists():
            return folder
    raise ServerError(
        "no PostgreSQL binaries: install the dev extra "
        "(.venv/bin/pip install -e '.[dev]', which brings pgserver)"
    )


def _open_to_others(folder: Path) -> bool:
    """Whether another user may reach ``folder`` (every folder on the way searchable)."""
    return all(p.stat().st_mode & stat.S_IXOTH for p in (folder, *folder.parents))


def _copied(bin_dir: Path, target: Path) -> Path:
    """The PostgreSQL installation around ``bin_dir`` copied under ``target`` (for a
    checkout under a private folder such as /root, which ``nobody`` cannot enter),
    with the libraries its run path names (``$ORIGIN/../../../pgserver.libs``)."""
    install = bin_dir.parent
    home = target / install.parent.name / install.name
    for part in ("bin", "lib", "share"):
        if (install / part).is_dir():
            shutil.copytree(install / part, home / part, symlinks=True)
    libs = install.parent.parent / f"{install.parent.name}.libs"
    if libs.is_dir():
        shutil.copytree(libs, target / libs.name, symlinks=True)
    return home / "bin"


class PostgresServer:
    """``with PostgresServer.running() as server: server.new_database()``."""

    def __init__(self, root: Path, bin_dir: Path) -> None:
        self.root = root
        self.data = root / "data"
        self.bin = bin_dir
        self._names = itertools.count(1)
        self._shared = False
        self._user = pwd.getpwnam(UNPRIVILEGED) if os.geteuid() == 0 else None

    @classmethod
    @contextmanager
    def running(cls) -> Iterator[PostgresServer]:
        root = Path(tempfile.mkdtemp(prefix="qwixx-pg-"))
        server = cls(root, binaries())
        try:
            server.start()
            yield server
        finally:
            server.stop()
            shutil.rmtree(root, ignore_errors=True)

    def _run(self, *args: str) -> None:
        """Run a PostgreSQL program (as the unprivileged user when we are root)."""
        extra: dict[str, Any] = {}
        if self._user is not None:
            extra = {"user": self._user.pw_uid, "group": self._user.pw_gid, "extra_groups": []}
        try:
            done = subprocess.run(
                [str(self.bin / args[0]), *args[1:]],
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
                **extra,
            )
        except (OSError, subprocess.SubprocessError) as error:
            raise ServerError(
                f"PostgreSQL for the tests could not start: {args[0]}: {error}"
            ) from error
        if done.returncode != 0:
            log = self.root / "server.log"
            tail = log.read_text()[-2000:] if log.exists() else ""
            raise ServerError(
                f"PostgreSQL for the tests could not start: {args[0]} failed "
                f"({done.returncode}): {done.stderr.strip()}\n{tail}"
            )

    def start(self) -> None:
        self.data.mkdir(mode=0o700)
        if self._user is not None:
            os.chmod(self.root, 0o755)
            for path in (self.root, self.data):
                os.chown(path, self._user.pw_uid, self._user.pw_gid)
            if not _open_to_others(self.bin):
                self.bin = _copied(self.bin, self.root / "pginstall")
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "--encoding=UTF8",
            "--no-locale",
            "--no-sync",
        )
        self.resume()

    def halt(self, mode: str = "fast") -> None:
        """Stop the server, keeping its data: ``fast`` ends every session and shuts
        down cleanly (a restart), ``immediate`` kills it (a crash: what was committed
        and written to the log survives; with ``synchronous_commit`` off, the latest
        commits may not)."""
        self._run("pg_ctl", "stop", "-w", "-t", "60", "-m", mode, "-D", str(self.data))

    def resume(self) -> None:
        """Start the server again on the same data folder (after :meth:`halt`); returns
        once it accepts connections."""
        self._run(
            "pg_ctl",
            "start",
            "-w",
            "-t",
            "60",
            "-D",
            str(self.data),
            "-l",
            str(self.root / "server.log"),
            "-o",
            f"{SETTINGS} -k {self.data}",
        )

    def terminate_sessions(self, database: str) -> int:
        """End every session on ``database`` from a connection of its own
        (``pg_terminate_backend``, what an administrator or a failover does); how many."""
        with psycopg.connect(self.url(), autocommit=True) as admin:
            rows = admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()",
                (database,),
            ).fetchall()
        return sum(1 for (ended,) in rows if ended)

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            with suppress(ServerError, subprocess.TimeoutExpired):
                self._run("pg_ctl", "stop", "-m", "immediate", "-D", str(self.data))

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.data}"

    def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        name = f"qwixx_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def clean_database(self) -> str:
        """The URL of the shared test database, emptied (rows deleted, ids from 1 again).

        Quicker than a new database per test; one whose schema a test changed (not at
        :data:`LATEST_VERSION`) is dropped whole, and the store migrates it again.
        """
        if not self._shared:
            with psycopg.connect(self.url(), autocommit=True) as admin:
                admin.execute("CREATE DATABASE qwixx")
            self._shared = True
        url = self.url("qwixx")
        with psycopg.connect(url, autocommit=True) as conn:
            tables = {
                row[0]
                for row in conn.execute(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                )
            }
            version = (
                conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
                if "schema_version" in tables
                else None
            )
            if version is None or version[0] != LATEST_VERSION:
                conn.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
                return url
            with conn.transaction():  # games last: a tournament's table points at its game
                for table in sorted(tables - {"schema_version"}, key=lambda t: t == "games"):
                    conn.execute(f'DELETE FROM "{table}"')
                conn.execute("ALTER TABLE games ALTER COLUMN id RESTART")
        return url
