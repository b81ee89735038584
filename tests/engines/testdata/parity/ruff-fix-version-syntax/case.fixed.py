import sys
from typing import TypeVarTuple

Ts = TypeVarTuple("Ts")


def first(*args: *Ts) -> tuple[*Ts]:
    return args


x: dict[str, *Ts] = {}
print(sys.argv)
