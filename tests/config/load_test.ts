import { assert, assertEquals, assertMatch, assertRejects, assertStrictEquals } from "./_assert.ts";
import { join } from "node:path";
import { ConfigError } from "../../lib/errors/mod.ts";
import { openConfig } from "../../lib/config/mod.ts";
import { makeTree } from "./_tree.ts";

Deno.test("openConfig() anchors at the nearest directory holding .git", async () => {
  const root = await makeTree({ "a/b/keep": "" });
  const configs = await openConfig({ cwd: join(root, "a", "b") });
  assertEquals(configs.anchor, root);
});

Deno.test("openConfig() anchors at the top-most poly.toml when there is no .git", async () => {
  const root = await makeTree({ "poly.toml": "", "a/poly.toml": "", "a/b/keep": "" }, { git: false });
  const configs = await openConfig({ cwd: join(root, "a", "b") });
  assertEquals(configs.anchor, root);
});

Deno.test("openConfig() anchors at the start directory when there is neither .git nor poly.toml", async () => {
  const root = await makeTree({ "a/keep": "" }, { git: false });
  const configs = await openConfig({ cwd: join(root, "a") });
  assertEquals(configs.anchor, join(root, "a"));
  const config = await configs.forDir(join(root, "a"));
  assertEquals(config.sources, []);
  assertEquals(config.data.defaults.line_length, 120);
});

Deno.test("forDir() cascades nested poly.toml files, nearer overriding farther", async () => {
  const root = await makeTree({
    "poly.toml": '[defaults]\nline_length = 100\nfinal_newline = false\n[lint.python.ruff]\nselect = ["E"]\n',
    "sub/poly.toml": '[defaults]\nline_length = 80\n[lint.python.ruff]\nignore = ["E501"]\n',
    "sub/deep/keep": "",
  });
  const configs = await openConfig({ cwd: root });
  const top = await configs.forDir(root);
  const deep = await configs.forDir(join(root, "sub", "deep"));
  assertEquals(top.data.defaults.line_length, 100);
  assertEquals(deep.data.defaults.line_length, 80);
  assertEquals(deep.data.defaults.final_newline, false, "tables deep-merge: the parent's other keys survive");
  assertEquals(deep.data.lint.python.ruff, { select: ["E"], ignore: ["E501"] });
  assertEquals(deep.sources, [join(root, "poly.toml"), join(root, "sub", "poly.toml")]);
  assertEquals(deep.dir, join(root, "sub"));
  assert(top.hash !== deep.hash);
});

Deno.test("forDir() replaces arrays rather than concatenating them", async () => {
  const root = await makeTree({
    "poly.toml": '[lint.python.ruff]\nselect = ["E", "F"]\n',
    "sub/poly.toml": '[lint.python.ruff]\nselect = ["I"]\n',
  });
  const config = await (await openConfig({ cwd: root })).forDir(join(root, "sub"));
  assertEquals(config.data.lint.python.ruff.select, ["I"]);
});

Deno.test("forDir() overlays poly.local.toml over the poly.toml beside it", async () => {
  const root = await makeTree({
    "poly.toml": "[defaults]\nline_length = 100\n",
    "poly.local.toml": "[defaults]\nline_length = 90\n",
    "sub/poly.toml": "[cache]\nenabled = false\n",
  });
  const configs = await openConfig({ cwd: root });
  assertEquals((await configs.forDir(root)).data.defaults.line_length, 90);
  const sub = await configs.forDir(join(root, "sub"));
  assertEquals(sub.data.defaults.line_length, 90, "the parent's local overlay reaches nested configs");
  assertEquals(sub.sources, [join(root, "poly.toml"), join(root, "poly.local.toml"), join(root, "sub", "poly.toml")]);
});

Deno.test("forDir() applies a poly.local.toml that has no poly.toml beside it", async () => {
  const root = await makeTree({ "poly.toml": "", "sub/poly.local.toml": "[defaults]\nline_length = 70\n" });
  const config = await (await openConfig({ cwd: root })).forDir(join(root, "sub"));
  assertEquals(config.data.defaults.line_length, 70);
  assertEquals(config.dir, join(root, "sub"));
});

