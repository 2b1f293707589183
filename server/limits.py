"""Rate limits: a token bucket on trio's clock, for messages, chat and wrong private codes."""

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
