import os
from typing import List, Optional, Union

X = """keep   
  this  """
y = 1   


class A(object):
    pass


class B(
    object  # why
):
    pass


def f(a: List[int], b: Optional[int], c: Union[int, str]) -> None:
    for i in range(0, 10):
        print(i)
    if 1 == a:
        pass
    try:
        pass
    except (IOError, os.error):
        pass


def g(d: Union[  # note
    int, str]) -> None:
    x = 1  # noqa: E501
    if x:
        pass
        "doc"
    return None


def h() -> None:
    return None  # keep


def k(o: object) -> None:
    """Doc."""
    pass
    print(getattr(o, "name"))
    setattr(o, "name", 1)
    print(getattr(o,  # the attribute
                  "name"))
    print(getattr(o, "ﬁle"))