Deno.test("forDir() stops the cascade at a config with [workspace] root = true", async () => {
  const root = await makeTree({
    "poly.toml": "[defaults]\nline_length = 100\nfinal_newline = false\n",
    "pkg/poly.toml": "[workspace]\nroot = true\n[defaults]\nline_length = 90\n",
    "pkg/sub/poly.toml": "[cache]\nenabled = false\n",
  });
  const config = await (await openConfig({ cwd: root })).forDir(join(root, "pkg", "sub"));
  assertEquals(config.sources, [join(root, "pkg", "poly.toml"), join(root, "pkg", "sub", "poly.toml")]);
  assertEquals(config.data.defaults.final_newline, true, "nothing above the root config applies");
  assertEquals(config.data.defaults.line_length, 90);
  assertEquals(config.data.cache.enabled, false);
});

Deno.test("forDir() never reads poly.toml files above the .git anchor", async () => {
  const outer = await makeTree({ "poly.toml": "[defaults]\nline_length = 50\n" }, { git: false });
  await Deno.mkdir(join(outer, "repo", ".git"), { recursive: true });
  const config = await (await openConfig({ cwd: join(outer, "repo") })).forDir(join(outer, "repo"));
  assertEquals(config.sources, []);
  assertEquals(config.data.defaults.line_length, 120);
});

Deno.test("forDir() reports an invalid nested config by its path", async () => {
  const root = await makeTree({ "poly.toml": "", "sub/poly.toml": "[defaults]\nline_lenght = 1\n" });
  const configs = await openConfig({ cwd: root });
  await configs.forDir(root);
  const error = await assertRejects(() => configs.forDir(join(root, "sub")), ConfigError);
  assertEquals(error.detail, 'unknown key "defaults.line_lenght" (did you mean "line_length"?)');
  assertEquals(error.position, { file: join("sub", "poly.toml"), line: 2, column: 1 });
});

Deno.test("forDir() caches per directory and shares one result between directories with the same configs", async () => {
  const root = await makeTree({ "poly.toml": "", "a/keep": "", "b/keep": "" });
  const configs = await openConfig({ cwd: root });
  const a = await configs.forDir(join(root, "a"));
  assertStrictEquals(await configs.forDir(join(root, "a")), a);
  assertStrictEquals(await configs.forDir(join(root, "b")), a);
  assertStrictEquals(await configs.forDir(root), a);
});

Deno.test("forDir() resolves a relative directory against cwd", async () => {
  const root = await makeTree({ "sub/poly.toml": "[defaults]\nline_length = 77\n" });
  const config = await (await openConfig({ cwd: root })).forDir("sub");
  assertEquals(config.data.defaults.line_length, 77);
});

Deno.test("forDir() accumulates [discovery] exclude with the directory each pattern is relative to", async () => {
  const root = await makeTree({
    "poly.toml": '[discovery]\nexclude = "build/"\n',
    "sub/poly.toml": '[discovery]\nexclude = ["/gen", "*.tmp"]\n',
    "sub/poly.local.toml": '[discovery]\nexclude = ["scratch/"]\n',
  });
  const config = await (await openConfig({ cwd: root })).forDir(join(root, "sub"));
  assertEquals(config.excludes, [
    { pattern: "build/", base: root },
    { pattern: "/gen", base: join(root, "sub") },
    { pattern: "*.tmp", base: join(root, "sub") },
    { pattern: "scratch/", base: join(root, "sub") },
  ]);
  assertEquals(config.data.discovery.exclude, ["build/", "/gen", "*.tmp", "scratch/"]);
});

