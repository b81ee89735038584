"""Doc."""

from . import a

__all__ = ["a"]
