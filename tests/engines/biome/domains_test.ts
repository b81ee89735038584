/**
 * biome's rule domains (issue 21): the nearest `package.json`'s dependencies turn on the
 * recommended rules of biome's react, next, test, ... domains, as `biome lint` does; the
 * package.json is listed in the report's configs and is part of the cache key. The real
 * `poly lint` process on tests/engines/testdata/parity/biome-domains (its README gives
 * `biome lint`'s verdict), on both of biome's paths.
 */
import assert, { deepEqual, equal, notDeepEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { copyFixture, REPO, runPoly } from "../../_helpers/cli.ts";
import { Biome } from "../../../lib/engines/biome/mod.ts";
import { DOMAIN_DEPENDENCIES, manifestNeutral, MAX_PROCESSES } from "../../../lib/engines/biome/_native.ts";
import { biomeCommand } from "../../../lib/engines/biome/_bin.ts";
import { findExecutable } from "../../../lib/fs/executable.ts";
import type { EngineSettings, LintOutput, Settled, SourceFile } from "../../../lib/engines/types.ts";
import { settings } from "../_harness.ts";
import { tempDir } from "../../_helpers/temp.ts";

const available = (await findExecutable("node")) !== undefined && (await biomeCommand()) !== undefined;

interface Doc {
  results: { path: string; diagnostics?: { code?: string; engine: string; span?: { start_line: number } }[] }[];
  configs: { sources: string[] }[];
}

async function lint(dir: string, extra: string[] = []): Promise<Doc> {
  const out = await runPoly(["lint", "--no-workspace", "--no-cache", "--format", "json", ...extra], { cwd: dir });
  try {
    return JSON.parse(out.stdout);
  } catch {
    throw new Error(`not JSON (exit ${out.code}): ${out.stdout}\n${out.stderr}`);
  }
}

function found(doc: Doc, path: string): string[] {
  const r = doc.results.find((x) => x.path === path);
  return (r?.diagnostics ?? []).filter((d) => d.engine === "biome").map((d) => `${d.code}:${d.span?.start_line}`)
    .sort();
}

const WEB = ["correctness/useExhaustiveDependencies:4", "performance/noImgElement:7"];

Deno.test("poly lint turns on biome's domain rules from the nearest package.json, as biome lint does", async () => {
  const dir = await copyFixture("../tests/engines/testdata/parity/biome-domains");
  await Deno.mkdir(join(dir, ".git"));
  const doc = await lint(dir);
  assert.deepEqual(found(doc, "web/banner.jsx"), WEB);
  assert.deepEqual(found(doc, "spec/sum_cases.js"), ["suspicious/noFocusedTests:3"]);
  assert.deepEqual(found(doc, "plain/banner.jsx"), []);
  assert.deepEqual(found(doc, "plain/sum_cases.js"), []);
  assert.deepEqual(found(doc, "web/components/shell.jsx"), ["style/noHeadElement:4"]);
  assert.deepEqual(found(doc, "web/app/layout.jsx"), []);
  assert.deepEqual(found(doc, "web/package.json"), []);
  const sources = doc.configs.flatMap((c) => c.sources);
  assert.ok(sources.includes("web/package.json") && sources.includes("spec/package.json"), JSON.stringify(sources));
});

Deno.test("biome's domains apply on the one-file path too, and under a biome.json of the repository", async () => {
  const dir = await copyFixture("../tests/engines/testdata/parity/biome-domains");
  await Deno.mkdir(join(dir, ".git"));
  await Deno.writeTextFile(join(dir, "biome.json"), JSON.stringify({ linter: { rules: { recommended: true } } }));
  // One file: the WebAssembly path (no batch).
  assert.deepEqual(found(await lint(dir, ["web/banner.jsx"]), "web/banner.jsx"), WEB);
  assert.deepEqual(found(await lint(dir), "web/banner.jsx"), WEB);
  assert.deepEqual(found(await lint(dir, ["plain/banner.jsx"]), "plain/banner.jsx"), []);
});

Deno.test("a change to the governing package.json reaches a cached biome result", async () => {
  const dir = await copyFixture("../tests/engines/testdata/parity/biome-domains");
  await Deno.mkdir(join(dir, ".git"));
  const run = async () => {
    const out = await runPoly(["lint", "--no-workspace", "--format", "json", "web/banner.jsx"], { cwd: dir });
    return found(JSON.parse(out.stdout), "web/banner.jsx");
  };
  assert.deepEqual(await run(), WEB);
  await Deno.writeTextFile(join(dir, "web/package.json"), JSON.stringify({ name: "web", dependencies: {} }));
  assert.deepEqual(await run(), []);
});

Deno.test("Biome: both lint paths turn on the domains of settings.manifest, and nothing without it", async () => {
  const dir = await tempDir({ prefix: "poly-biome-domains-" });
  const path = join(dir, "web", "banner.jsx");
  await Deno.mkdir(join(dir, "web"));
  const text = await Deno.readTextFile(join(REPO, "tests/engines/testdata/parity/biome-domains/web/banner.jsx"));
  await Deno.writeTextFile(path, text);
  const file: SourceFile = { path, relPath: "web/banner.jsx", language: "javascript", text };
  const manifest = {
    files: [{ path: join(dir, "web", "package.json"), hash: "0123456789abcdef" }],
    options: { dependencies: { next: "15.0.0", react: "^19.0.0" } },
    root: join(dir, "web"),
  };
  const codes = (out: Settled<LintOutput>) =>
    out instanceof Error ? [out.message] : out.diagnostics.map((d) => d.code).sort();
  const want = ["correctness/useExhaustiveDependencies", "performance/noImgElement"];
  const native = new Biome();
  let processed = 0;
  native.native = { onRun: (i) => (processed += i.processed) };
  deepEqual((await native.lintMany([file], { ...settings(), manifest })).map(codes), [want]);
  if (available) equal(processed, 1, "the native command line linted the file");
  const wasm = new Biome();
  wasm.native = { command: null };
  deepEqual((await wasm.lintMany([file], { ...settings(), manifest })).map(codes), [want]);
  deepEqual(codes(await wasm.lint(file, { ...settings(), manifest })), want);
  deepEqual(codes(await wasm.lint(file, settings())), []);
  deepEqual((await native.lintMany([file], settings())).map(codes), [[]]);
  // Natively too, a rule reading the path below the package sees it (next's app/), and the package.json itself lints.
  const layout = join(REPO, "tests/engines/testdata/parity/biome-domains/web/app/layout.jsx");
  await Deno.mkdir(join(dir, "web", "app"));
  await Deno.copyFile(layout, join(dir, "web", "app", "layout.jsx"));
  await Deno.writeTextFile(manifest.files[0].path, JSON.stringify({ dependencies: manifest.options.dependencies }));
  const more: SourceFile[] = [
    { path: join(dir, "web/app/layout.jsx"), relPath: "web/app/layout.jsx", language: "javascript", text: "" },
    { path: manifest.files[0].path, relPath: "web/package.json", language: "json", text: "" },
  ];
  for (const m of more) m.text = await Deno.readTextFile(m.path);
  processed = 0;
  deepEqual((await native.lintMany(more, { ...settings(), manifest })).map(codes), [[], []]);
  if (available) equal(processed, 2, "the native command line linted both");
  // The native path reached them through a link to their folder, removed with its private folder afterwards.
  await Deno.writeTextFile(join(dir, "web", "app", "page.jsx"), "export default 1;\n");
  await native.lintMany([more[0]], { ...settings(), manifest });
  for (const f of [file, ...more]) equal(await Deno.readTextFile(f.path), f.text, `${f.relPath} is left as it was`);
  equal(
    await Deno.readTextFile(join(dir, "web", "app", "page.jsx")),
    "export default 1;\n",
    "a file it was not given too",
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("Biome: a package's JSON and CSS files are linted natively by their own paths, with the WebAssembly path's findings", async () => {
  const dir = await Deno.realPath(await tempDir({ prefix: "poly-biome-free-" }));
  await Deno.mkdir(join(dir, "web", "styles"), { recursive: true });
  const banner = await Deno.readTextFile(join(REPO, "tests/engines/testdata/parity/biome-domains/web/banner.jsx"));
  const files: SourceFile[] = [
    {
      path: join(dir, "web", "package.json"),
      relPath: "web/package.json",
      language: "json",
      text: '{ "name": "web", "name": "again", "dependencies": { "react": "^19.0.0" } }\n',
    },
    {
      path: join(dir, "web", "styles", "a.css"),
      relPath: "web/styles/a.css",
      language: "css",
      text: "a { color: red; color: blue; }\n",
    },
    { path: join(dir, "web", "banner.jsx"), relPath: "web/banner.jsx", language: "javascript", text: banner },
  ];
  for (const f of files) await Deno.writeTextFile(f.path, f.text);
  const manifest = {
    files: [{ path: files[0].path, hash: "0123456789abcdef" }],
    options: { dependencies: { react: "^19.0.0" } },
    root: join(dir, "web"),
  };
  const codes = (out: Settled<LintOutput>) =>
    out instanceof Error ? [out.message] : out.diagnostics.map((d) => d.code).sort();
  const native = new Biome();
  let processed = 0;
  const entries: number[] = [];
  native.native = { onRun: (i) => (processed += i.processed), onEntries: (n) => entries.push(n) };
  const wasm = new Biome();
  wasm.native = { command: null };
  const withManifest = { ...settings(), manifest };
  const want = (await wasm.lintMany(files, withManifest)).map(codes);
  ok(want[0].includes("suspicious/noDuplicateObjectKeys") && want[1].length > 0, JSON.stringify(want));
  // The JSON and CSS files alone: nothing made in the private folder.
  deepEqual((await native.lintMany(files.slice(0, 2), withManifest)).map(codes), want.slice(0, 2));
  if (available) equal(processed, 2, "the native command line linted both");
  if (available) deepEqual(entries, [0], "no folder, manifest copy or link");
  // Beside a script of the package: its folder, manifest copy and one link; the others by their own paths still.
  processed = 0;
  entries.length = 0;
  deepEqual((await native.lintMany(files, withManifest)).map(codes), want);
  if (available) equal(processed, 3, "the native command line linted all three");
  if (available) deepEqual(entries, [3], "a folder, a manifest copy and a link to banner.jsx");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("manifestNeutral(): a manifest naming no dependency biome reads and no type but module, unless a rule names it", () => {
  const manifest = (options: Record<string, unknown>) => ({ files: [], options, root: "/r" });
  const config = { linter: { rules: { recommended: true } } };
  ok(manifestNeutral(manifest({}), config));
  ok(manifestNeutral(manifest({ type: "module", dependencies: {}, devDependencies: {} }), config));
  ok(!manifestNeutral(manifest({ type: "commonjs" }), config), "commonjs makes .js files scripts");
  ok(!manifestNeutral(manifest({ devDependencies: { vitest: "3" } }), config), "a dependency may turn on a domain");
  ok(!manifestNeutral(manifest({ dependencies: { react: "18" } }), config), "React's version is read");
  ok(!manifestNeutral(manifest({ optionalDependencies: { buffer: "6" } }), config), "a package named as node's module");
  ok(!manifestNeutral(manifest({ bundleDependencies: ["node:fs"] }), config), "bundled, by its node: name");
  // Dependencies biome never looks up change nothing: no domain, no builtin's name.
  ok(manifestNeutral(manifest({ dependencies: { picocolors: "1" }, devDependencies: { esbuild: "0.25" } }), config));
  ok(manifestNeutral(manifest({ bundleDependencies: true, peerDependencies: { "@scope/pkg": "*" } }), config));
  ok(!manifestNeutral(manifest({ dependencies: [] }), config), "not an object of dependencies: not known to be none");
  const undeclared = { linter: { rules: { correctness: { noUndeclaredDependencies: "error" } } } };
  ok(!manifestNeutral(manifest({}), undeclared), "its message names the manifest it read");
  ok(!manifestNeutral(manifest({}), { linter: { rules: { correctness: "error" } } }), "a whole group turned on");
});

Deno.test("the dependencies that turn on biome's domains are those its binary names, rule by rule", async () => {
  // biome's own table (`RuleDomain::manifest_dependencies`) is what `biome explain` prints for each rule of a domain:
  // a package listing one of them goes to biome with its manifest, so a dependency biome adds must be here too.
  const command = await biomeCommand();
  if (!command) throw new Error("the biome command line of the same version is part of poly");
  const schema = JSON.parse(
    await Deno.readTextFile(new URL("configuration_schema.json", import.meta.resolve("@biomejs/biome/package.json"))),
  ) as { $defs: Record<string, { properties?: Record<string, unknown> }> };
  const defs = schema.$defs;
  const rules = Object.keys(defs.Rules.properties ?? {}).flatMap((group) =>
    Object.keys(defs[group[0].toUpperCase() + group.slice(1)]?.properties ?? {}).filter((r) => r !== "recommended")
  );
  ok(rules.length > 300, `the schema lists biome's rules (${rules.length})`);
  const named = new Set<string>();
  const explain = async (rule: string) => {
    const out = await new Deno.Command(command.binary, { args: ["explain", rule], env: command.env, stdout: "piped" })
      .output();
    const text = new TextDecoder().decode(out.stdout);
    for (const [, dep] of text.matchAll(/^\s+- ((?:@[^/\s]+\/)?[^@\s]+)@\S+$/gm)) named.add(dep);
  };
  for (let i = 0; i < rules.length; i += 8) await Promise.all(rules.slice(i, i + 8).map(explain));
  ok(named.has("react") && named.has("vitest"), `the explanations were read: ${[...named]}`);
  deepEqual([...named].sort(), [...DOMAIN_DEPENDENCIES].sort());
});

Deno.test({
  name:
    "Biome: a package whose manifest changes nothing for biome is linted natively by its files' own paths, as under it",
  ignore: !available,
  async fn() {
    const dir = await Deno.realPath(await tempDir({ prefix: "poly-biome-neutral-" }));
    const text = 'import x from "buffer";\nexport default x;\n';
    const groups: { files: SourceFile[]; settings: EngineSettings }[] = [];
    for (
      const [name, options] of [["mod", { type: "module" }], ["cjs", { type: "commonjs" }], ["dep", {
        dependencies: { buffer: "6" },
      }], ["other", { dependencies: { picocolors: "1" } }]] as const
    ) {
      await Deno.mkdir(join(dir, name, "src"), { recursive: true });
      const path = join(dir, name, "src", "a.js");
      await Deno.writeTextFile(path, text);
      const manifest = {
        files: [{ path: join(dir, name, "package.json"), hash: "0123456789abcdef" }],
        options,
        root: join(dir, name),
      };
      groups.push({
        files: [{ path, relPath: `${name}/src/a.js`, language: "javascript", text }],
        settings: { ...settings(), manifest },
      });
    }
    const codes = (out: Settled<LintOutput>) =>
      out instanceof Error ? [out.message] : out.diagnostics.map((d) => d.code).sort();
    const wasm = new Biome();
    wasm.native = { command: null };
    const want = await Promise.all(groups.map(async (g) => (await wasm.lintMany(g.files, g.settings)).map(codes)));
    // As a module, node's `buffer` wants `node:`; as a script the import is a syntax error; a dependency named
    // `buffer` is not node's.
    deepEqual(want[0], [["style/useNodejsImportProtocol"]]);
    notDeepEqual(want[1], want[0]);
    deepEqual(want[2], [[]]);
    deepEqual(want[3], want[0], "a dependency biome never looks up");
    for (const [i, g] of groups.entries()) {
      const native = new Biome();
      const entries: number[] = [];
      let processed = 0;
      native.native = { onRun: (r) => (processed += r.processed), onEntries: (n) => entries.push(n) };
      deepEqual((await native.lintMany(g.files, g.settings)).map(codes), want[i], g.files[0].relPath);
      equal(processed, 1, `${g.files[0].relPath} linted natively`);
      deepEqual(
        entries,
        [i === 0 || i === 3 ? 0 : 3],
        `${g.files[0].relPath}: links only under a manifest that matters`,
      );
    }
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test("Biome: noUndeclaredDependencies names the package's own manifest and lets the package import itself, on both paths", async () => {
  const dir = await Deno.realPath(await tempDir({ prefix: "poly-biome-undeclared-" }));
  await Deno.mkdir(join(dir, "pkg", "src"), { recursive: true });
  const text = 'import a from "a";\nimport b from "b";\nimport c from "me/sub";\nexport { a, b, c };\n';
  const file: SourceFile = {
    path: join(dir, "pkg", "src", "x.js"),
    relPath: "pkg/src/x.js",
    language: "javascript",
    text,
  };
  await Deno.writeTextFile(file.path, text);
  const withRule: EngineSettings = {
    ...settings(),
    manifest: {
      files: [{ path: join(dir, "pkg", "package.json"), hash: "0123456789abcdef" }],
      options: { name: "me", dependencies: { a: "1" } },
      root: join(dir, "pkg"),
    },
    native: {
      files: [],
      options: { linter: { rules: { correctness: { noUndeclaredDependencies: "error" } } } },
      root: dir,
    },
  };
  // As `biome lint` says it at the root: only `b`, in the manifest's path from there.
  const want = [["Dependency b isn't specified in pkg/package.json."]];
  const titles = (out: Settled<LintOutput>[]) =>
    out.map((o) => o instanceof Error ? [o.message] : o.diagnostics.map((d) => d.title));
  const wasm = new Biome();
  wasm.native = { command: null };
  deepEqual(titles(await wasm.lintMany([file], withRule)), want);
  const native = new Biome();
  let processed = 0;
  native.native = { onRun: (r) => (processed += r.processed) };
  deepEqual(titles(await native.lintMany([file], withRule)), want);
  if (available) equal(processed, 1, "the native command line linted it");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("Biome.prewarm() drives the WebAssembly workspace directly and leaves the module loaded", async () => {
  const biome = new Biome();
  await biome.prewarm();
  equal(biome.warm(), true);
});

Deno.test("poly config show names the package.json whose dependencies turn on biome's domains", async () => {
  const dir = await copyFixture("../tests/engines/testdata/parity/biome-domains");
  await Deno.mkdir(join(dir, ".git"));
  const out = await runPoly(["config", "show"], { cwd: join(dir, "web") });
  assert.match(out.stdout, /^# biome's manifest \(its dependencies turn on biome's rule domains\): package\.json$/m);
});

/** A monorepo of `count` packages: even ones use react and next (domain rules on), odd ones nothing; one file each. */
async function monorepo(
  count: number,
): Promise<{ dir: string; groups: { files: SourceFile[]; settings: EngineSettings }[] }> {
  const dir = await Deno.realPath(await tempDir({ prefix: "poly-biome-monorepo-" }));
  await Deno.mkdir(join(dir, ".git"));
  const text = await Deno.readTextFile(join(REPO, "tests/engines/testdata/parity/biome-domains/web/banner.jsx"));
  const groups = [];
  for (let i = 0; i < count; i++) {
    const root = join(dir, "packages", `p${i}`);
    await Deno.mkdir(join(root, "src"), { recursive: true });
    const options = i % 2 === 0 ? { dependencies: { next: "15.0.0", react: "^19.0.0" } } : {};
    await Deno.writeTextFile(join(root, "package.json"), JSON.stringify({ name: `p${i}`, ...options }));
    const path = join(root, "src", "banner.jsx");
    await Deno.writeTextFile(path, text);
    const manifest = { files: [{ path: join(root, "package.json"), hash: `${i}`.padStart(16, "0") }], options, root };
    groups.push({
      files: [{ path, relPath: `packages/p${i}/src/banner.jsx`, language: "javascript" as const, text }],
      settings: { ...settings(), manifest },
    });
  }
  return { dir, groups };
}

Deno.test({
  name:
    "Biome.startLintGroups(): a monorepo's packages under one configuration share one native process, each file with its own manifest",
  ignore: !available,
  async fn() {
    const count = MAX_PROCESSES + 4;
    const { dir, groups } = await monorepo(count);
    const codes = (out: Settled<LintOutput>) =>
      out instanceof Error ? [out.message] : out.diagnostics.map((d) => d.code).sort();
    // Each package on its own (one process each), as the answer.
    const alone = await Promise.all(groups.map((g) => new Biome().lintMany(g.files, g.settings)));
    const want = ["correctness/useExhaustiveDependencies", "performance/noImgElement"];
    deepEqual(alone.map((r) => codes(r[0])), groups.map((_, i) => i % 2 === 0 ? want : []));
    const biome = new Biome();
    const runs: number[] = [];
    biome.native = { onRun: (r) => runs.push(r.processed) };
    const started = biome.startLintGroups(groups.map((g) => ({ files: g.files, settings: g.settings })));
    const together = await Promise.all(started.map((batch, i) => batch.finish(groups[i].files)));
    deepEqual(together.map((r) => codes(r[0])), alone.map((r) => codes(r[0])));
    equal(runs.length, 1, "one process for the packages");
    equal(runs.reduce((a, b) => a + b), count, "every file linted natively");
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name:
    "Biome.startLintGroups(): packages with configurations of their own run at most MAX_PROCESSES processes at once; the rest are ready when queued",
  ignore: !available,
  async fn() {
    const count = MAX_PROCESSES + 4;
    const { dir, groups } = await monorepo(count);
    // A line width of its own per package: no two share a generated configuration, so no two share a process.
    const own = groups.map((g, i) => ({
      ...g,
      settings: { ...g.settings, defaults: { ...g.settings.defaults, line_length: 80 + i } },
    }));
    const biome = new Biome();
    let running = 0;
    let most = 0;
    const ended: number[] = [];
    biome.native = {
      onSpawn: () => (most = Math.max(most, ++running)),
      onRun: (r) => (running--, ended.push(r.processed)),
    };
    const started = biome.startLintGroups(own.map((g) => ({ files: g.files, settings: g.settings })));
    await Promise.all(started.map((batch) => batch.ready));
    ok(ended.length < count, `every batch is ready before the last processes end (${ended.length} ended)`);
    const together = await Promise.all(started.map((batch, i) => batch.finish(own[i].files)));
    ok(most <= MAX_PROCESSES, `never more than MAX_PROCESSES at once (${most})`);
    equal(ended.length, count, "a process per package");
    equal(ended.reduce((a, b) => a + b), count, "every file linted natively");
    const want = ["correctness/useExhaustiveDependencies", "performance/noImgElement"];
    deepEqual(
      together.map((r) => r[0] instanceof Error ? [r[0].message] : r[0].diagnostics.map((d) => d.code).sort()),
      own.map((_, i) => i % 2 === 0 ? want : []),
    );
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name: "poly lint on a monorepo of more packages than native processes: each package's domains, as alone",
  ignore: !available,
  async fn() {
    const { dir, groups } = await monorepo(MAX_PROCESSES + 4);
    const doc = await lint(dir);
    for (const [i, g] of groups.entries()) {
      deepEqual(found(doc, g.files[0].relPath), i % 2 === 0 ? WEB : [], g.files[0].relPath);
    }
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name: 'poly fmt: a .js file in a "type": "commonjs" package is a script, as for biome format',
  ignore: !available,
  async fn() {
    const dir = await Deno.realPath(await tempDir({ prefix: "poly-biome-cjs-" }));
    await Deno.mkdir(join(dir, ".git"));
    const esm = 'import x from "y";\nexport default x;\n';
    const files: Record<string, string> = {
      "mod/package.json": '{ "name": "mod" }\n',
      "mod/m.js": esm,
      "cjs/package.json": '{ "name": "cjs", "type": "commonjs" }\n',
      "cjs/m.js": esm,
      "cjs/ok.js": 'const x = require("y");\nmodule.exports = x;\n',
    };
    for (const [path, text] of Object.entries(files)) {
      await Deno.mkdir(join(dir, path, ".."), { recursive: true });
      await Deno.writeTextFile(join(dir, path), text);
    }
    const out = await runPoly(["fmt", "--check", "--format", "json"], { cwd: dir });
    const doc = JSON.parse(out.stdout) as {
      results: { path: string; changed?: boolean; diagnostics?: { code?: string }[] }[];
    };
    // A clean file may be left out of the results: then it has neither a change nor a finding.
    const of = (path: string) => doc.results.find((r) => r.path === path) ?? { path };
    // biome's command line: "Illegal use of an import declaration outside of a module", no formatting.
    deepEqual(of("cjs/m.js").diagnostics?.map((d) => d.code), ["parse", "parse"]);
    equal(of("cjs/m.js").changed ?? false, false);
    deepEqual(of("mod/m.js").diagnostics ?? [], [], "without a type, .js is a module");
    equal(of("mod/m.js").changed ?? false, false);
    equal(of("cjs/ok.js").changed ?? false, false, "a script formats as biome formats it");
    await Deno.remove(dir, { recursive: true });
  },
});
