"""The tocktable application: configuration, CLI, service loop, store and demo."""

from table.errors import TocktableError

__all__ = ["TocktableError", "__version__"]
__version__ = "0.1.0"
