import assert from "node:assert/strict";
import { blackExcluded, pythonRegex } from "../../../lib/config/native/black.ts";

Deno.test("pythonRegex() reads black's Python patterns: verbose with a newline, inline flags, named groups", () => {
  const verbose = pythonRegex(
    "\n(\n  /(migrations|vendor)/   # generated\n  | /setup\\ py$  # an escaped space stays\n)\n",
  );
  assert.equal(verbose.test("/app/migrations/"), true);
  assert.equal(verbose.test("/setup py"), true);
  assert.equal(verbose.test("/app/models.py"), false);
  assert.equal(pythonRegex("(?x) /a [ ]b/").test("/a b/"), true, "a space in a class is kept");
  assert.equal(pythonRegex("(?i)/BUILD/").test("/build/"), true);
  assert.equal(pythonRegex("(?P<d>docs)/(?P=d)").test("docs/docs"), true);
});

Deno.test("blackExcluded() leaves out what black's walk would: its folders, extend-exclude, force-exclude, include", () => {
  const black = (options: Record<string, unknown>) => ({
    files: [{ path: "/r/pyproject.toml", hash: "0" }],
    options,
    root: "/r",
  });
  assert.match(blackExcluded(black({}), "/r/build/lib/x.py") ?? "", /"\/build\/" matches black's default exclude/);
  assert.match(blackExcluded(black({}), "/r/.venv/x.py") ?? "", /default exclude/);
  assert.equal(blackExcluded(black({}), "/r/src/builder.py"), undefined);
  // `exclude` replaces black's list.
  assert.equal(blackExcluded(black({ exclude: "/nothing/" }), "/r/build/x.py"), undefined);
  assert.match(
    blackExcluded(black({ extend_exclude: "/migrations/" }), "/r/app/migrations/0001.py") ?? "",
    /"\/app\/migrations\/" matches extend-exclude of "..\/..\/pyproject.toml"/,
  );
  assert.match(blackExcluded(black({ force_exclude: "_pb2\\.py$" }), "/r/api_pb2.py") ?? "", /force-exclude/);
  assert.match(blackExcluded(black({}), "/r/bin/tool") ?? "", /not matched by include/);
  assert.equal(blackExcluded(black({}), "/r/stubs/a.pyi"), undefined);
});
