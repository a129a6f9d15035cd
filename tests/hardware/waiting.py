"""Clocks for tests of frame sources: polling a background thread, and a virtual clock."""

import time


def wait_until(predicate, timeout=5.0):
    """Poll ``predicate`` until it is true (True) or ``timeout`` seconds pass (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return False


class FakeTime:
    """A clock that moves only when the source waits between frames or the test moves it: a
    source's pacing, tested without a thread or the wall clock. Stands in for both the ``time``
    module (``monotonic``) and the source's stop event (``wait``, ``is_set``)."""

    def __init__(self, start: float = 50.0) -> None:
        self.now = start

    def monotonic(self) -> float:
        return self.now

    def wait(self, seconds: float) -> bool:
        self.now += seconds
        return False

    def is_set(self) -> bool:
        return False
