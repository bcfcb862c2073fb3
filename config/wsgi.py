"""WSGI entry point: ``config.wsgi:application``, which uWSGI serves (config/uwsgi.ini).

The URLconf, and with it every view, serializer and the rules engine, is imported here rather
than by the first request, and what is then in memory is moved out of the garbage collector's
reach (``gc.freeze``): a full collection would otherwise walk the hundreds of thousands of
objects of Django and the app while a request waits, tens of milliseconds at a time.
"""

import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()
get_resolver().url_patterns  # noqa: B018  (imports the views now)
gc.collect()
gc.freeze()