Deno.test('forDir() starts the exclude list over at exclude_mode = "replace"', async () => {
  const root = await makeTree({
    "poly.toml": '[discovery]\nexclude = ["build/", "dist/"]\n',
    "sub/poly.toml": '[discovery]\nexclude_mode = "replace"\nexclude = ["only/"]\n',
    "sub/deeper/poly.toml": '[discovery]\nexclude = ["more/"]\n',
  });
  const configs = await openConfig({ cwd: root });
  const deeper = await configs.forDir(join(root, "sub", "deeper"));
  assertEquals(deeper.excludes, [
    { pattern: "only/", base: join(root, "sub") },
    { pattern: "more/", base: join(root, "sub", "deeper") },
  ]);
  assertEquals((await configs.forDir(root)).excludes.length, 2, "the parent keeps its own list");
});

Deno.test("forDir() merges extends bases underneath the file, in the order listed", async () => {
  const root = await makeTree({
    "shared/base.toml": 'extends = ["core.toml"]\n[defaults]\nline_length = 100\nindent_width = 2\n',
    "shared/core.toml": '[defaults]\nline_length = 60\nfinal_newline = false\n[discovery]\nexclude = ["vendor/"]\n',
    "shared/other.toml": "[defaults]\nindent_width = 8\n",
    "app/poly.toml": 'extends = ["../shared/base.toml", "../shared/other.toml"]\n[defaults]\nline_length = 110\n',
  });
  const config = await (await openConfig({ cwd: root })).forDir(join(root, "app"));
  assertEquals(config.data.defaults.line_length, 110, "the file overrides its bases");
  assertEquals(config.data.defaults.indent_width, 8, "a later base overrides an earlier one");
  assertEquals(config.data.defaults.final_newline, false, "a base's own base applies underneath it");
  assertEquals(config.sources, [
    join(root, "shared", "core.toml"),
    join(root, "shared", "base.toml"),
    join(root, "shared", "other.toml"),
    join(root, "app", "poly.toml"),
  ]);
  assertEquals(
    config.excludes,
    [{ pattern: "vendor/", base: join(root, "app") }],
    "base excludes anchor at the extending file",
  );
  assertEquals("extends" in config.data, false, "extends is resolved away");
});

Deno.test("forDir() names the cycle when extends loops", async () => {
  const root = await makeTree({
    "poly.toml": 'extends = ["a.toml"]\n',
    "a.toml": 'extends = ["b.toml"]\n',
    "b.toml": 'extends = ["./a.toml"]\n',
  });
  const error = await assertRejects(async () => await (await openConfig({ cwd: root })).forDir(root), ConfigError);
  assertEquals(error.detail, "extends cycle: a.toml -> b.toml -> a.toml");
  assertEquals(error.position, { file: "b.toml", line: 1, column: 12 });
});

Deno.test("forDir() rejects a file that extends itself", async () => {
  const root = await makeTree({ "poly.toml": 'extends = ["poly.toml"]\n' });
  const error = await assertRejects(async () => await (await openConfig({ cwd: root })).forDir(root), ConfigError);
  assertEquals(error.detail, "extends cycle: poly.toml -> poly.toml");
});

Deno.test("forDir() reports a missing extends base at its entry", async () => {
  const root = await makeTree({ "poly.toml": 'extends = [\n  "nope.toml",\n]\n' });
  const error = await assertRejects(async () => await (await openConfig({ cwd: root })).forDir(root), ConfigError);
  assertEquals(error.detail, 'extends base "nope.toml" not found: no file at "nope.toml"');
  assertEquals(error.position, { file: "poly.toml", line: 2, column: 3 });
});

Deno.test("forDir() asks for `poly config update` when a git base is not in poly-config.lock", async () => {
  const root = await makeTree({ "poly.toml": 'extends = [{ git = "https://example.com/style.git" }]\n' });
  const error = await assertRejects(async () => await (await openConfig({ cwd: root })).forDir(root), ConfigError);
  assertEquals(
    error.detail,
    'git base "https://example.com/style.git" is not pinned in "poly-config.lock": run "poly config update"',
  );
});

