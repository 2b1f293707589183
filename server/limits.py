"""Limits: a token bucket on trio's clock (messages, chat, wrong private codes), and a
budget of bytes (what the server holds for all its clients together)."""

from __future__ import annotations

import trio


class TokenBucket:
    """`rate` events per second on average, `burst` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = trio.current_time()

    def peek(self) -> float:
        """The tokens there are now, spending none."""
        now = trio.current_time()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.tokens

    def take(self) -> float:
        """Spend one token; returns what is left (negative: over the limit)."""
        self.tokens = self.peek() - 1
        return self.tokens


class ByteBudget:
    """Bytes in use out of `limit`, shared by many holders."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0

    def fits(self, size: int) -> bool:
        return self.used + size <= self.limit

    def add(self, size: int) -> None:
        self.used += size

    def remove(self, size: int) -> None:
        self.used -= size
