"""Which receivers' addresses a webhook may reach: public ones, unless an administrator allowed more.

A URL to a private, loopback, link-local, reserved or multicast address (by its literal address,
or by any address its host name resolves to) would let a director make the server call inside
its own network. It is refused, unless an administrator allowed that webhook
(``Webhook.allow_private``), or, for the loopback alone, the setting ``WEBHOOK_ALLOW_LOOPBACK``
(the tests' receivers on 127.0.0.1). It is checked when the URL is registered and again before
each delivery (a name may resolve elsewhere later).
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from django.conf import settings


class AddressRefused(ValueError):
    """The URL's host is not a public address (or cannot be resolved)."""


def _addresses(host: str, port: int) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    try:
        return [ipaddress.ip_address(host.strip("[]"))]
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        raise AddressRefused(f"The host {host} cannot be resolved.") from error
    return [ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos]


def url_check(url: str, *, allow_private: bool = False) -> None:
    """Refuses (``AddressRefused``) a URL that is not http(s) or whose host is not a public address."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise AddressRefused("The URL must be http:// or https:// with a host.")
    if parts.username or parts.password:
        raise AddressRefused("The URL must not carry a user name or password.")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as error:
        raise AddressRefused("The URL's port is not a number from 1 to 65535.") from error
    if allow_private:
        return
    for address in _addresses(parts.hostname, port):
        if getattr(address, "ipv4_mapped", None):
            address = address.ipv4_mapped
        if address.is_loopback and settings.WEBHOOK_ALLOW_LOOPBACK:
            continue
        if (address.is_private or address.is_loopback or address.is_link_local or address.is_reserved
                or address.is_multicast or address.is_unspecified or not address.is_global):
            raise AddressRefused(f"The URL's host is a private or local address ({address}); "
                                 "only an administrator may allow it.")
