"""Every third-party module the system's code imports is installed by ``requirements.txt`` alone.

``make run`` installs ``requirements.txt`` only, and ``make test`` installs ``requirements-dev.txt``,
which holds it and the tools: a module the code imports that only a tool brings along (``requests``,
a dependency of schemathesis, imported by the webhooks' delivery) passes every test and breaks
``make run`` on a new machine. Read from the installed packages' metadata, no network.
"""

from __future__ import annotations

import ast
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
NOT_THE_SYSTEM = {"tests", "benchmarks", "scripts", "docs", "static", "templates", "var"}
# The module uWSGI's server gives the Python it embeds (pyuwsgi, in requirements.txt, is that server);
# config/middleware.py imports it only when it runs there.
INSIDE_THE_SERVER_ONLY = {"uwsgi"}


def runtime_distributions() -> set[str]:
    """The distributions ``requirements.txt`` installs: its lines and what they require, extras included."""
    wanted = []
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            wanted.append(Requirement(line))
    closure: set[str] = set()
    while wanted:
        requirement = wanted.pop()
        for extra in requirement.extras or {""}:
            key = (canonicalize_name(requirement.name), extra)
            if key in closure:
                continue
            closure.add(key)
            for text in metadata.distribution(requirement.name).requires or []:
                needed = Requirement(text)
                if needed.marker is None or needed.marker.evaluate({"extra": extra}):
                    wanted.append(needed)
    return {name for name, _ in closure}


def system_modules() -> list[Path]:
    """The system's own Python files: the apps, the project's package, manage.py."""
    packages = [p for p in ROOT.iterdir() if (p / "__init__.py").exists() and p.name not in NOT_THE_SYSTEM]
    return [ROOT / "manage.py", *(path for package in packages for path in package.rglob("*.py"))]


def imported_top_levels(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_every_module_the_system_imports_comes_with_requirements_txt():
    own = {p.name for p in ROOT.iterdir() if (p / "__init__.py").exists()}
    installed_by = metadata.packages_distributions()
    runtime = runtime_distributions()
    missing = {}
    for path in system_modules():
        for name in imported_top_levels(path) - own - set(sys.stdlib_module_names) - INSIDE_THE_SERVER_ONLY:
            distributions = {canonicalize_name(d) for d in installed_by.get(name, [])}
            if not distributions & runtime:
                missing.setdefault(name, []).append(str(path.relative_to(ROOT)))
    assert not missing, f"imported by the system but not installed by requirements.txt: {missing}"


def test_the_check_sees_a_module_only_a_tool_brings():
    """The check itself: schemathesis (requirements-dev.txt only) and hypothesis (a dependency of it) are not
    among the runtime distributions, while Django, celery, what it requires (billiard, kombu) and what its
    redis extra adds (redis) are."""
    runtime = runtime_distributions()
    assert not {"schemathesis", "hypothesis", "pytest"} & runtime
    assert {"django", "celery", "redis", "kombu", "billiard"} <= runtime
