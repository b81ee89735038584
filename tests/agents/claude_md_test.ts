/**
 * The managed CLAUDE.md block on fixture files (`fixtures/hooks/claude-md/`):
 * install, refresh, uninstall; nothing outside the markers changes; backups
 * first; a hand-written `<poly_preference>` section is replaced in place.
 */
import { equal, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { assertGolden, REPO, runPoly } from "../_helpers/cli.ts";
import {
  BLOCK_BEGIN_PREFIX,
  BLOCK_END,
  claudeMdPath,
  installClaudeMd,
  refreshClaudeMdBlock,
  removeBlock,
  renderBlock,
  uninstallClaudeMd,
} from "../../lib/agents/mod.ts";
import { PolyError } from "../../lib/errors/mod.ts";
import { VERSION } from "../../lib/identity/build.ts";
import { tempDir } from "../_helpers/temp.ts";

const FIXTURES = join(REPO, "fixtures", "hooks", "claude-md");
const GOLDEN = join(REPO, "tests", "agents", "golden");

/** Copies a fixture into a fresh `.claude` folder and returns the CLAUDE.md path. */
async function fixture(name?: string): Promise<string> {
  const dir = await tempDir({ prefix: "poly-claude-md-" });
  const path = join(dir, ".claude", "CLAUDE.md");
  if (name) {
    await Deno.mkdir(join(dir, ".claude"));
    await Deno.copyFile(join(FIXTURES, name), path);
  }
  return path;
}

const read = (path: string) => Deno.readTextFile(path);

Deno.test("installClaudeMd() appends the block to a plain file and backs the original up", async () => {
  const path = await fixture("plain.md");
  const original = await read(path);
  const result = await installClaudeMd({ path, version: "1.2.3" });
  equal(result.action, "appended");
  equal(result.backupPath, `${path}.poly.bak`);
  equal(await read(`${path}.poly.bak`), original);
  const text = await read(path);
  ok(text.startsWith(original), "everything before the block is untouched");
  ok(text.endsWith(`${BLOCK_END}\n`));
  await assertGolden(join(GOLDEN, "plain-installed.md"), text);
});

Deno.test("installClaudeMd() twice changes nothing the second time", async () => {
  const path = await fixture("plain.md");
  await installClaudeMd({ path });
  const after = await read(path);
  await Deno.writeTextFile(`${path}.poly.bak`, "sentinel");
  const again = await installClaudeMd({ path });
  equal(again.action, "unchanged");
  equal(again.backupPath, undefined);
  equal(await read(path), after);
  equal(await read(`${path}.poly.bak`), "sentinel", "no write, no new backup");
});

Deno.test("installClaudeMd() replaces a hand-written <poly_preference> section in place", async () => {
  const path = await fixture("legacy.md");
  const result = await installClaudeMd({ path, version: "1.2.3" });
  equal(result.action, "replaced");
  equal(result.legacyReplaced, true);
  const text = await read(path);
  ok(!text.includes("<poly_preference>"));
  ok(text.startsWith("# My global instructions\n\n- Prefer small commits.\n\n<!-- poly:begin v=1.2.3 -->"));
  ok(text.endsWith(`${BLOCK_END}\n\n## Other notes\n- Keep this section.\n`), "text after the section is kept");
  await assertGolden(join(GOLDEN, "legacy-installed.md"), text);
});

Deno.test("installClaudeMd() creates the file and its folder when missing", async () => {
  const path = await fixture();
  const result = await installClaudeMd({ path });
  equal(result.action, "created");
  equal(result.backupPath, undefined);
  equal(await read(path), renderBlock(VERSION));
});

Deno.test("installClaudeMd() with dryRun writes nothing", async () => {
  const path = await fixture("plain.md");
  const original = await read(path);
  const result = await installClaudeMd({ path, dryRun: true });
  equal(result.action, "appended");
  ok(result.text.includes(BLOCK_BEGIN_PREFIX));
  equal(await read(path), original);
  await rejects(Deno.stat(`${path}.poly.bak`));
});

Deno.test("installClaudeMd() refuses malformed markers and leaves the file alone", async () => {
  const path = await fixture("malformed.md");
  const original = await read(path);
  await rejects(installClaudeMd({ path }), (e) => e instanceof PolyError && /Malformed poly block/.test(e.message));
  equal(await read(path), original);
});

Deno.test("refreshClaudeMdBlock() rewrites only the text between the markers", async () => {
  const path = await fixture("managed-old.md");
  const result = await refreshClaudeMdBlock({ path, version: "1.2.3", env: () => undefined });
  equal(result.action, "replaced");
  const text = await read(path);
  ok(text.startsWith("# My global instructions\n\n<!-- poly:begin v=1.2.3 -->"));
  ok(text.endsWith(`${BLOCK_END}\n\n## After the block\n- Keep this too.\n`));
  ok(!text.includes("an outdated rule"));
  await assertGolden(join(GOLDEN, "managed-refreshed.md"), text);
  equal((await refreshClaudeMdBlock({ path, version: "1.2.3", env: () => undefined })).action, "unchanged");
});

Deno.test("refreshClaudeMdBlock() never creates a block, never throws, and obeys POLY_CLAUDE_MD=off", async () => {
  for (const name of ["plain.md", "legacy.md", "malformed.md"]) {
    const path = await fixture(name);
    const original = await read(path);
    const result = await refreshClaudeMdBlock({ path, env: () => undefined });
    equal(result.action, "skipped", name);
    equal(await read(path), original, `${name} untouched`);
  }
  const missing = await fixture();
  equal((await refreshClaudeMdBlock({ path: missing, env: () => undefined })).action, "skipped");
  await rejects(Deno.stat(missing));
  for (const off of ["off", "0", "false", "NO"]) {
    const path = await fixture("managed-old.md");
    const original = await read(path);
    const result = await refreshClaudeMdBlock({ path, env: (k) => (k === "POLY_CLAUDE_MD" ? off : undefined) });
    equal(result.action, "skipped");
    equal(await read(path), original);
  }
});

Deno.test("refreshClaudeMdBlock() finds the file through POLY_CLAUDE_MD_PATH, then HOME", async () => {
  const path = await fixture("managed-old.md");
  const viaEnv = await refreshClaudeMdBlock({ env: (k) => (k === "POLY_CLAUDE_MD_PATH" ? path : undefined) });
  equal(viaEnv.action, "replaced");
  const home = join(path, "..", "..");
  equal(claudeMdPath((k) => (k === "HOME" ? home : undefined)), join(home, ".claude", "CLAUDE.md"));
});

Deno.test("uninstallClaudeMd() restores an appended file exactly, with a backup", async () => {
  const path = await fixture("plain.md");
  const original = await read(path);
  await installClaudeMd({ path });
  const installed = await read(path);
  const result = await uninstallClaudeMd({ path });
  equal(result.action, "removed");
  equal(await read(path), original);
  equal(await read(`${path}.poly.bak`), installed);
  equal((await uninstallClaudeMd({ path })).action, "absent");
});

Deno.test("uninstallClaudeMd() keeps the text around a block in the middle", async () => {
  const path = await fixture("managed-old.md");
  await uninstallClaudeMd({ path });
  equal(await read(path), "# My global instructions\n\n## After the block\n- Keep this too.\n");
});

Deno.test("removeBlock() on a file that is only the block leaves it empty", () => {
  equal(removeBlock(renderBlock("1.0.0")).text, "");
});

Deno.test("poly agents claude-md install --dry-run / install / uninstall", async () => {
  const path = await fixture("plain.md");
  const original = await read(path);
  const dry = await runPoly(["agents", "claude-md", "install", "--dry-run", "--path", path]);
  equal(dry.code, 0, dry.stderr);
  ok(dry.stdout.startsWith(`Would append the poly block to ${path}`), dry.stdout);
  ok(dry.stdout.includes(BLOCK_END));
  equal(await read(path), original);

  const env = { POLY_CLAUDE_MD_PATH: path };
  const install = await runPoly(["agents", "claude-md", "install"], { env });
  equal(install.code, 0, install.stderr);
  ok(install.stdout.includes(`backup: ${path}.poly.bak`), install.stdout);
  ok((await read(path)).includes(BLOCK_BEGIN_PREFIX));

  const uninstall = await runPoly(["agents", "claude-md", "uninstall"], { env });
  equal(uninstall.code, 0, uninstall.stderr);
  equal(await read(path), original);

  const broken = await fixture("malformed.md");
  const bad = await runPoly(["agents", "claude-md", "install", "--path", broken]);
  equal(bad.code, 2);
  ok(bad.stderr.includes("Malformed poly block"), bad.stderr);
});
