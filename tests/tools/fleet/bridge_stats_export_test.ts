/**
 * bridge_stats_export: writes the report to a new file inside cwd, and refuses,
 * writing nothing, an existing file without overwrite, anything in `.git/` or
 * `.poly/`, poly's config files at any depth, and any path that leaves the
 * root as written or after resolving links. bridge_stats itself writes nothing.
 * The CLI mirror (`poly stats --export`) keeps the same rules.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { z } from "zod";
import { exportStats } from "../../../lib/fleet/mod.ts";
import { OutsideWorkspaceError } from "../../../lib/errors/mod.ts";
import { WriteTargetError } from "../../../lib/fs/write_target.ts";
import { TOOLS } from "../../../tools/mod.ts";
import { runPoly } from "../../_helpers/cli.ts";
import { fleetContext } from "../../fleet/_helpers.ts";
import { tempDir } from "../../_helpers/temp.ts";

/** A workspace with a source file, poly's config, a .git folder, and a folder outside it. */
async function setup() {
  const outside = await tempDir({ prefix: "poly-outside-" });
  await Deno.writeTextFile(join(outside, "victim.md"), "outside\n");
  const root = await tempDir({ prefix: "poly-export-" });
  await Deno.mkdir(join(root, ".git"));
  await Deno.mkdir(join(root, "sub"));
  await Deno.writeTextFile(join(root, ".git", "HEAD"), "ref: refs/heads/main\n");
  await Deno.writeTextFile(join(root, "poly.toml"), "");
  await Deno.writeTextFile(join(root, "notes.md"), "mine\n");
  await Deno.symlink(outside, join(root, "out-dir"));
  await Deno.symlink(join(outside, "victim.md"), join(root, "out-file.md"));
  await Deno.symlink(join(root, ".git", "HEAD"), join(root, "head.md"));
  await Deno.symlink(join(outside, "missing"), join(root, "dangling"));
  const ctx = await fleetContext({ root });
  return { root, outside, ctx };
}

/** Every file under `dir` with its content (links not followed). */
async function snapshot(dir: string, prefix = ""): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) Object.assign(out, await snapshot(path, `${prefix}${e.name}/`));
    else if (e.isSymlink) out[`${prefix}${e.name}`] = `-> ${await Deno.readLink(path)}`;
    else out[`${prefix}${e.name}`] = await Deno.readTextFile(path);
  }
  return out;
}

Deno.test("exportStats() writes a new report inside cwd, and replaces a file only with overwrite", async () => {
  const { root, ctx } = await setup();
  const first = await exportStats(ctx, {});
  assert.match(first.export_path, /^research\/bench\/\d{4}-\d{2}-\d{2}-ratings\.md$/);
  assert.equal(first.replaced, false);
  assert.match(await Deno.readTextFile(join(root, first.export_path)), /^# poly fleet statistics/);
  await assert.rejects(exportStats(ctx, {}), WriteTargetError);
  await assert.rejects(exportStats(ctx, { path: "notes.md" }), /"notes\.md" already exists: .*overwrite: true/);
  assert.equal(await Deno.readTextFile(join(root, "notes.md")), "mine\n");
  const again = await exportStats(ctx, { path: "notes.md", overwrite: true });
  assert.equal(again.replaced, true);
  assert.match(await Deno.readTextFile(join(root, "notes.md")), /^# poly fleet statistics/);
  const inSub = await exportStats(ctx, { path: "r.md", cwd: "sub" });
  assert.equal(inSub.export_path, "r.md");
  await Deno.stat(join(root, "sub", "r.md"));
  const names = [...Deno.readDirSync(root)].map((e) => e.name);
  assert.ok(!names.some((n) => n.endsWith(".tmp")), `no temporary file is left: ${names}`);
});

Deno.test("exportStats() refuses .git/, .poly/, poly's config, links out of the root and dangling links", async () => {
  const { root, outside, ctx } = await setup();
  const before = { root: await snapshot(root), outside: await snapshot(outside) };
  const refusals: [string, RegExp][] = [
    [".git/HEAD", /inside \.git\/: poly never writes there/],
    [".git/new.md", /inside \.git\//],
    [".GIT/config", /inside \.git\//],
    ["head.md", /inside \.git\//],
    [".poly/rules/x.yml", /inside \.poly\//],
    ["poly.toml", /poly's own configuration \(poly\.toml\)/],
    ["sub/poly.toml", /poly\.toml/],
    ["poly.local.toml", /poly\.local\.toml/],
    ["poly-config.lock", /poly-config\.lock/],
    ["../escape.md", /outside the workspace root/],
    [join(outside, "abs.md"), /outside the workspace root/],
    ["out-dir/report.md", /outside the workspace root/],
    ["out-file.md", /outside the workspace root/],
    ["dangling/report.md", /symbolic link to a missing target/],
    ["dangling", /symbolic link to a missing target/],
    ["sub", /exists and is not a file/],
    ["notes.md/report.md", /"notes\.md" is a file, not a folder/],
  ];
  for (const [path, why] of refusals) {
    await assert.rejects(exportStats(ctx, { path, overwrite: true }), why, path);
  }
  await assert.rejects(exportStats(ctx, { path: "report.md", cwd: "out-dir" }), OutsideWorkspaceError);
  assert.deepEqual(await snapshot(root), before.root, "nothing changed in the workspace");
  assert.deepEqual(await snapshot(outside), before.outside, "nothing changed outside it");
});

Deno.test("bridge_stats is read-level and takes no export; bridge_stats_export is act-level and destructive", () => {
  const stats = TOOLS.find((t) => t.name === "bridge_stats")!;
  const exp = TOOLS.find((t) => t.name === "bridge_stats_export")!;
  assert.equal(stats.level, "read");
  assert.equal(stats.annotations.readOnlyHint, true);
  assert.equal(z.strictObject(stats.inputSchema).safeParse({ export: true }).success, false);
  assert.equal(exp.level, "act");
  assert.equal(exp.annotations.readOnlyHint, false);
  assert.equal(exp.annotations.destructiveHint, true);
  assert.equal(z.strictObject(exp.inputSchema).safeParse({ path: "r.md", overwrite: true }).success, true);
});

Deno.test("poly stats --export refuses an existing file without --overwrite, and poly.toml with it", async () => {
  const { root } = await setup();
  const state = await tempDir({ prefix: "poly-state-" });
  const env = { POLY_STATE_HOME: state, POLY_CACHE_HOME: join(state, "cache") };
  const ok = await runPoly(["stats", "--export", "--output", "r.md"], { cwd: root, env });
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /report written: r\.md/);
  const again = await runPoly(["stats", "--export", "--output", "r.md"], { cwd: root, env });
  assert.equal(again.code, 2);
  assert.match(again.stderr, /"r\.md" already exists/);
  const replaced = await runPoly(["stats", "--export", "--output", "r.md", "--overwrite"], { cwd: root, env });
  assert.equal(replaced.code, 0, replaced.stderr);
  assert.match(replaced.stdout, /report replaced: r\.md/);
  const config = await runPoly(["stats", "--export", "--output", "poly.toml", "--overwrite"], { cwd: root, env });
  assert.equal(config.code, 2);
  assert.match(config.stderr, /poly never writes it/);
  assert.equal(await Deno.readTextFile(join(root, "poly.toml")), "");
  const stray = await runPoly(["stats", "--overwrite"], { cwd: root, env });
  assert.equal(stray.code, 2);
  assert.match(stray.stderr, /--overwrite needs --export/);
});
