/**
 * The self-fingerprint: what a process runs from, and noticing when it changes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BUILD_ID, VERSION } from "../../lib/identity/build.ts";
import {
  checkFingerprint,
  completeTree,
  extendWithGraph,
  fingerprintDigest,
  moduleGraph,
  staleMessage,
  takeFingerprint,
} from "../../lib/identity/fingerprint.ts";
import { tempDir } from "../_helpers/temp.ts";

async function program(): Promise<string> {
  const dir = await tempDir({ prefix: "poly-fp-" });
  const files: Record<string, string> = {
    "main.ts": [
      'import { a } from "./lib/a.ts";',
      'export * from "./lib/re.ts";',
      'import "./lib/side.ts";',
      'import { z } from "zod";',
      'import x from "npm:left-pad";',
      '// see ./lib/comment.ts, and import("./lib/missing.ts") in a comment',
      'const b = await import("./lib/b.ts");',
      'const wasm = new URL("./lib/engine.wasm", import.meta.url);',
      'import data from "./deno.json" with { type: "json" };',
    ].join("\n"),
    "lib/a.ts": 'export { c } from "../shared/c.ts";\nexport const a = 1;\n',
    "lib/b.ts": "export const b = 2;\n",
    "lib/re.ts": "export const re = 3;\n",
    "lib/side.ts": "console.log(1);\n",
    "lib/engine.wasm": "\0asm",
    "lib/unused.ts": "export const unused = 1;\n",
    "lib/builtin/rule.yml": "id: x\n",
    "docs/notes.ts": "export const notes = 1;\n",
    "shared/c.ts": "export const c = 4;\n",
    "deno.json": "{}\n",
    "deno.lock": "{}\n",
  };
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, path), text);
  }
  return dir;
}

Deno.test("moduleGraph() follows static, re-exported, side-effect, dynamic and asset specifiers", async () => {
  const dir = await program();
  const files = [...moduleGraph(join(dir, "main.ts"))].map((f) => f.slice(dir.length + 1)).sort();
  assert.deepEqual(files, [
    "deno.json",
    "lib/a.ts",
    "lib/b.ts",
    "lib/engine.wasm",
    "lib/re.ts",
    "lib/side.ts",
    "main.ts",
    "shared/c.ts",
  ]);
});

Deno.test("takeFingerprint() covers the source tree at once and the rest of the module graph when extended", async () => {
  const dir = await program();
  const main = join(dir, "main.ts");
  const paths = (print: { entries: { path: string }[] }) =>
    print.entries.map((e) => e.path.slice(dir.length + 1)).sort();
  const deferred = takeFingerprint({ kind: "modules", main, graph: "defer" });
  assert.ok(paths(deferred).includes("lib/unused.ts"), "every file under lib/");
  assert.ok(!paths(deferred).includes("shared/c.ts"));
  extendWithGraph(deferred);
  assert.ok(paths(deferred).includes("shared/c.ts"), "graph modules outside lib/ and tools/");
  assert.ok(!paths(deferred).includes("docs/notes.ts"));
  assert.deepEqual(paths(deferred), paths(takeFingerprint({ kind: "modules", main })));
});

Deno.test("checkFingerprint() notices a modified, replaced or deleted module", async () => {
  const dir = await program();
  const main = join(dir, "main.ts");
  let print = takeFingerprint({ kind: "modules", main });
  assert.equal(print.kind, "modules");
  assert.ok(print.entries.some((e) => e.path === join(dir, "deno.lock")), "deno.lock is watched");
  assert.equal(checkFingerprint(print), undefined);
  await Deno.writeTextFile(join(dir, "docs/notes.ts"), "changed\n");
  assert.equal(checkFingerprint(print), undefined, "a file outside the program does not matter");
  await Deno.writeTextFile(join(dir, "lib/builtin/rule.yml"), "id: changed\n");
  assert.deepEqual(
    checkFingerprint(print),
    { path: join(dir, "lib/builtin/rule.yml"), change: "modified" },
    "data files under lib/ count",
  );
  print = takeFingerprint({ kind: "modules", main });

  await Deno.writeTextFile(join(dir, "lib/b.ts"), "export const b = 22;\n");
  assert.deepEqual(checkFingerprint(print), { path: join(dir, "lib/b.ts"), change: "modified" });

  print = takeFingerprint({ kind: "modules", main });
  const tmp = join(dir, "shared/c.ts.new");
  await Deno.writeTextFile(tmp, "export const c = 4;\n");
  await Deno.rename(tmp, join(dir, "shared/c.ts"));
  assert.deepEqual(checkFingerprint(print), { path: join(dir, "shared/c.ts"), change: "replaced" });

  print = takeFingerprint({ kind: "modules", main });
  await Deno.remove(join(dir, "lib/engine.wasm"));
  assert.deepEqual(checkFingerprint(print), { path: join(dir, "lib/engine.wasm"), change: "deleted" });
});

Deno.test("takeFingerprint() of a compiled binary records the executable", () => {
  const print = takeFingerprint({ kind: "executable" });
  assert.equal(print.executable, Deno.execPath());
  assert.equal(print.entries.length, 1);
  assert.ok(print.entries[0].ino > 0 && print.entries[0].size > 0);
  assert.equal(checkFingerprint(print), undefined);
  const tampered = { ...print, entries: [{ ...print.entries[0], ino: print.entries[0].ino + 1 }] };
  assert.equal(checkFingerprint(tampered)?.change, "replaced");
});

Deno.test("staleMessage() names pid, version, build id and uptime and asks for a restart", async () => {
  const dir = await program();
  const print = takeFingerprint({ kind: "modules", main: join(dir, "main.ts") });
  const message = staleMessage(print, { path: join(dir, "lib/a.ts"), change: "replaced" });
  assert.match(
    message,
    new RegExp(`pid ${Deno.pid}, version ${VERSION.replaceAll(".", "\\.")}, build ${BUILD_ID}, up \\d+ s`),
  );
  assert.match(message, /lib\/a\.ts" was replaced/);
  assert.match(message, /Restart the MCP server/);
});

Deno.test("fingerprintDigest() changes when a watched file changes", async () => {
  const dir = await program();
  const main = join(dir, "main.ts");
  const before = fingerprintDigest(takeFingerprint({ kind: "modules", main }));
  assert.equal(fingerprintDigest(takeFingerprint({ kind: "modules", main })), before);
  await Deno.writeTextFile(join(dir, "lib/a.ts"), "export const a = 11;\n");
  assert.notEqual(fingerprintDigest(takeFingerprint({ kind: "modules", main })), before);
});

Deno.test("the repository's own fingerprint covers the server and every tool module", () => {
  const repo = fileURLToPath(new URL("../../", import.meta.url));
  const files = moduleGraph(join(repo, "main.ts"));
  for (
    const path of [
      "tools/serve/mod.ts",
      "tools/serve/stdio.ts",
      "tools/mod.ts",
      "tools/lint.ts",
      "lib/run/mod.ts",
      "lib/workspace/mod.ts",
    ]
  ) {
    assert.ok(files.has(join(repo, path)), `${path} is watched`);
  }
});

Deno.test('tree: "defer" records main.ts, deno.json and deno.lock at once and the source tree at the first check', async () => {
  const dir = await program();
  const print = takeFingerprint({ kind: "modules", main: join(dir, "main.ts"), graph: "defer", tree: "defer" });
  assert.deepEqual(print.entries.map((e) => e.path.slice(dir.length + 1)).sort(), [
    "deno.json",
    "deno.lock",
    "main.ts",
  ]);
  assert.equal(print.treePending, true);
  completeTree(print);
  assert.equal(print.treePending, undefined);
  assert.ok(print.entries.some((e) => e.path === join(dir, "lib", "a.ts")));
  const whole = takeFingerprint({ kind: "modules", main: join(dir, "main.ts"), graph: "defer" });
  assert.deepEqual(print.entries, whole.entries);
  assert.equal(checkFingerprint(print), undefined);

  // A check completes a pending tree first, so an early call still sees a changed source file.
  const early = takeFingerprint({ kind: "modules", main: join(dir, "main.ts"), graph: "defer", tree: "defer" });
  assert.equal(checkFingerprint(early), undefined);
  await Deno.writeTextFile(join(dir, "lib", "a.ts"), "export const a = 2;\n// changed\n");
  assert.deepEqual(checkFingerprint(early), { path: join(dir, "lib", "a.ts"), change: "modified" });
});
