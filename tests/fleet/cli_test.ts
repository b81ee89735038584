/**
 * The CLI mirror, run as users run it (deno run with the program's permission
 * set): `poly delegate`, `poly sessions`, `poly rate`, `poly stats`, and the
 * refusal without bwrap.
 */
import assert from "node:assert/strict";
import { runPoly } from "../_helpers/cli.ts";
import { FAKE_BIN, FAKE_PATH, makeHome, makeWorkspace } from "./_helpers.ts";
import { findExecutable } from "../../lib/fleet/sandbox.ts";
import { bwrapTest } from "../_helpers/bwrap.ts";
import { tempDir } from "../_helpers/temp.ts";

bwrapTest("poly delegate → sessions → rate → stats", async () => {
  const cwd = await makeWorkspace();
  const env = { HOME: await makeHome(), PATH: FAKE_PATH };
  const d = await runPoly(["delegate", "--level", "4", "--effort", "low", "write the changelog"], { cwd, env });
  assert.equal(d.code, 0, d.stderr);
  assert.equal(d.stdout, "claude answer (model claude-opus-5-5, effort low): write the changelog\n");
  const handle = /^session: (claude:[\w-]+) \(claude, claude-opus-5-5, low, \d+ ms\)\n$/.exec(d.stderr)?.[1];
  assert.ok(handle, d.stderr);

  const s = await runPoly(["sessions", "--format", "json"], { cwd, env });
  assert.equal(s.code, 0, s.stderr);
  const [rec] = JSON.parse(s.stdout).sessions;
  assert.equal(rec.handle, handle);
  assert.equal(rec.tool, "delegate");

  const r = await runPoly(["rate", handle!, "5", "--note", "solid"], { cwd, env });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, `rated ${handle} (delegate, claude): 5\n`);

  const st = await runPoly(["stats", "--format", "json"], { cwd, env });
  assert.equal(st.code, 0, st.stderr);
  const doc = JSON.parse(st.stdout);
  const del = doc.tools.find((t: { tool: string }) => t.tool === "delegate");
  assert.deepEqual([del.calls, del.ratings.count, del.ratings.mean], [1, 1, 5]);
  assert.equal(doc.engines[0].engine, "claude");
});

Deno.test("poly delegate refuses to run without bwrap, saying how to install it", async () => {
  const cwd = await makeWorkspace();
  const d = await runPoly(["delegate", "--level", "1", "hi"], { cwd, env: { HOME: await makeHome(), PATH: FAKE_BIN } });
  assert.equal(d.code, 2);
  assert.match(d.stderr, /^error: bubblewrap \(bwrap\) is required to run engines and was not found: install it/);
  assert.match(d.stderr, /POLY_SANDBOX=off/);
  assert.equal(d.stdout, "");
});

bwrapTest("a bwrap other than the one the run permission allows is refused with the reason", async () => {
  const cwd = await makeWorkspace();
  const dir = await tempDir();
  const bwrap = await findExecutable("bwrap", Deno.env.get("PATH"));
  assert.ok(bwrap, "bwrap is needed for this test");
  await Deno.copyFile(bwrap, `${dir}/bwrap`);
  await Deno.chmod(`${dir}/bwrap`, 0o755);
  const d = await runPoly(["delegate", "--level", "1", "hi"], {
    cwd,
    env: { HOME: await makeHome(), PATH: FAKE_PATH, POLY_BWRAP_BIN: `${dir}/bwrap` },
  });
  assert.equal(d.code, 2);
  assert.match(
    d.stderr,
    /poly may not start ".*\/bwrap": its run permission allows only the programs named in deno\.json/,
  );
  assert.match(d.stderr, /POLY_BWRAP_BIN must name the bwrap that poly's run permission allows/);
});
