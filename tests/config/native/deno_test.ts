/**
 * `deno.json` as Deno reads it for `deno fmt` and `deno lint`: the nearest file, a workspace root's table beneath a
 * member's, Deno 1's `options`/`files` shape, paths and globs of `include`/`exclude`, and which file governs beside a
 * prettier, oxfmt or biome file.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openConfig } from "../../../lib/config/load.ts";
import { DENO_FMT, DENO_LINT, FORMAT_STYLE, nativeExcluded } from "../../../lib/config/native/mod.ts";
import { tempRepository } from "../../_helpers/temp.ts";

function tree(files: Record<string, string>): Promise<string> {
  return tempRepository(files, "poly-deno-native-");
}

Deno.test("deno.json: a workspace root's fmt and lint beneath a member's, key by key; Deno 1's options shape", async () => {
  const dir = await tree({
    "deno.json": JSON.stringify({
      workspace: ["./pkg"],
      fmt: { lineWidth: 100, singleQuote: true },
      lint: { rules: { tags: ["recommended"] } },
    }),
    "pkg/deno.jsonc":
      '// a member\n{ "fmt": { "options": { "lineWidth": 80 } }, "lint": { "rules": { "exclude": ["no-var"] } } }',
  });
  const configs = await openConfig({ cwd: dir });
  const member = await configs.forDir(join(dir, "pkg"));
  assert.deepEqual(member.native?.[DENO_FMT]?.options, { lineWidth: 80, singleQuote: true });
  assert.deepEqual(member.native?.[DENO_LINT]?.options, { rules: { exclude: ["no-var"] } });
  assert.deepEqual(member.native?.[DENO_FMT]?.files.map((f) => f.path), [
    join(dir, "deno.json"),
    join(dir, "pkg/deno.jsonc"),
  ]);
  assert.deepEqual((await configs.forDir(dir)).native?.[DENO_FMT]?.options, { lineWidth: 100, singleQuote: true });
});

Deno.test("deno.json: a workspace root's include is relative to the root, where the member has none", async () => {
  const dir = await tree({
    "deno.json": JSON.stringify({ workspace: ["./pkg"], fmt: { include: ["pkg/src/"] } }),
    "pkg/deno.json": "{}\n",
  });
  const native = (await (await openConfig({ cwd: dir })).forDir(join(dir, "pkg"))).native?.[DENO_FMT];
  assert.ok(native);
  assert.equal(nativeExcluded("dprint", "fmt", native, join(dir, "pkg/src/a.ts")), undefined);
  assert.match(nativeExcluded("dprint", "fmt", native, join(dir, "pkg/other.ts")) ?? "", /not in deno fmt's include/);
});

Deno.test("deno.json: include, exclude (paths, globs, a ! taking a path back) and the top-level exclude", async () => {
  const dir = await tree({
    "deno.json": JSON.stringify({
      exclude: ["dist/"],
      fmt: { include: ["src/", "scripts/*.ts"], exclude: ["src/gen/", "!src/gen/keep.ts", "**/*.snap.ts"] },
    }),
  });
  const native = (await (await openConfig({ cwd: dir })).forDir(dir)).native?.[DENO_FMT];
  assert.ok(native);
  const why = (path: string) => nativeExcluded("dprint", "fmt", native, join(dir, path));
  assert.equal(why("src/a.ts"), undefined);
  assert.equal(why("scripts/build.ts"), undefined);
  assert.match(why("src/gen/a.ts") ?? "", /excluded from deno fmt by "src\/gen"/);
  assert.equal(why("src/gen/keep.ts"), undefined);
  assert.match(why("src/deep/x.snap.ts") ?? "", /by "\*\*\/\*\.snap\.ts"/);
  assert.match(why("dist/out.ts") ?? "", /excluded from deno fmt by "dist"/);
  assert.match(why("other/a.ts") ?? "", /not in deno fmt's include/);
  assert.match(why("scripts/sub/b.ts") ?? "", /not in deno fmt's include/);
});

Deno.test("deno.json governs beside other formatters' files as the nearer file, or where none governs", async () => {
  const dir = await tree({
    ".prettierrc": "{}\n",
    "deno-corner/deno.json": '{ "imports": {} }\n', // no fmt: prettier's repository keeps its formatter here
    "deno-fmt/deno.json": '{ "fmt": { "lineWidth": 90 } }\n', // fmt, nearer than .prettierrc
    "biome-pkg/biome.json": "{}\n",
    "biome-pkg/deno.json": "{}\n", // biome's own file governs its linting here
  });
  const configs = await openConfig({ cwd: dir });
  const corner = await configs.forDir(join(dir, "deno-corner"));
  assert.ok(corner.native?.[FORMAT_STYLE] && !corner.native?.[DENO_FMT] && !corner.native?.[DENO_LINT]);
  const fmt = await configs.forDir(join(dir, "deno-fmt"));
  assert.ok(fmt.native?.[DENO_FMT] && !fmt.native?.[FORMAT_STYLE] && fmt.native?.[DENO_LINT]);
  const biome = await configs.forDir(join(dir, "biome-pkg"));
  assert.ok(!biome.native?.[DENO_LINT], JSON.stringify(Object.keys(biome.native ?? {})));
});

Deno.test("a deno.json poly cannot read stops no run: formatting under it is an error saying why", async () => {
  const dir = await tree({ "deno.json": '{ "fmt": { "lineWidth": 100, } ' });
  const native = (await (await openConfig({ cwd: dir })).forDir(dir)).native?.[DENO_FMT];
  assert.match(native?.unhonoured ?? "", /deno\.json:\d+:\d+: cannot parse: /);
  const bad = await tree({ "deno.json": '{ "fmt": { "exclude": "dist" } }' });
  const wrong = (await (await openConfig({ cwd: bad })).forDir(bad)).native?.[DENO_FMT];
  assert.match(wrong?.unhonoured ?? "", /"fmt\.exclude" must be a list of paths/);
});
