"""The static files storage of production (DJANGO_MANIFEST_STATIC=1).

WhiteNoise's compressed manifest storage, which also rewrites the paths between the browser's
ES modules (static/js/: `import { cap } from "./common.js";`) to their hashed names, so that a
page's module and the modules it loads are always of the same release and all of them may be
cached for good. Django rewrites a module path only in a statement ending with a semicolon.
"""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class ManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
