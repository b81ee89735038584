/**
 * lib/paths/_posix.ts gives what Deno's `node:path.posix` and `node:url` give,
 * on every path made of a set of awkward names (empty, `.`, `..`, repeated and
 * trailing separators, a backslash, spaces, `%`, `?`, `#`, control characters,
 * non-ASCII) up to four deep, absolute and relative: it stands in for them on
 * Linux and macOS (lib/paths/path.ts), so it must not differ anywhere.
 */
import { deepEqual, equal, throws } from "node:assert/strict";
import { posix } from "node:path";
import { fileURLToPath as nodeFileURLToPath, pathToFileURL as nodePathToFileURL } from "node:url";
import * as own from "../../lib/paths/_posix.ts";
import * as chosen from "../../lib/paths/path.ts";

const NAMES = ["", ".", "..", "a", "b.c", "a\\b", " x", "%41", "q?", "h#", "tab\t", "é", "..."];

/** Every path of up to `depth` names from {@link NAMES}, relative and absolute, with and without a trailing slash. */
function paths(depth: number): string[] {
  let level = [""];
  const out = new Set<string>(["", "/", "//", "./", "../"]);
  for (let d = 0; d < depth; d++) {
    level = level.flatMap((p) => NAMES.map((n) => (p === "" && d === 0 ? n : `${p}/${n}`)));
    for (const p of level) for (const q of [p, `/${p}`, `${p}/`, `//${p}`]) out.add(q);
  }
  return [...out];
}

const PATHS = paths(3);

Deno.test("_posix.ts normalize, join, resolve, dirname, basename and isAbsolute give what node:path.posix gives", () => {
  for (const p of PATHS) {
    equal(own.normalize(p), posix.normalize(p), `normalize(${JSON.stringify(p)})`);
    equal(own.resolve(p), posix.resolve(p), `resolve(${JSON.stringify(p)})`);
    equal(own.dirname(p), posix.dirname(p), `dirname(${JSON.stringify(p)})`);
    equal(own.basename(p), posix.basename(p), `basename(${JSON.stringify(p)})`);
    equal(own.isAbsolute(p), posix.isAbsolute(p), `isAbsolute(${JSON.stringify(p)})`);
    for (const q of ["", "x", "..", "/y/./z/", "a\\b/.."]) {
      equal(own.join(p, q), posix.join(p, q), `join(${JSON.stringify(p)}, ${JSON.stringify(q)})`);
      equal(own.join(q, p), posix.join(q, p), `join(${JSON.stringify(q)}, ${JSON.stringify(p)})`);
      equal(own.resolve(p, q), posix.resolve(p, q), `resolve(${JSON.stringify(p)}, ${JSON.stringify(q)})`);
    }
  }
  equal(own.join(), posix.join());
  equal(own.resolve(), posix.resolve());
  equal(own.sep, posix.sep);
});

Deno.test("_posix.ts relative gives what node:path.posix gives", () => {
  const some = paths(2);
  for (const a of some) {
    for (const b of some) {
      equal(own.relative(a, b), posix.relative(a, b), `relative(${JSON.stringify(a)}, ${JSON.stringify(b)})`);
    }
  }
});

Deno.test("_posix.ts pathToFileURL and fileURLToPath give what node:url gives, and refuse what it refuses", () => {
  for (const p of PATHS) {
    const url = own.pathToFileURL(p);
    equal(url.href, nodePathToFileURL(p).href, `pathToFileURL(${JSON.stringify(p)})`);
    equal(own.fileURLToPath(url), nodeFileURLToPath(url), `fileURLToPath(${url.href})`);
    equal(own.fileURLToPath(url.href), nodeFileURLToPath(url.href));
  }
  for (const bad of ["https://example.com/a", "file://host/a", "file:///a%2fb", "file:///a%2Fb"]) {
    throws(() => nodeFileURLToPath(bad), bad);
    throws(() => own.fileURLToPath(bad), bad);
  }
});

Deno.test("lib/paths/path.ts is _posix.ts here (Node's own functions on Windows)", () => {
  const names = [
    "basename",
    "dirname",
    "fileURLToPath",
    "isAbsolute",
    "join",
    "normalize",
    "pathToFileURL",
    "relative",
    "resolve",
  ];
  if (Deno.build.os === "windows") deepEqual(chosen.sep, "\\");
  else for (const name of names) equal(chosen[name as keyof typeof chosen], own[name as keyof typeof own], name);
});
