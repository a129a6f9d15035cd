"""Hypothesis settings that do not depend on what else is collected.

A ``settings(...)`` object inherits every setting it does not name from the profile loaded when
its module is imported, so a profile loaded by another test module (or a plugin) could change
what a property test generates. These name every setting that shapes the run: derandomized (the
same examples on every machine and in every collection order), no example database, the explicit
``@example`` phase always first.
"""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, Verbosity, settings


def fixed_settings(max_examples: int) -> settings:
    """Settings for a property test of the engine: ``max_examples`` derandomized examples."""
    return settings(
        parent=settings.get_profile("default"),
        max_examples=max_examples,
        deadline=None,
        derandomize=True,
        database=None,
        phases=(Phase.explicit, Phase.generate, Phase.shrink),
        stateful_step_count=50,
        report_multiple_bugs=False,
        verbosity=Verbosity.normal,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
