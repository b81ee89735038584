import pkg.selfish
from pkg import (
    other,
    selfish as me,
)
from . import selfish as s2  # noqa: PLW0406


def f():
    raise ValueError from None
