from typing import List


def label(n: int) -> str: return "item %s" % n


def names(items: List[str]) -> List[str]:
    return [label(len(i)) for i in items]
