"""The files a host runs the bot with: ``compose.yaml``, ``deploy/qwixx-bot.service``,
the Dockerfile and ``.dockerignore``, and ``.env.example`` (neither Docker nor systemd
runs here: these read each file as they would)."""

from __future__ import annotations

import configparser
import re
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import STOP_WITHIN
from bot.config import database_path, load_settings, read_dotenv

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
PLAIN = re.compile(r"[^\s\[\]{}&*!|>'\"%@`#,][^#]*")
"""A plain YAML scalar that is neither a collection, an alias, a tag nor quoted."""


# -- compose.yaml ------------------------------------------------------------------------


def read_yaml(text: str) -> Any:
    """The block YAML ``compose.yaml`` is written in — mappings, lists of scalars, plain
    scalars, whole-line comments — read strictly: anything else (tabs, flow collections,
    quotes, anchors, multi-line scalars) fails, so the file stays plain for every YAML
    reader, Compose's among them."""
    assert "\t" not in text
    rows = [
        (len(line) - len(line.lstrip(" ")), line.strip())
        for line in text.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    value, end = _block(rows, 0, rows[0][0])
    assert end == len(rows), f"unexpected indentation: {rows[end][1]!r}"
    return value


def _block(rows: list[tuple[int, str]], i: int, indent: int) -> tuple[Any, int]:
    if rows[i][1].startswith("- "):
        items = []
        while i < len(rows) and rows[i][0] == indent and rows[i][1].startswith("- "):
            items.append(_scalar(rows[i][1][2:]))
            i += 1
        return items, i
    mapping: dict[str, Any] = {}
    while i < len(rows) and rows[i][0] == indent:
        key, colon, rest = rows[i][1].partition(": " if ": " in rows[i][1] else ":")
        assert colon and re.fullmatch(r"[\w.-]+", key) and key not in mapping, rows[i][1]
        i += 1
        if rest.strip():
            mapping[key] = _scalar(rest.strip())
        elif i < len(rows) and rows[i][0] > indent:
            mapping[key], i = _block(rows, i, rows[i][0])
        else:
            mapping[key] = None
    return mapping, i


def _scalar(text: str) -> str:
    assert PLAIN.fullmatch(text) and ": " not in text, f"not a plain scalar: {text!r}"
    return text


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return read_yaml((ROOT / "compose.yaml").read_text(encoding="utf-8"))


def test_the_database_has_a_volume_and_a_health_check(compose: dict[str, Any]) -> None:
    db = compose["services"]["db"]
    [volume] = db["volumes"]
    name, _, mounted = volume.partition(":")
    assert name in compose["volumes"] and mounted == "/var/lib/postgresql/data"
    assert db["image"].startswith("postgres:")
    check = db["healthcheck"]
    assert check["test"][0] == "CMD-SHELL" and check["test"][1].startswith("pg_isready ")
    assert f"-U {db['environment']['POSTGRES_USER']}" in check["test"][1]
    assert f"-d {db['environment']['POSTGRES_DB']}" in check["test"][1]
    assert {"interval", "timeout", "retries"} <= set(check)


def test_the_bot_waits_for_a_healthy_database_and_reaches_it(compose: dict[str, Any]) -> None:
    db, bot = compose["services"]["db"], compose["services"]["bot"]
    assert bot["depends_on"] == {"db": {"condition": "service_healthy"}}
    assert bot["build"] == "." and bot["env_file"] == ".env"
    url = bot["environment"]["QWIXX_DATABASE"]
    password = db["environment"]["POSTGRES_PASSWORD"]
    assert password.startswith("${POSTGRES_PASSWORD:?")
    user, name = db["environment"]["POSTGRES_USER"], db["environment"]["POSTGRES_DB"]
    assert url == f"postgresql://{user}:{password}@db:5432/{name}"
    assert (
        database_path(url.replace(password, "secret"))
        == f"postgresql://{user}:secret@db:5432/{name}"
    )  # a PostgreSQL URL to the bot
    assert {s["restart"] for s in compose["services"].values()} == {"unless-stopped"}
    assert int(bot["stop_grace_period"].removesuffix("s")) > STOP_WITHIN


def test_the_yaml_reader_refuses_what_it_does_not_know() -> None:
    assert read_yaml("a:\n  b: c\n  d:\n    - e:f\n") == {"a": {"b": "c", "d": ["e:f"]}}
    for text in (
        "a: [b, c]\n",
        "a: 'b'\n",
        "a:\n  b: c\n   d: e\n",
        "a: &x b\n",
        "a:\n\tb: c\n",
        "a: b: c\n",
    ):
        with pytest.raises(AssertionError):
            read_yaml(text)


# -- the systemd unit --------------------------------------------------------------------


@pytest.fixture(scope="module")
def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # keys keep their case
    parser.read(ROOT / "deploy" / "qwixx-bot.service", encoding="utf-8")
    return parser


def test_the_unit_runs_the_checkout_the_readme_installs(unit: configparser.ConfigParser) -> None:
    service = unit["Service"]
    user, folder = service["User"], service["WorkingDirectory"]
    assert service["ExecStart"] == f"{folder}/.venv/bin/qwixx-bot"
    assert service["ReadWritePaths"] == folder and service["Group"] == user
    assert re.search(rf"^sudo useradd --system --home-dir {folder} .* {user}$", README, re.M)
    assert f"sudo git clone REPOSITORY-URL {folder} && sudo chown -R {user}: {folder}" in README
    assert unit["Install"]["WantedBy"] == "multi-user.target"
    assert unit["Unit"]["After"] == "network-online.target"


def test_the_unit_restarts_a_crash_but_not_a_wrong_setting(
    unit: configparser.ConfigParser,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from bot.__main__ import main

    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    status = main([])
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().err
    service = unit["Service"]
    assert service["Restart"] == "on-failure"
    assert service["RestartPreventExitStatus"] == str(status) == "2"
    assert float(service["TimeoutStopSec"]) > STOP_WITHIN


# -- Docker ------------------------------------------------------------------------------


def test_the_image_keeps_its_database_on_the_volume_the_readme_mounts() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert "QWIXX_DATABASE=/data/qwixx.db" in dockerfile and 'VOLUME ["/data"]' in dockerfile
    assert (
        "docker run -d --name qwixx-bot --restart unless-stopped --env-file .env "
        "-v qwixx-data:/data qwixx-bot"
    ) in README


def test_the_build_context_holds_what_the_image_copies_and_no_secrets() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    sources = [
        part
        for line in dockerfile.splitlines()
        if line.startswith("COPY ")
        for part in line.split()[1:-1]
    ]
    ignored = {
        line.strip().rstrip("/")
        for line in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert sources and all((ROOT / s).exists() and s not in ignored for s in sources)
    assert {".env", "*.db", ".venv", ".git"} <= ignored


# -- .env.example ------------------------------------------------------------------------


def test_the_example_sets_only_the_token(tmp_path: Path) -> None:
    example = ROOT / ".env.example"
    assert read_dotenv(example) == {"DISCORD_TOKEN": ""}
    # As it stands it changes nothing: docker run --env-file .env keeps the image's
    # QWIXX_DATABASE=/data/qwixx.db.
    token = {"DISCORD_TOKEN": "your-token"}
    assert load_settings(token, dotenv=example) == load_settings(token, dotenv=tmp_path / "no")


def test_the_example_shows_each_setting_with_its_default(tmp_path: Path) -> None:
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    shown = dict(re.findall(r"^# (QWIXX_\w+)=(.*)$", text, re.MULTILINE))
    documented = set(re.findall(r"^\| `(QWIXX_\w+)` \|", README, re.MULTILINE))
    assert set(shown) == documented
    uncommented = tmp_path / ".env"
    uncommented.write_text("".join(f"{k}={v}\n" for k, v in shown.items()), encoding="utf-8")
    token = {"DISCORD_TOKEN": "your-token"}
    assert load_settings(token, dotenv=uncommented) == load_settings(token, dotenv=tmp_path / "no")


def test_the_readme_and_the_example_give_sqlite_urls_that_read_as_they_say() -> None:
    """Three slashes before a relative path, four before an absolute one."""
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    for text in (README, example):
        relative = re.findall(r"sqlite:///[\w.]+", text)
        absolute = re.findall(r"sqlite:////[\w./]+\w", text)
        assert relative and absolute
        assert all(database_path(url) == Path(url.removeprefix("sqlite:///")) for url in relative)
        assert all(database_path(url) == Path(url.removeprefix("sqlite:///")) for url in absolute)
        assert all(Path(url.removeprefix("sqlite:///")).is_absolute() for url in absolute)


SHARED_DATABASE = (
    "every process of one bot uses the same COUNT and the same database: PostgreSQL, or "
    "one SQLite file when all of them run on one machine"
)
"""What QWIXX_SHARDS asks of the database (tests/e2e/test_shards_e2e.py runs two shard
processes on each)."""


def test_the_example_and_the_scale_guide_say_the_same_of_shards_on_sqlite() -> None:
    from bot.shards import ShardPlan

    for document in (ROOT / ".env.example", ROOT / "docs" / "scale.md"):
        text = " ".join(document.read_text(encoding="utf-8").replace("# ", " ").split())
        assert SHARED_DATABASE.lower() in text.lower(), document.name
    # and the bot takes shards on SQLite as on PostgreSQL
    token = {"DISCORD_TOKEN": "your-token"}
    settings = load_settings({**token, "QWIXX_SHARDS": "0/2"}, dotenv=ROOT / "no.env")
    assert settings.shards == ShardPlan((0,), 2) and isinstance(settings.database, Path)


# -- the image's health, pins and restarts ------------------------------------------------

DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")
PINNED = r"[\w.-]+@sha256:[0-9a-f]{64}"
"""An exact version tag and the digest of the image it named (from docker-library's
repo-info records): the same base image at every build."""


def test_the_base_images_are_pinned(compose: dict[str, Any]) -> None:
    [base] = re.findall(r"^FROM (\S+)$", DOCKERFILE, re.MULTILINE)
    assert re.fullmatch(r"python:3\.11\.\d+-slim-\w+@sha256:[0-9a-f]{64}", base), base
    database = compose["services"]["db"]["image"]
    assert re.fullmatch(r"postgres:16\.\d+-\w+@sha256:[0-9a-f]{64}", database), database
    assert "PostgreSQL 16" in README  # what the README promises is what runs


def test_the_image_checks_that_the_bot_is_alive(tmp_path: Path) -> None:
    from bot.heartbeat import STALE_AFTER

    env = dict(re.findall(r"^\s*(QWIXX_\w+)=(\S+)", DOCKERFILE, re.MULTILINE))
    heartbeat = Path(env["QWIXX_HEARTBEAT"])
    assert heartbeat.parent == Path("/tmp")  # writable by the image's user
    [check] = re.findall(r"^HEALTHCHECK (.+)$", DOCKERFILE, re.MULTILINE)
    options = dict(re.findall(r"--([\w-]+)=(\w+)", check))
    assert check.endswith('CMD ["qwixx-bot", "health"]')
    seconds = {k: int(v.removesuffix("s")) for k, v in options.items() if v.endswith("s")}
    assert seconds["start-period"] >= 60  # login and the command sync first
    assert seconds["interval"] * int(options["retries"]) <= STALE_AFTER
    settings = load_settings(
        {"DISCORD_TOKEN": "t", "QWIXX_HEARTBEAT": str(tmp_path / "a")}, dotenv=tmp_path / ".env"
    )
    assert settings.heartbeat == tmp_path / "a"


def test_compose_restarts_the_bot_and_the_readme_says_what_docker_cannot(
    compose: dict[str, Any],
) -> None:
    """Docker's policies cannot leave out one exit status (systemd's
    RestartPreventExitStatus=2); on-failure would not bring the bot back after a reboot
    (Docker restarts those containers only when they fail), so the bot keeps
    unless-stopped, and the README says what a wrong setting then does."""
    assert compose["services"]["bot"]["restart"] == "unless-stopped"
    text = " ".join(README.split())
    assert (
        "Docker cannot leave out one exit status: with `--restart unless-stopped` (and in "
        "`compose.yaml`) a wrong setting or a refused token (exit status 2) is retried"
    ) in text
