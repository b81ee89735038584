import { deepEqual } from "node:assert/strict";
import { dirname, join } from "node:path";
import { discover, type DiscoveryConfig } from "../../lib/discover/mod.ts";
import { describe, fixtureTree } from "./_tree.ts";

/** A configFor that gives every directory the same patterns, relative to `base`. */
function config(base: string, patterns: string[], forceExclude = false): () => Promise<DiscoveryConfig> {
  const value = { excludes: patterns.map((pattern) => ({ pattern, base })), forceExclude };
  return () => Promise.resolve(value);
}

const ALL = [
  "build.py python",
  "build/out.py python",
  "builder/b.py python",
  "deep/x/b.gen.ts typescript",
  "dist/d.js javascript",
  "only.py python",
  "pkg/build/x.py python",
  "pkg/dist/d.js javascript",
  "pkg/only.py python",
  "pkg/rebuild.py python",
  "pkg/sub/only.py python",
  "src/a.gen.ts typescript",
  "src/a.ts typescript",
  "src/gen.ts typescript",
];

Deno.test("discover() without excludes finds every file of the excludes tree", async () => {
  const root = await fixtureTree("excludes");
  deepEqual(describe(await discover({ cwd: root, paths: [] })), ALL);
});

Deno.test("discover() unanchored exclude prunes only what it names, at any depth", async () => {
  const root = await fixtureTree("excludes");
  const found = describe(
    await discover({ cwd: root, paths: [], includeUnknown: true, configFor: config(root, ["build"]) }),
  );
  // `build` names build/ and pkg/build/ and the file tools/build — never build.py, builder/ or rebuild.py.
  deepEqual(found, [
    "build.py python",
    "builder/b.py python",
    "deep/x/b.gen.ts typescript",
    "dist/d.js javascript",
    "only.py python",
    "pkg/dist/d.js javascript",
    "pkg/only.py python",
    "pkg/rebuild.py python",
    "pkg/sub/only.py python",
    "src/a.gen.ts typescript",
    "src/a.ts typescript",
    "src/gen.ts typescript",
  ]);
});

Deno.test("discover() a file glob exclude prunes matching files, not their directories", async () => {
  const root = await fixtureTree("excludes");
  const found = describe(await discover({ cwd: root, paths: ["src", "deep"], configFor: config(root, ["*.gen.ts"]) }));
  deepEqual(found, ["src/a.ts typescript", "src/gen.ts typescript"]);
});

Deno.test("discover() an anchored exclude applies only at its config's directory", async () => {
  const root = await fixtureTree("excludes");
  const found = describe(await discover({ cwd: root, paths: [], configFor: config(root, ["/dist", "/only.py"]) }));
  deepEqual(found, ALL.filter((line) => !line.startsWith("dist/") && !line.startsWith("only.py")));
});

Deno.test("discover() anchors a nested config's patterns to that config's directory", async () => {
  const root = await fixtureTree("excludes");
  const pkg = join(root, "pkg");
  const configFor = (dir: string) =>
    Promise.resolve({
      excludes: dir === pkg || dir.startsWith(pkg + "/") ? [{ pattern: "/only.py", base: pkg }] : [],
      forceExclude: false,
    });
  const found = describe(await discover({ cwd: root, paths: [], configFor }));
  deepEqual(found, ALL.filter((line) => !line.startsWith("pkg/only.py")));
});

Deno.test("discover() a later negation re-includes what an exclude removed", async () => {
  const root = await fixtureTree("excludes");
  const found = describe(
    await discover({ cwd: root, paths: ["pkg"], configFor: config(root, ["*.py", "!rebuild.py"]) }),
  );
  deepEqual(found, ["pkg/dist/d.js javascript", "pkg/rebuild.py python"]);
});

Deno.test("discover() --exclude patterns are relative to cwd", async () => {
  const root = await fixtureTree("excludes");
  const found = describe(await discover({ cwd: join(root, "pkg"), paths: [], exclude: ["/only.py", "dist/"] }));
  deepEqual(found, ["build/x.py python", "rebuild.py python", "sub/only.py python"]);
});

Deno.test("discover() includes an excluded explicit file unless force_exclude is set", async () => {
  const root = await fixtureTree("excludes");
  const paths = ["build/out.py", "src/a.gen.ts"];
  deepEqual(describe(await discover({ cwd: root, paths, configFor: config(root, ["build", "*.gen.ts"]) })), [
    "build/out.py python (explicit)",
    "src/a.gen.ts typescript (explicit)",
  ]);
  deepEqual(describe(await discover({ cwd: root, paths, configFor: config(root, ["build", "*.gen.ts"], true) })), [
    'build/out.py skip: excluded by "build" in [discovery] exclude ([discovery] force_exclude)',
    'src/a.gen.ts skip: excluded by "*.gen.ts" in [discovery] exclude ([discovery] force_exclude)',
  ]);
  deepEqual(
    describe(
      await discover({ cwd: root, paths: ["build/out.py"], exclude: ["build"], configFor: config(root, [], true) }),
    ),
    [
      'build/out.py skip: excluded by "build" in --exclude ([discovery] force_exclude)',
    ],
  );
});

Deno.test("discover() walks an explicitly named excluded directory", async () => {
  const root = await fixtureTree("excludes");
  const found = describe(await discover({ cwd: root, paths: ["build"], configFor: config(root, ["build"]) }));
  deepEqual(found, ["build/out.py python"]);
});

Deno.test("discover() under force_exclude skips a named file inside an excluded directory", async () => {
  const root = await fixtureTree("excludes");
  const found = describe(
    await discover({
      cwd: root,
      paths: ["pkg/build/x.py", "pkg/rebuild.py"],
      configFor: config(root, ["build/"], true),
    }),
  );
  deepEqual(found, [
    'pkg/build/x.py skip: excluded by "build/" in [discovery] exclude ([discovery] force_exclude)',
    "pkg/rebuild.py python (explicit)",
  ]);
});

Deno.test("discover() never asks for the configuration of the folder a repository's root sits in", async () => {
  const root = await fixtureTree("excludes");
  await Deno.mkdir(join(root, ".git"), { recursive: true });
  const asked: string[] = [];
  // The folder above would force-exclude everything: it governs nothing inside the repository.
  const configFor = (dir: string) => {
    asked.push(dir);
    const above = dir === dirname(root);
    return Promise.resolve({ excludes: above ? [{ pattern: "*", base: dir }] : [], forceExclude: above });
  };
  const found = describe(await discover({ cwd: root, paths: ["."], configFor }));
  deepEqual(found, ALL);
  deepEqual(asked.filter((dir) => !dir.startsWith(root)), [], "only folders of the repository");
  // A folder inside the repository, named explicitly, is still judged by its parent's configuration.
  const inside = describe(await discover({ cwd: root, paths: ["pkg"], configFor: config(root, ["pkg"], true) }));
  deepEqual(inside, ['pkg skip: excluded by "pkg" in [discovery] exclude ([discovery] force_exclude)']);
});
