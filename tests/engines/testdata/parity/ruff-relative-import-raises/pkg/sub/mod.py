from ..errors import E
from . import helpers
from .helpers import H as Renamed


def documented():
    """Raise E.

    Raises:
        E: always.
    """
    raise E


def undocumented():
    """Raise H."""
    raise helpers.H


def renamed():
    """Raise H under another name."""
    raise Renamed


def claimed():
    """Raise nothing.

    Raises:
        E: never.
    """
    return 1
