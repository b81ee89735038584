import os
from typing import List, Optional, Union

X = """keep   
  this  """
y = 1


class A:
    pass


class B(
    object  # why
):
    pass


def f(a: list[int], b: int | None, c: int | str) -> None:
    for i in range(10):
        print(i)
    if a == 1:
        pass
    try:
        pass
    except OSError:
        pass


def g(d: Union[  # note
    int, str]) -> None:
    x = 1
    if x:
        pass
        "doc"
    return


def h() -> None:
    return None  # keep


def k(o: object) -> None:
    """Doc."""
    print(o.name)
    o.name = 1
    print(getattr(o,  # the attribute
                  "name"))
    print(getattr(o, "ﬁle"))
