"""schemathesis against ``/api/openapi.json``: generated requests to every documented operation
(a bounded number each); no answer may be a 5xx, and every answer must match the document."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.helpers import DEMO_HAND, PIN, make_app, make_service, play
from tocktable.steps import Confirm
from web.names import PlayerNameError, check_name
from web.openapi import document


def _is_name(text: str) -> bool:
    try:
        return check_name(text) == text and "," not in text and ";" not in text
    except PlayerNameError:
        return False


# The document's name formats (web.names): generated names follow the rule, so a refused one is a bug.
NAME_TEXT = st.text(st.characters(categories=("L", "N", "P", "S", "Zs")), min_size=1, max_size=24).filter(_is_name)
schemathesis.openapi.format("player-name", NAME_TEXT)
schemathesis.openapi.format("player-names", st.lists(NAME_TEXT, min_size=1, max_size=12).map(", ".join))


STREAMS = ("/api/events", "/admin/events")
"""Endless streams, left out of the generated requests (tested in test_events.py)."""


@pytest.fixture(scope="module")
def web_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One app for the whole module, mid-session: a hand played and the next one dealt."""
    data_dir: Path = tmp_path_factory.mktemp("openapi")
    service = make_service(data_dir)
    play(service, [*DEMO_HAND, Confirm()])
    yield make_app(service, data_dir)
    service.stop()
    service.store.close()


@pytest.fixture(scope="module")
def web_schema(web_app: Any) -> Any:
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", web_app)
    return schema.exclude(path=list(STREAMS))  # endless streams: tested in test_events.py


LABELS = [
    op.ok().label for op in schemathesis.openapi.from_dict(document()).exclude(path=list(STREAMS)).get_all_operations()
]


@pytest.mark.parametrize("label", LABELS)
def test_every_operation_answers_as_documented(web_schema: Any, label: str) -> None:
    operation = web_schema.find_operation_by_label(label)

    @given(case=operation.as_strategy())
    @settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def check(case: Any) -> None:
        if case.headers is not None and "X-Admin-Pin" in case.headers:
            case.headers["X-Admin-Pin"] = PIN  # exercise the commands themselves, not only the PIN check
        case.call_and_validate()

    check()


def test_the_document_is_valid_openapi(web_app: Any) -> None:
    document = web_app.test_client().get("/api/openapi.json").get_json()
    loaded = schemathesis.openapi.from_dict(document)
    operations = [op.ok().label for op in loaded.get_all_operations()]
    assert "GET /api/state" in operations and "POST /admin/command" in operations
