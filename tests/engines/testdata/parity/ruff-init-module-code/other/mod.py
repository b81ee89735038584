"""Package docstring."""

from __future__ import annotations

import os  # noqa: RUF067
import typing
from typing import TYPE_CHECKING
from typing import TYPE_CHECKING as TC

if TYPE_CHECKING:
    import sys

if TC:
    import json

if (typing.TYPE_CHECKING):
    pass
elif os:
    pass
else:
    pass

if not TYPE_CHECKING:
    pass

__all__ = ["x"]
__all__ += ["y"]
__version__: str = "1"
__path__ = __import__("pkgutil").extend_path(__path__, __name__)
__a__ = __b__ = 1
__c__ = other = 2
VALUE = 1
"""Attribute docstring."""
"""Not a docstring."""
x: int
"""After an annotation: an attribute docstring."""
x += 1
"""After an augmented assignment: not one."""
b"bytes"
f"an f-string {x}"
("parenthesized" "concatenated")


def __getattr__(name):
    return name


@staticmethod
@property(
    1,
)
def __dir__():
    return []


async def __getattr__(name):
    return name


class Klass:
    pass


def helper():  # noqa: RUF067
    pass


y = 1; z = 2
if True: a = 1; b = 2
q = \
    1  # noqa: RUF067
w = (lambda a=1: a)
__l__ = lambda a=1: a
"""multi
line"""  # noqa: RUF067
for i in []:
    pass
try:
    pass
except Exception:
    pass
finally:
    pass
(__p__) = 1
[__q__] = [1]
__r__[0] = 1
type T = int
match x:
    case 1:
        pass
__s__ = 1; "doc after a semicolon"
