"""What one client of the browser app may use: connections, new games, and how long unused
tables and games are kept."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from .guard import is_loopback
from .protocol import RateLimiter

__all__ = ["ClientQuotas", "Quotas"]


@dataclass(frozen=True)
class Quotas:
    """What one client may use, and how long unused things are kept.

    A *client* is a network address (behind a reverse proxy: the address the proxy forwards).
    Clients on this computer are not limited unless ``limit_loopback`` is set (tests do)."""

    connections_per_client: int = 16  # open WebSockets at once
    games_per_client: int = 10  # games a client may start in a burst...
    game_refill_seconds: float = 60.0  # ...and one more each this many seconds
    max_tables: int = 2000  # tables held in memory; the idle ones go first beyond this
    idle_seconds: float = 600.0  # a table nobody is connected to leaves memory after this (it stays saved)
    unplayed_expiry: float = 24 * 3600.0  # a browser game never dealt is deleted after this
    sweep_seconds: float = 60.0  # how often the above are looked at
    limit_loopback: bool = False


class ClientQuotas:
    """Per client address: open connections, and a bucket of games to start."""

    MAX_CLIENTS = 10_000  # addresses remembered (the least recently seen are forgotten)

    def __init__(self, quotas: Quotas) -> None:
        self.quotas = quotas
        self.connections: dict[str, int] = {}
        self.games: OrderedDict[str, RateLimiter] = OrderedDict()

    def exempt(self, client: str, behind_proxy: bool) -> bool:
        return not self.quotas.limit_loopback and not behind_proxy and is_loopback(client)

    def open(self, client: str) -> bool:
        n = self.connections.get(client, 0)
        if n >= self.quotas.connections_per_client:
            return False
        self.connections[client] = n + 1
        return True

    def close(self, client: str) -> None:
        n = self.connections.get(client, 0) - 1
        if n <= 0:
            self.connections.pop(client, None)
        else:
            self.connections[client] = n

    def start_game(self, client: str) -> bool:
        bucket = self.games.pop(client, None)
        if bucket is None:
            q = self.quotas
            bucket = RateLimiter(1.0 / max(q.game_refill_seconds, 1e-9), float(q.games_per_client))
        self.games[client] = bucket
        while len(self.games) > self.MAX_CLIENTS:
            self.games.popitem(last=False)
        return bucket.allow()
