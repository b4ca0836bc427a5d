"""The package as a wheel: every asset and language inside, the demo playing from it.

The wheel is built from a copy of the checkout (offline: the dev extra brings
setuptools) and installed into a fresh virtual environment that borrows the dev
environment's installed dependencies through a ``.pth`` file, so nothing is
downloaded. The demo then runs from a folder outside the checkout, so nothing of
the checkout can be picked up by accident.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import site
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from setuptools import find_namespace_packages

from bot.sandbox.validation import description_path, unavailable

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROBE = """
import json, sys
from pathlib import Path
import bot
from bot.i18n import LOCALES, catalogue
from bot.players.qwixx_model import load_tables
from bot.rules.boards import board_names, load_board
from bot.render import theme
from bot.render.fonts import CJK_FONT, EMOJI_FONT

print(json.dumps({
    "bot": bot.__file__,
    "assets": str(bot.ASSETS),
    "files": sorted(str(p.relative_to(bot.ASSETS)) for p in bot.ASSETS.rglob("*") if p.is_file()),
    "boards": [load_board(name).name for name in board_names()],
    "tables": sorted(load_tables("classic")),
    "fonts": [Path(p).is_file() for p in (theme.FONT_REGULAR, CJK_FONT, EMOJI_FONT)],
    "translated": {locale: len(catalogue(locale)) for locale in LOCALES},
}))
"""


def run(
    *argv: str | Path, cwd: Path, env: dict[str, str] | None = None, timeout: float = 300
) -> str:
    done = subprocess.run(
        [str(a) for a in argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, f"{argv} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def checkout_files(folder: str) -> list[str]:
    """Every file under ``folder`` of the checkout, relative to it."""
    base = ROOT / folder
    return sorted(
        str(p.relative_to(base))
        for p in base.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    )


def test_every_package_under_bot_is_listed_in_pyproject() -> None:
    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    found = {
        p
        for p in find_namespace_packages(str(ROOT), include=["bot", "bot.*"])
        if (ROOT / p.replace(".", "/") / "__init__.py").is_file()
    }
    assert found - listed == set(), "add these packages to pyproject.toml"
    assert listed - found == {"bot.assets"}
    assert PYPROJECT["tool"]["setuptools"]["package-dir"] == {"bot.assets": "assets"}
    assert PYPROJECT["tool"]["setuptools"]["package-data"]["bot.assets"] == ["**/*"]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel installed; its folder."""
    tmp = tmp_path_factory.mktemp("package")
    source = tmp / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for folder in ("bot", "assets"):
        shutil.copytree(ROOT / folder, source / folder, ignore=ignore)
    offline = {**os.environ, "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    offline.pop("PYTHONPATH", None)
    run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "--no-build-isolation",
        "-w",
        tmp / "dist",
        source,
        cwd=tmp,
        env=offline,
    )
    [wheel] = (tmp / "dist").glob("qwixx_bot-*.whl")
    venv = tmp / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp)
    python = venv / "bin" / "python"
    run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        python,
        "install",
        "--no-deps",
        wheel,
        cwd=tmp,
        env=offline,
    )
    # The dependencies come from the dev environment, after the venv's own packages.
    [own] = [
        Path(p)
        for p in run(python, "-c", "import site; print(site.getsitepackages()[0])", cwd=tmp).split()
    ]
    (own / "dev-dependencies.pth").write_text(
        "\n".join(site.getsitepackages()) + "\n", encoding="utf-8"
    )
    return venv


def installed_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    if unavailable() is None:  # validate the demo's requests as well
        env["DISCORD_OPENAPI"] = str(description_path())
    return env


def test_the_wheel_holds_every_asset_and_language(installed: Path, tmp_path: Path) -> None:
    found = json.loads(
        run(installed / "bin" / "python", "-c", PROBE, cwd=tmp_path, env=installed_env())
    )
    assert Path(found["bot"]).is_relative_to(installed)
    assert Path(found["assets"]).is_relative_to(installed)
    assert found["files"] == checkout_files("assets")  # whatever files assets/ holds
    assert found["boards"] == ["A", "B"] and found["tables"]
    assert found["fonts"] == [True, True, True]
    assert all(count > 100 for locale, count in found["translated"].items() if locale != "en-US"), (
        found["translated"]
    )


def test_the_demo_plays_from_the_wheel(installed: Path, tmp_path: Path) -> None:
    text = run(
        installed / "bin" / "qwixx-bot",
        "demo",
        "--variant",
        "classic",
        "--players",
        "1",
        "--computers",
        "2",
        "--level",
        "hard",
        "--out",
        "images",
        cwd=tmp_path,
        env=installed_env(),
    )
    assert "Ana presses Add computer player" in text
    assert "The channel after the game" in text
    assert "final scores" in text and "🤖 Computer 2" in text
    assert "problems" not in text
    assert ("not checked against Discord's API description" in text) == (unavailable() is not None)
    folder = sorted((tmp_path / "images").iterdir())
    images = [p for p in folder if re.fullmatch(r"\d{3}-[\w-]+\.png", p.name)]
    assert len(images) > 3 and images[-1].name.endswith("scoreboard.png")
    assert (tmp_path / "images" / "transcript.html").is_file()  # the page beside them
    assert f"{len(images)} images written to images/" in text
