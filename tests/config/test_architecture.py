"""The layers of docs/architecture.md are a checked contract: import-linter keeps them, and fails on a breach."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ["config", "integrations", "notifications", "leagues", "events", "tournaments", "arbitration", "games", "clubs",
            "players", "accounts", "core"]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=tree, env=env, capture_output=True, text=True,
                          timeout=120)


@pytest.fixture
def copy_of_the_project(tmp_path: Path) -> Path:
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__", "migrations"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_the_project_keeps_its_contracts():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_a_lower_app_importing_a_higher_one_inside_a_function_breaks_the_layers(copy_of_the_project: Path):
    selectors = copy_of_the_project / "games" / "selectors.py"
    selectors.write_text(selectors.read_text() + "\n\ndef sneaky():\n    from arbitration.services import game_create\n"
                         "    return game_create\n")
    result = lint_imports(copy_of_the_project)
    assert result.returncode != 0
    assert "Apps in layers" in result.stdout and "BROKEN" in result.stdout
    assert "games.selectors -> arbitration.services" in result.stdout


def test_django_in_the_rules_engine_breaks_the_pure_cores(copy_of_the_project: Path):
    board = copy_of_the_project / "games" / "rules" / "board.py"
    board.write_text("from django.conf import settings  # noqa\n" + board.read_text())
    result = lint_imports(copy_of_the_project)
    assert result.returncode != 0
    assert "Pure cores" in result.stdout and "games.rules.board -> django" in result.stdout
