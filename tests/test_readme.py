"""The README as a host follows it: its two set-up commands, ``.ci/run`` running exactly
the test command, and every link between the README and the docs."""

from __future__ import annotations

import os
import re
import subprocess
import tomllib
from pathlib import Path

from bot.config import load_settings

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
RUN = (
    "python3 -m venv .venv && .venv/bin/pip install -e . && "
    "DISCORD_TOKEN=your-token .venv/bin/qwixx-bot"
)
TEST = "python3 -m venv .venv && .venv/bin/pip install -e '.[dev]' && .venv/bin/python -m pytest"
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.DOTALL)
LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)\)")


def shell_lines(markdown: str) -> list[str]:
    """The lines of the ``sh`` blocks of ``markdown``."""
    blocks = re.findall(r"```sh\n(.*?)```", markdown, re.DOTALL)
    return [line.strip() for block in blocks for line in block.splitlines()]


def test_the_readme_gives_the_two_set_up_commands() -> None:
    lines = shell_lines(README.read_text(encoding="utf-8"))
    assert RUN in lines and TEST in lines


def test_the_run_command_needs_nothing_but_the_token(tmp_path: Path) -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert scripts["project"]["scripts"]["qwixx-bot"] == "bot.__main__:main"
    settings = load_settings({"DISCORD_TOKEN": "your-token"}, dotenv=tmp_path / ".env")
    assert settings.token == "your-token" and settings.database == Path("qwixx.db")


# -- .ci/run -----------------------------------------------------------------------------

STUB_PYTHON3 = """#!/bin/sh
# python3 -m venv .venv: a virtual environment whose pip and python only say they ran.
echo "python3 $*" >> "$CALLS"
mkdir -p .venv/bin
printf '#!/bin/sh\\necho "pip $*" >> "$CALLS"\\n' > .venv/bin/pip
printf '#!/bin/sh\\necho "python $* DISCORD_OPENAPI=$DISCORD_OPENAPI" >> "$CALLS"\\nexit %s\\n' \
    "$PYTEST_STATUS" > .venv/bin/python
chmod +x .venv/bin/pip .venv/bin/python
"""


