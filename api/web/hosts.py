"""The ``Host`` names the service answers to, checked on every request (DNS rebinding).

A page of another site whose DNS name has been re-pointed at this server sends requests with its own name
as ``Host`` and a matching ``Origin``, so the cross-site check (:class:`api.web.guards.CrossSiteGuard`) passes
them; :class:`HostGuard` refuses them. ``docs/deployment.md`` (Security) lists the names allowed.
"""

from __future__ import annotations

import ipaddress
import logging
import socket
from dataclasses import dataclass

from starlette.types import ASGIApp, Receive, Scope, Send

from api.web.excerpts import excerpt
from api.web.guards import error_response

log = logging.getLogger("sprawlscan.api")


LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
_WILDCARDS = frozenset({"", "0.0.0.0", "::"})


@dataclass(frozen=True)
class HostPolicy:
    """The ``Host`` names the service answers to (DNS rebinding: a page of another site whose name has
    been pointed at this server sends its own name as ``Host``). Always the loopback names; an address
    literal when ``any_address`` (a server on every interface is reached by its addresses, and no other
    site's page can have an address as its name: that page would be this server's own)."""

    names: frozenset[str]
    any_address: bool = False
    anything: bool = False

    @classmethod
    def of(cls, setting: str, serve_host: str) -> HostPolicy:
        """From ``SPRAWLSCAN_ALLOWED_HOSTS`` (names separated by commas or spaces, ``*``: any) and the
        host ``sprawlscan serve`` listens on (a wildcard: any address, the machine's own name)."""
        given = {_bare(name) for name in setting.replace(",", " ").split()}
        names = set(LOOPBACK_HOSTS) | given - {"*"}
        wildcard = serve_host.strip() in _WILDCARDS
        if wildcard and serve_host:
            machine = socket.gethostname().lower()
            names |= {machine, f"{machine}.local"}
        elif serve_host:
            names.add(_bare(serve_host))
        return cls(frozenset(names), any_address=wildcard and bool(serve_host), anything="*" in given)

    def allows(self, host: str) -> bool:
        name = _bare(host)
        if self.anything or name in self.names:
            return True
        if not self.any_address:
            return False
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return False
        return True


def _bare(host: str) -> str:
    """``Host`` without its port, brackets or final dot, in lower case: ``[::1]:8000`` -> ``::1``."""
    host = host.strip().lower()
    if host.startswith("["):
        host = host[1:].partition("]")[0]
    elif host.count(":") == 1:
        host = host.partition(":")[0]
    return host.rstrip(".")


class HostGuard:
    """Refuse (400) a request whose ``Host`` the :class:`HostPolicy` does not allow, before its body is
    read: the requests a DNS-rebinding page sends carry the attacker's name (Starlette's
    TrustedHostMiddleware does the same, but answers in plain text)."""

    def __init__(self, app: ASGIApp, policy: HostPolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            raw = dict(scope["headers"]).get(b"host")
            host = "" if raw is None else raw.decode("latin-1")
            # No Host at all (HTTP/1.0, a bare ASGI call) is no browser's: a browser always sends one.
            if raw is not None and not self.policy.allows(host):
                log.info(
                    "client fault: %s 400 host_not_allowed: %r", excerpt(scope.get("path", "")), host[:100]
                )
                message = (
                    f"this server does not answer to the host {host[:100]!r}: add it to "
                    "SPRAWLSCAN_ALLOWED_HOSTS if it is this server's name"
                )
                await error_response(400, "host_not_allowed", message, {"Connection": "close"})(
                    scope, receive, send
                )
                return
        await self.app(scope, receive, send)
