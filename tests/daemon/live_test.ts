/**
 * LiveWorkspace (lib/daemon/live.ts): which file-system events forget which
 * remembered results. Events are fed by hand here (apply); the last tests use
 * the real watcher.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { LiveWorkspace } from "../../lib/daemon/live.ts";
import { ruff } from "../../lib/engines/ruff/mod.ts";
import { tempDir, tempFile } from "../_helpers/temp.ts";
import type { FileChange } from "../../lib/engines/types.ts";

async function workspace(): Promise<{ live: LiveWorkspace; root: string; done: () => Promise<void> }> {
  const base = await Deno.realPath(await tempDir({ prefix: "poly-live-" }));
  const root = join(base, "repo");
  await Deno.mkdir(join(root, "src"), { recursive: true });
  const live = await LiveWorkspace.open(root, join(base, "markers"));
  return { live, root, done: async () => (live.close(), await Deno.remove(base, { recursive: true })) };
}

const event = (kind: Deno.FsEvent["kind"], ...paths: string[]): Deno.FsEvent => ({ kind, paths });
const entry = (
  outcome: string,
  contexts: { id: string; files?: (p: string, change?: FileChange) => boolean }[] = [],
) => ({
  outcome,
  steps: 2,
  contexts,
});

Deno.test("a remembered outcome holds until its own file changes; other files keep theirs", async () => {
  const { live, root, done } = await workspace();
  const a = join(root, "src/a.ts"), b = join(root, "src/b.ts");
  const at = live.position();
  live.remember(a, "sig", entry("A"), at);
  live.remember(b, "sig", entry("B"), at);
  assert.deepEqual(live.outcome(a, "sig"), { outcome: "A", steps: 2 });
  assert.equal(live.outcome(a, "other signature"), undefined, "another signature (config, cwd) misses");
  live.apply(event("access", a));
  assert.deepEqual(live.outcome(a, "sig"), { outcome: "A", steps: 2 }, "reading a file changes nothing");
  live.apply(event("modify", a));
  assert.equal(live.outcome(a, "sig"), undefined);
  assert.deepEqual(live.outcome(b, "sig"), { outcome: "B", steps: 2 });
  // Recorded again from a read after the event: holds again.
  live.remember(a, "sig", entry("A2"), live.position());
  assert.deepEqual(live.outcome(a, "sig"), { outcome: "A2", steps: 2 });
  await done();
});

Deno.test("an event after a run's start position forgets what the run recorded for that file", async () => {
  const { live, root, done } = await workspace();
  const a = join(root, "src/a.ts");
  const at = live.position();
  live.apply(event("modify", a)); // changed while the run was reading
  live.remember(a, "sig", entry("A"), at);
  assert.equal(live.outcome(a, "sig"), undefined);
  await done();
});

Deno.test("discovery is forgotten when the tree's shape changes, not when a file's content does", async () => {
  const { live, root, done } = await workspace();
  const remembered = () => live.rememberShaped("k", ["x"], live.position());
  remembered();
  live.apply(event("modify", join(root, "src/a.ts")));
  assert.deepEqual(live.shaped("k"), ["x"], "content of a file named for its language");
  for (
    const changed of [
      ".gitignore",
      "src/.gitignore",
      "poly.toml",
      "sub/poly.local.toml",
      "bin/tool",
      ".git/info/exclude",
    ]
  ) {
    remembered();
    live.apply(event("modify", join(root, changed)));
    assert.equal(live.shaped("k"), undefined, changed);
  }
  for (const kind of ["create", "remove", "rename"] as const) {
    remembered();
    live.apply(event(kind, join(root, "src/new.ts")));
    assert.equal(live.shaped("k"), undefined, kind);
  }
  remembered();
  live.apply(event("modify", join(root, ".git/index")));
  live.apply(event("create", join(root, ".git/objects/ab")));
  assert.deepEqual(live.shaped("k"), ["x"], "git's own database is not the tree");
  await done();
});

Deno.test("removing or renaming a directory that holds remembered files forgets everything", async () => {
  const { live, root, done } = await workspace();
  const a = join(root, "src/deep/a.ts"), b = join(root, "other/b.ts");
  live.remember(a, "sig", entry("A"), live.position());
  live.remember(b, "sig", entry("B"), live.position());
  live.apply(event("remove", join(root, "other/unrelated.tmp")));
  assert.ok(live.outcome(a, "sig") && live.outcome(b, "sig"), "a file nobody remembered: nothing else is forgotten");
  live.apply(event("rename", join(root, "src"), join(root, "src2")));
  assert.equal(live.outcome(a, "sig"), undefined);
  assert.equal(live.outcome(b, "sig"), undefined, "files under the old name may come back changed");
  await done();
});

Deno.test("a result with a cache context is forgotten when a file of its context changes", async () => {
  const { live, root, done } = await workspace();
  const go = join(root, "pkg/a.go"), ts = join(root, "src/a.ts");
  const goFiles = (path: string) => path.endsWith(".go") || path.endsWith("/go.mod");
  live.remember(go, "sig", entry("G", [{ id: "govet", files: goFiles }]), live.position());
  live.remember(ts, "sig", entry("T"), live.position());
  live.apply(event("modify", join(root, "src/b.ts")));
  assert.ok(live.outcome(go, "sig"), "a TypeScript change is not in a Go package's context");
  live.apply(event("modify", join(root, "pkg/sub/b.go")));
  assert.equal(live.outcome(go, "sig"), undefined, "another Go file of the module is");
  assert.ok(live.outcome(ts, "sig"));
  live.remember(go, "sig", entry("G", [{ id: "govet", files: goFiles }]), live.position());
  live.remember(ts, "sig", entry("T", [{ id: "unknown" }]), live.position());
  live.apply(event("modify", join(root, "README.md")));
  assert.equal(live.outcome(ts, "sig"), undefined, "a context that does not say which files: any change");
  assert.ok(live.outcome(go, "sig"));
  await done();
});

Deno.test("a context hears what happened to a path: ruff's forgets on a module made or removed, not edited", async () => {
  const { live, root, done } = await workspace();
  const py = join(root, "tests/test_a.py");
  const remember = () =>
    live.remember(py, "sig", entry("P", [{ id: "ruff", files: ruff.contextFiles }]), live.position());
  remember();
  live.apply(event("modify", join(root, "src/pkg/mod.py")));
  assert.ok(live.outcome(py, "sig"), "a module's bytes say nothing of where ruff's `src` matching finds modules");
  for (
    const [kind, path] of [["create", "src/pkg/later.py"], ["remove", "src/pkg/mod.pyi"], ["create", "src/pkg/sub"]]
  ) {
    live.apply(event(kind as Deno.FsEvent["kind"], join(root, path)));
    assert.equal(live.outcome(py, "sig"), undefined, `${kind} ${path}`);
    remember();
  }
  live.apply(event("create", join(root, "README.md")));
  assert.ok(live.outcome(py, "sig"), "a file that is no module");
  live.apply(event("modify", join(root, "src/pkg/__init__.py")));
  assert.equal(live.outcome(py, "sig"), undefined, "an __init__.py, whatever happened to it");
  await done();
});

Deno.test("an overflowed event queue forgets everything", async () => {
  const { live, root, done } = await workspace();
  const a = join(root, "src/a.ts");
  live.remember(a, "sig", entry("A"), live.position());
  live.rememberShaped("k", ["x"], live.position());
  live.apply({ kind: "other", paths: [], flag: "rescan" });
  assert.equal(live.outcome(a, "sig"), undefined);
  assert.equal(live.shaped("k"), undefined);
  assert.equal(live.stats().resets, 1);
  await done();
});

Deno.test("files outside the root or reached from outside are never remembered", async () => {
  const { live, root, done } = await workspace();
  assert.equal(live.covers(join(root, "src/a.ts")), true);
  assert.equal(live.covers("/elsewhere/a.ts"), false);
  assert.equal(live.covers(`${root}-sibling/a.ts`), false);
  live.remember("/elsewhere/a.ts", "sig", entry("X"), live.position());
  assert.equal(live.outcome("/elsewhere/a.ts", "sig"), undefined);
  await done();
});

Deno.test("sync() returns once the watcher has reported every earlier change", async () => {
  const { live, root, done } = await workspace();
  const a = join(root, "src/a.ts");
  await Deno.writeTextFile(a, "export const a = 1;\n");
  await live.sync();
  live.remember(a, "sig", entry("A"), live.position());
  for (let i = 0; i < 5; i++) {
    await Deno.writeTextFile(a, `export const a = ${i};\n`);
    await live.sync(); // no sleep: the marker's event comes after the write's
    assert.equal(live.outcome(a, "sig"), undefined, `write ${i} seen`);
    live.remember(a, "sig", entry("A"), live.position());
  }
  assert.equal(live.stats().resets, 0);
  assert.equal(live.stats().watching, true);
  await done();
});

Deno.test("a config file outside the root is checked at each sync", async () => {
  const { live, root, done } = await workspace();
  const outside = await tempFile({ suffix: ".toml" });
  live.noteSources([outside, join(root, "poly.toml")]);
  const a = join(root, "src/a.ts");
  live.remember(a, "sig", entry("A"), live.position());
  await live.sync();
  assert.ok(live.outcome(a, "sig"), "unchanged");
  await Deno.writeTextFile(outside, "[defaults]\nline_length = 100\n");
  await live.sync();
  assert.equal(live.outcome(a, "sig"), undefined);
  assert.match(live.stats().lastReset ?? "", /outside the root changed/);
  await Deno.remove(outside);
  await done();
});

Deno.test("an edit to a config file a run used, whatever its name, changes the shape", async () => {
  const { live, root, done } = await workspace();
  const base = join(root, "config/base-settings.toml");
  live.noteSources([base, join(root, "poly.toml")]);
  live.rememberShaped("k", ["x"], live.position());
  live.apply(event("modify", join(root, "config/other.toml")));
  assert.deepEqual(live.shaped("k"), ["x"], "a TOML file no run used");
  live.apply(event("modify", base));
  assert.equal(live.shaped("k"), undefined, "an extends base");
  await done();
});

Deno.test("a change to the program's own files is seen: the process runs outdated code from then on", async () => {
  const base = await Deno.realPath(await tempDir({ prefix: "poly-live-own-" }));
  await Deno.mkdir(join(base, "repo"));
  await Deno.mkdir(join(base, "program", "lib"), { recursive: true });
  await Deno.writeTextFile(join(base, "program", "main.ts"), "// v1\n");
  const live = await LiveWorkspace.open(join(base, "repo"), join(base, "markers"), [
    join(base, "program", "main.ts"),
    join(base, "program", "lib"),
    join(base, "program", "missing.json"),
  ]);
  try {
    await Deno.writeTextFile(join(base, "repo", "a.ts"), "x\n");
    await live.sync();
    assert.equal(live.ownChanged, false, "a change in the watched tree is not the program's");
    await Deno.writeTextFile(join(base, "program", "lib", "mod.ts"), "// new\n");
    await live.sync();
    assert.equal(live.ownChanged, true);
  } finally {
    live.close();
    await Deno.remove(base, { recursive: true });
  }
});