def run_ci(
    tmp_path: Path, pytest_status: int = 0, **env: str
) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """``.ci/run`` in a copy of the checkout's layout, with a ``python3`` on the PATH that
    makes a stand-in virtual environment; its exit status and the commands it ran."""
    checkout = tmp_path / "qwixx-bot"
    (checkout / ".ci").mkdir(parents=True)
    script = checkout / ".ci" / "run"
    script.write_text((ROOT / ".ci" / "run").read_text(encoding="utf-8"), encoding="utf-8")
    script.chmod(0o755)
    stubs = tmp_path / "bin"
    stubs.mkdir()
    (stubs / "python3").write_text(STUB_PYTHON3, encoding="utf-8")
    (stubs / "python3").chmod(0o755)
    calls = tmp_path / "calls"
    environment = {k: v for k, v in os.environ.items() if k != "DISCORD_OPENAPI"}
    environment.update(
        PATH=f"{stubs}{os.pathsep}{os.environ['PATH']}",
        CALLS=str(calls),
        PYTEST_STATUS=str(pytest_status),
        **env,
    )
    done = subprocess.run(
        ["bash", str(script)],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    ran = calls.read_text(encoding="utf-8").splitlines() if calls.exists() else []
    return done, ran


def test_ci_runs_exactly_the_readme_test_command() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert [
        line
        for line in script
        if "pytest" in line and not line.startswith("#") and "echo" not in line
    ] == [TEST]


def test_ci_checks_against_the_description_beside_the_checkout(tmp_path: Path) -> None:
    beside = tmp_path / "shared" / "discord-api-spec" / "openapi.json"
    beside.parent.mkdir(parents=True)
    beside.write_text("{}", encoding="utf-8")

    done, ran = run_ci(tmp_path)

    assert done.returncode == 0, done.stderr
    assert ran == [
        "python3 -m venv .venv",
        "pip install -e .[dev]",
        f"python -m pytest DISCORD_OPENAPI={beside}",
    ]
    assert f"request bodies are checked against {beside}" in done.stdout


def test_ci_fails_without_the_description(tmp_path: Path) -> None:
    done, ran = run_ci(tmp_path)

    assert done.returncode == 1 and ran == []
    assert done.stderr.startswith(
        ".ci/run: Discord's OpenAPI description is not at "
        f"{tmp_path}/shared/discord-api-spec/openapi.json"
    )
    assert "github.com/discord/discord-api-spec" in done.stderr
    assert done.stderr.count("\n") == 1


def test_ci_takes_the_description_from_its_variable(tmp_path: Path) -> None:
    elsewhere = tmp_path / "openapi.json"
    elsewhere.write_text("{}", encoding="utf-8")

    done, ran = run_ci(tmp_path, DISCORD_OPENAPI=str(elsewhere))

    assert done.returncode == 0, done.stderr
    assert ran[-1] == f"python -m pytest DISCORD_OPENAPI={elsewhere}"


def test_ci_passes_on_pytests_status_except_no_tests(tmp_path: Path) -> None:
    beside = tmp_path / "shared" / "discord-api-spec" / "openapi.json"
    beside.parent.mkdir(parents=True)
    beside.write_text("{}", encoding="utf-8")
    statuses = {}
    for status in (1, 5):
        folder = tmp_path / str(status)
        folder.mkdir()
        (folder / "shared").symlink_to(tmp_path / "shared")
        done, _ = run_ci(folder, pytest_status=status)
        statuses[status] = (done.returncode, done.stderr.strip())

    assert statuses == {1: (1, ""), 5: (1, ".ci/run: pytest collected no tests")}


# -- links -------------------------------------------------------------------------------


def documents() -> list[Path]:
    return [README, *sorted((ROOT / "docs").glob("*.md"))]


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(document: Path) -> set[str]:
    text = CODE.sub("", document.read_text(encoding="utf-8"))
    return {slug(h) for h in re.findall(r"^#+ (.+)$", text, re.MULTILINE)}


def links(document: Path) -> list[str]:
    """The targets of ``document``'s links and images outside code."""
    return LINK.findall(CODE.sub("", document.read_text(encoding="utf-8")))


def test_every_link_between_the_readme_and_the_docs_resolves() -> None:
    broken = []
    for document in documents():
        for target in links(document):
            if re.match(r"[a-z]+:", target):  # https:, mailto:
                continue
            path, _, anchor = target.partition("#")
            linked = (document.parent / path).resolve() if path else document
            if not linked.exists():
                broken.append(f"{document.name}: {target} (no such file)")
            elif anchor and anchor not in anchors(linked):
                broken.append(f"{document.name}: {target} (no such heading)")
    assert broken == []


def test_every_doc_is_linked_from_the_readme() -> None:
    linked = {(ROOT / target.partition("#")[0]).resolve() for target in links(README)}
    assert [d.name for d in documents()[1:] if d.resolve() not in linked] == []


def test_the_link_check_finds_what_is_broken() -> None:
    text = "[a](#gone) `[not](a-link.md)` [b](docs/x.md#y) ![c](docs/sheet.png)\n## A Heading, too"
    assert LINK.findall(CODE.sub("", text)) == ["#gone", "docs/x.md#y", "docs/sheet.png"]
    assert slug("A Heading, too") == "a-heading-too"
    assert slug("Running it for good") == "running-it-for-good"


def test_the_development_guide_quotes_no_figure_that_goes_stale() -> None:
    """How many tests there are and how long they take change with every change: pytest's
    closing line says both, so the guide says neither."""
    text = " ".join((ROOT / "docs" / "development.md").read_text(encoding="utf-8").split())
    counts = re.findall(r"\b\d[\d,.]*\s*(?:tests|minutes|s\b|seconds)", text)
    assert counts == []
    assert "pytest's closing line says how many tests ran and how long they took" in text
