/**
 * Worker entry (lib/engines/warm.ts): ruff's WebAssembly made ready on a thread of its own while the main thread
 * brings a kept run up to date. V8 compiles a WebAssembly function on its first call and keeps the code with the
 * module, which every thread of the process that compiles the same bytes shares while one of them holds it: a check
 * (the worker's name `lint`) or a format (`fmt`) of a sample here, under ruff's default settings, compiles most of
 * what the run's own check of its changed files would otherwise compile on the main thread as it goes. Nothing here
 * reaches a result: the worker posts `"warm"` and waits to be stopped.
 *
 * @module
 */
/// <reference lib="deno.worker" />

/** A module that touches much of Python's grammar (written for this purpose; it lints with findings on purpose). */
const SAMPLE = `"""A module of many shapes."""

from __future__ import annotations

import os
import sys
from collections import defaultdict
from typing import Any, Optional

__all__ = ["Thing", "helper"]

LIMIT: int = 3


def helper(a, b=None, *args, c: int = 1, **kwargs) -> Optional[str]:
    """Return something."""
    if a == None or b is not None:
        return None
    elif a in (1, 2, 3) and not b:
        pass
    else:
        a += 1
    for i, x in enumerate(args):
        while x > 0:
            x -= 1
            if x % 2:
                continue
            break
    try:
        value = {k: v for k, v in kwargs.items() if v}
        items = [i * 2 for i in range(10)]
        unique = {i for i in items}
        gen = (i for i in items)
    except (ValueError, KeyError) as e:
        raise RuntimeError("bad %s" % e) from e
    except Exception:
        raise
    finally:
        del a
    with open(os.path.join("a", "b")) as fh, open("c") as other:
        text = fh.read() + other.read()
    lam = lambda y: y + 1
    assert isinstance(text, str), f"{text!r:>10} and {c}"
    global LIMIT
    result = "x".format(1) if c else "{}".format(2)
    return result + str(lam(1)) + str(value) + str(unique) + str(list(gen)) + sys.platform


class Thing(object):
    """A class."""

    attr: dict[str, Any] = defaultdict(list)

    def __init__(self, name):
        super(Thing, self).__init__()
        self.name = name
        self._cache = []

    @property
    def upper(self):
        return self.name.upper()

    @staticmethod
    def make(*parts):
        return Thing("".join(parts))

    async def fetch(self, url: str) -> bytes:
        async with self.session(url) as response:
            async for chunk in response:
                yield chunk
        await self.close()

    def __eq__(self, other):
        return type(self) == type(other) and self.name == other.name


match sys.argv:
    case [_, "run", *rest]:
        print(rest)
    case _:
        pass

if __name__ == "__main__":
    x = Thing.make("a", "b")
    print(x.upper, helper(1), file=sys.stderr)
`;

// Nothing ruff prints is poly's output.
console.error = console.warn = console.log = () => {};
const ruff = await import("@astral-sh/ruff-wasm-nodejs");
const workspace = new ruff.Workspace({}, ruff.PositionEncoding.Utf16);
if (self.name === "fmt") workspace.format(SAMPLE);
else workspace.check(SAMPLE);
self.postMessage("warm");
