"""The learning lens in each phone's language, worked out once per published lens and language."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict

from web.protocols import Published
from web.words import SOURCE_LANGUAGE, Words, words_for
from web.words.lens import lens_words

__all__ = ["LensTexts"]


class LensTexts:
    """The published lens documents in words, one JSON text per document and language, shared by
    every phone (keyed by identity, like the presenter's: the cache holds the document, so its id
    cannot be reused while cached). One per app (``WebContext.lens_texts``)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._said: OrderedDict[tuple[int, str], tuple[Published, str]] = OrderedDict()

    def text(self, published: Published, spoken: Words | None = None) -> str:
        """``published`` in the language of ``spoken`` (English by default), as JSON text."""
        spoken = spoken or words_for(SOURCE_LANGUAGE)
        key = (id(published), spoken.language)
        with self._lock:
            cached = self._said.get(key)
            if cached is not None and cached[0] is published:
                return cached[1]
            text = json.dumps(lens_words(spoken, json.loads(published.json)), separators=(",", ":"))
            self._said[key] = (published, text)
            while len(self._said) > 16:
                self._said.popitem(last=False)
            return text
