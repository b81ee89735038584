import assert from "node:assert/strict";
import { join } from "node:path";
import { flake8Excluded, Flake8Reader, fnmatchRegex } from "../../../lib/config/native/flake8.ts";
import { NativeFiles } from "../../../lib/config/native/_files.ts";
import type { NativeEngineConfig } from "../../../lib/config/native/types.ts";
import { tempDir } from "../../_helpers/temp.ts";

Deno.test("fnmatchRegex() is Python's fnmatch: `*` crosses `/`, sets, `[!...]`, an unclosed `[`, case kept", () => {
  assert.equal(fnmatchRegex("*.py").test("./a/b.py"), true);
  assert.equal(fnmatchRegex("/r/**/__init__.py").test("/r/a/b/__init__.py"), true);
  assert.equal(fnmatchRegex("test_?.py").test("test_1.py"), true);
  assert.equal(fnmatchRegex("[!._]*").test("_x"), false);
  assert.equal(fnmatchRegex("[]x]").test("]"), true);
  assert.equal(fnmatchRegex("a[").test("a["), true);
  assert.equal(fnmatchRegex("Build").test("build"), false);
  assert.equal(fnmatchRegex("a.b").test("axb"), false);
});

function flake8(section: Record<string, string>): NativeEngineConfig {
  return { files: [{ path: "/r/setup.cfg", hash: "0" }], options: { section, table: "[flake8]" }, root: "/r" };
}

Deno.test("flake8Excluded() leaves out what `flake8` run in the configuration's folder would", () => {
  assert.match(flake8Excluded(flake8({}), "/r/.tox/py3/x.py") ?? "", /"\.tox" matches flake8's default exclude/);
  assert.match(flake8Excluded(flake8({}), "/r/dist/pkg.egg/x.py") ?? "", /"\*\.egg" matches flake8's default exclude/);
  assert.equal(flake8Excluded(flake8({}), "/r/build/x.py"), undefined);
  // `exclude` replaces flake8's list; `extend-exclude` adds to it; by name, or by path when the pattern holds a `/`.
  assert.equal(flake8Excluded(flake8({ exclude: "build" }), "/r/.tox/x.py"), undefined);
  assert.match(
    flake8Excluded(flake8({ exclude: "build,\ndocs/conf.py" }), "/r/docs/conf.py") ?? "",
    /"docs\/conf.py" matches exclude of "..\/setup.cfg"/,
  );
  assert.equal(flake8Excluded(flake8({ exclude: "docs/conf.py" }), "/r/other/docs/conf.py"), undefined);
  assert.match(flake8Excluded(flake8({ "extend-exclude": "*_pb2.py" }), "/r/api/x_pb2.py") ?? "", /extend-exclude/);
  assert.match(
    flake8Excluded(flake8({ "extend-exclude": "*/migrations/*" }), "/r/app/migrations/1.py") ?? "",
    /extend/,
  );
  // `filename`: matched against the path as the walk gives it (`./a/b.py`).
  assert.match(flake8Excluded(flake8({}), "/r/bin/tool") ?? "", /not matched by filename of "..\/setup.cfg"/);
  assert.equal(flake8Excluded(flake8({ filename: "*.py,*.pyx" }), "/r/a/b.pyx"), undefined);
  assert.match(flake8Excluded(flake8({ filename: "./src/*.py" }), "/r/src/a.py") ?? "", /filename/);
  assert.equal(flake8Excluded(flake8({}), "/elsewhere/a.py"), undefined);
});

Deno.test("Flake8Reader finds flake8's file as flake8 does: setup.cfg, tox.ini, .flake8; [tool.flake8] first", async () => {
  const root = await tempDir({ prefix: "poly-flake8-" });
  const write = async (path: string, text: string) => {
    await Deno.mkdir(join(root, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  };
  // The root's setup.cfg has no [flake8] section: its tox.ini governs. An unreadable setup.cfg is passed over.
  await write("setup.cfg", "[metadata]\nname = x\n");
  await write("tox.ini", "[flake8]\nmax-line-length = 90\n");
  await write(".flake8", "[flake8]\nmax-line-length = 70\n");
  await write("a/setup.cfg", "not ini at all\n");
  await write("a/.flake8", "[flake8]\nselect = E\n");
  await write(
    "b/pyproject.toml",
    '[tool.flake8]\nextend-ignore = ["E203", "W503"]\ncount = true\nmax-line-length = 88\n',
  );
  await write("b/setup.cfg", "[flake8]\nmax-line-length = 60\n");
  await write("c/tox.ini", "[flake8:local-plugins]\nextension =\n  X = plugin:X\n");
  await write("d/tox.ini", "[flake8]\na = 1\na = 2\n");
  const reader = new Flake8Reader(new NativeFiles(), (p) => p.slice(root.length + 1));
  const at = (dir: string) => reader.forDir(join(root, dir), root);
  const section = async (dir: string) => ((await at(dir))?.options as { section: Record<string, string> }).section;
  assert.deepEqual(await section("."), { "max-line-length": "90" });
  assert.equal((await at("."))?.files[0].path, join(root, "tox.ini"));
  assert.deepEqual(await section("a"), { select: "E" });
  assert.deepEqual(await section("b"), { "extend-ignore": "E203\nW503", count: "True", "max-line-length": "88" });
  await assert.rejects(at("c"), /c\/tox.ini: \[flake8:local-plugins\] runs the repository's own code/);
  await assert.rejects(at("d"), /d\/tox.ini:3: flake8 cannot read this file: key "a" appears twice/);
  await Deno.mkdir(join(root, "e/f"), { recursive: true });
  assert.equal((await at("e/f"))?.root, root, "the nearest folder above with one");
});
