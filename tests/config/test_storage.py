"""The static files storage of production points the browser's ES modules at the hashed names."""

import json
import posixpath
import re
from pathlib import Path

from django.core.management import call_command
from django.test import override_settings

from config.storage import ManifestStaticFilesStorage

ROOT = Path(__file__).resolve().parents[2]
# `import { cap } from "./common.js";` and `export ... from "...";`; Django needs the semicolon.
LOADS = re.compile(r'^(?:import|export)\b[^"]*?\bfrom\s*"(\.[^"]*)"(;?)', re.M)


class UncompressedManifestStaticFilesStorage(ManifestStaticFilesStorage):
    """The production storage without its compressed copies: gzipping every static file (Django admin's and
    DRF's too) is most of collectstatic's time, and the copies are not what this test is about."""

    def compress_files(self, paths):  # noqa: ANN001, ANN201, ARG002
        return iter(())


def test_collectstatic_points_each_module_at_the_hashed_names_of_those_it_loads(tmp_path):
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": f"{__name__}.UncompressedManifestStaticFilesStorage"},
    }
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=storages):
        call_command("collectstatic", interactive=False, verbosity=0)
    paths = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    modules = [name for name in paths if name.startswith("js/") and name.endswith(".js")]
    assert {"js/common.js", "js/game.js", "js/console/main.js"} <= set(modules)
    hashed_names = set(paths.values())
    for name in modules:
        source = LOADS.findall((ROOT / "static" / name).read_text())
        assert all(semicolon for _, semicolon in source), f"{name}: a path without a semicolon is not rewritten"
        loads = [path for path, _ in LOADS.findall((tmp_path / paths[name]).read_text())]
        assert len(loads) == len(source), name
        for path in loads:
            target = posixpath.normpath(posixpath.join(posixpath.dirname(paths[name]), path))
            assert target in hashed_names, f"{paths[name]} loads {path}, not a hashed name"