Deno.test("forDir() asks for `poly config update` when a pinned git base is missing from the cache", async () => {
  const commit = "0123456789abcdef0123456789abcdef01234567";
  const root = await makeTree({
    "poly.toml": 'extends = [{ git = "https://example.com/style.git", revision = "v1" }]\n',
    "poly-config.lock":
      `version = 1\n[[base]]\ngit = "https://example.com/style.git"\nrevision = "v1"\ncommit = "${commit}"\n`,
  });
  const error = await assertRejects(async () => await (await openConfig({ cwd: root })).forDir(root), ConfigError);
  assertMatch(
    error.detail,
    /^git base "https:\/\/example.com\/style.git" at revision "v1" \(commit 0123456789ab\) is not in the cache: run "poly config update"$/,
  );
});

Deno.test("forDir() rejects a malformed poly-config.lock with its position", async () => {
  const root = await makeTree({
    "poly.toml": 'extends = [{ git = "https://example.com/style.git" }]\n',
    "poly-config.lock": 'version = 1\n[[base]]\ngit = "https://example.com/style.git"\ncommit = "abc"\n',
  });
  const error = await assertRejects(async () => await (await openConfig({ cwd: root })).forDir(root), ConfigError);
  assertEquals(error.position, { file: "poly-config.lock", line: 4, column: 1 });
  assertMatch(error.detail, /^invalid value for "base\[0\]\.commit"/);
});

Deno.test("openConfig() with an explicit file uses it (with extends and poly.local.toml) for every directory", async () => {
  const root = await makeTree({
    "poly.toml": "[defaults]\nline_length = 10\n",
    "sub/poly.toml": "[defaults]\nline_length = 20\n",
    "conf/ci.toml": 'extends = ["base.toml"]\n[defaults]\nline_length = 130\n',
    "conf/base.toml": '[defaults]\nfinal_newline = false\n[discovery]\nexclude = ["x/"]\n',
    "conf/poly.local.toml": "[cache]\nenabled = false\n",
  });
  const configs = await openConfig({ cwd: root, explicit: "conf/ci.toml" });
  const top = await configs.forDir(root);
  const sub = await configs.forDir(join(root, "sub"));
  assertStrictEquals(top, sub);
  assertEquals(top.data.defaults.line_length, 130);
  assertEquals(top.data.defaults.final_newline, false);
  assertEquals(top.data.cache.enabled, false);
  assertEquals(top.sources, [
    join(root, "conf", "base.toml"),
    join(root, "conf", "ci.toml"),
    join(root, "conf", "poly.local.toml"),
  ]);
  assertEquals(top.excludes, [{ pattern: "x/", base: join(root, "conf") }]);
});

Deno.test("openConfig() rejects a missing explicit file", async () => {
  const root = await makeTree({});
  const error = await assertRejects(() => openConfig({ cwd: root, explicit: "missing.toml" }), ConfigError);
  assertEquals(error.message, "missing.toml: cannot read config file: file not found");
});

Deno.test("forDir() gives identical fingerprints to identical effective configs wherever they live", async () => {
  const files = {
    "poly.toml": '[defaults]\nline_length = 100\n[discovery]\nexclude = ["/gen"]\n',
    "sub/poly.toml": "[cache]\nenabled = false\n",
  };
  const one = await makeTree(files);
  const two = await makeTree(files);
  const a = await (await openConfig({ cwd: one })).forDir(join(one, "sub"));
  const b = await (await openConfig({ cwd: two })).forDir(join(two, "sub"));
  assertEquals(a.hash, b.hash);
  assertMatch(a.hash, /^1\/[0-9a-f]{16}$/);
  // Written differently, same effect: same fingerprint.
  const three = await makeTree({
    "poly.toml": 'discovery.exclude = "/gen"\ndefaults = { line_length = 100 }\n',
    "sub/poly.toml": "cache.enabled = false\n",
  });
  assertEquals((await (await openConfig({ cwd: three })).forDir(join(three, "sub"))).hash, a.hash);
  // Same keys, an exclude anchored elsewhere: a different effective config.
  const four = await makeTree({
    "poly.toml": "[defaults]\nline_length = 100\n",
    "sub/poly.toml": '[cache]\nenabled = false\n[discovery]\nexclude = ["/gen"]\n',
  });
  assert((await (await openConfig({ cwd: four })).forDir(join(four, "sub"))).hash !== a.hash);
});

