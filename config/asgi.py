"""ASGI entry point: the live event streams (``/live/``, config/live.py) and, for the rest, Django.

``uvicorn config.asgi:application`` serves the pages, the API and the live streams on one port
(``make run``); in production the same application serves the live path beside uWSGI
(docs/deployment.md).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_asgi_application()

from config.live import live_app  # noqa: E402 - after Django is set up
from config.middleware import serve_in_threads  # noqa: E402

serve_in_threads()  # the request time limits (config.middleware.RequestTimeLimit)


async def application(scope, receive, send):  # noqa: ANN001, ANN201
    """Sends ``/live/`` to the event streams and everything else to Django."""
    if scope["type"] == "http" and scope["path"].startswith("/live/"):
        return await live_app(scope, receive, send)
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    return await django_application(scope, receive, send)
