"""Memory settings of the process that runs the table (``demo``, ``serve``).

glibc gives threads that allocate at once arenas of their own, up to eight per core, and memory
freed in one arena is not reused by another. ``demo`` and ``serve`` run some 85 threads (the web
server's 64 workers, the camera, the card reader's helpers, the service): with two arenas shared
by all of them ``serve`` holds about 15 MB less for the same work and CPU
(``python -m bench.memory``).
"""

from __future__ import annotations

import os

MALLOC_ARENAS = 2
"""The most malloc arenas the process keeps (``MALLOC_ARENA_MAX`` in the environment wins)."""

_M_ARENA_MAX = -8
"""malloc.h's ``M_ARENA_MAX`` parameter of ``mallopt``."""


def few_malloc_arenas(count: int = MALLOC_ARENAS) -> bool:
    """Ask glibc's allocator to share ``count`` arenas among all threads; whether it took it
    (False with another C library, or when ``MALLOC_ARENA_MAX`` is set: the host's choice)."""
    if os.environ.get("MALLOC_ARENA_MAX"):
        return False
    try:
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(_M_ARENA_MAX, count))


__all__ = ["MALLOC_ARENAS", "few_malloc_arenas"]