Deno.test("forDir(): a package's manifest fingerprints the same wherever the tree lives, and by its bytes", async () => {
  const files = {
    "biome.json": '{"linter": {"rules": {"recommended": true}}}',
    "pkg/package.json": '{"name": "pkg", "dependencies": {"react": "^19.0.0"}}',
    "other/package.json": '{"name": "other", "dependencies": {"react": "^19.0.0"}}',
  };
  const configOf = async (root: string, dir: string) => await (await openConfig({ cwd: root })).forDir(join(root, dir));
  const one = await makeTree(files);
  const two = await makeTree(files);
  const pkg = await configOf(one, "pkg");
  assert(pkg.native?.["node-manifest"] && pkg.native.biome, "biome's file and the package's manifest both govern");
  assertEquals((await configOf(two, "pkg")).hash, pkg.hash);
  // Each package its own configuration (its own manifest), the shared biome file one object in both.
  const other = await configOf(one, "other");
  assert(other.hash !== pkg.hash);
  // A field biome does not read changes the bytes, hence the fingerprint (as the file's hash always did).
  const three = await makeTree({
    ...files,
    "pkg/package.json": files["pkg/package.json"].replace('{"name"', '{"private": true, "name"'),
  });
  assert((await configOf(three, "pkg")).hash !== pkg.hash);
});

Deno.test("forDir() fingerprints an empty poly.toml like no config at all", async () => {
  const empty = await makeTree({ "poly.toml": "# nothing yet\n" });
  const none = await makeTree({});
  assertEquals(
    (await (await openConfig({ cwd: empty })).forDir(empty)).hash,
    (await (await openConfig({ cwd: none })).forDir(none)).hash,
  );
});

Deno.test("forDir() anchors per-file-ignores and rules dirs at the config that set them", async () => {
  const root = await makeTree({
    "poly.toml": '[per-file-ignores]\n"tests/**" = ["S101"]\n',
    "sub/poly.toml": '[per-file-ignores]\n"*.pyi" = ["E501"]\n[rules]\ndirs = ["lints"]\n',
  });
  const configs = await openConfig({ cwd: root });
  const sub = await configs.forDir(join(root, "sub"));
  assertEquals(sub.perFileIgnores, [
    { pattern: "tests/**", base: root, codes: ["S101"] },
    { pattern: "*.pyi", base: join(root, "sub"), codes: ["E501"] },
  ]);
  assertEquals(sub.rulesDirs, [join(root, "sub", "lints")]);
  assertEquals((await configs.forDir(root)).rulesDirs, [join(root, ".poly", "rules")]);
});

Deno.test("forDir(): a directory holding no file configuration is read from is configured as its parent", async () => {
  const root = await makeTree({
    "poly.toml": "[defaults]\nline_length = 100\n",
    "src/deep/a.ts": "",
    "web/package.json": '{"dependencies": {"react": "^19.0.0"}}',
    "web/src/a.ts": "",
    "styled/.editorconfig": "root = true\n[*]\nindent_size = 8\n",
    "styled/a.ts": "",
    "nested/.git/HEAD": "",
    "nested/a.ts": "",
  });
  const configs = await openConfig({ cwd: root });
  const top = await configs.forDir(root);
  // The very object: plans, settings and exclude matchers stay shared (they are keyed by it).
  assertStrictEquals(await configs.forDir(join(root, "src")), top);
  assertStrictEquals(await configs.forDir(join(root, "src", "deep")), top);
  const web = await configs.forDir(join(root, "web"));
  assert(web.native?.["node-manifest"], "a package.json is read: biome's manifest");
  assertStrictEquals(await configs.forDir(join(root, "web", "src")), web);
  const styled = await configs.forDir(join(root, "styled"));
  assert(styled.hash !== top.hash && styled.sources.some((s) => s.endsWith(".editorconfig")));
  // A nested repository anchors its own defaults: it is never its parent's.
  const nested = await configs.forDir(join(root, "nested"));
  assertEquals(nested.sources, []);
  assertEquals(nested.data.defaults.line_length, 120);
});
