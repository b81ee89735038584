/**
 * The sandbox, observed from inside by the fake engines: an empty HOME with only
 * that engine's auth and state files, non-auth files of the real home
 * invisible, a cleared environment, a read-only workspace for the read-only
 * tools, refusal without bwrap, and the process tree killed on timeout.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { delegate, explore, followUp, readSlice, webLookup } from "../../lib/fleet/mod.ts";
import { FAKE_BIN, fleetContext, fleetError, makeWorkspace, runs } from "./_helpers.ts";
import { inProcessWith } from "../_helpers/isolated.ts";
import { bwrapTest, needsBwrap, NO_BWRAP } from "../_helpers/bwrap.ts";

const noBwrap = NO_BWRAP;

async function probe(ctx: Awaited<ReturnType<typeof fleetContext>>, level: number, extra: string[] = []) {
  const secret = [".codex/config.toml", ".claude/settings.json", "secret-notes.txt", ".ssh/id_ed25519", ...extra]
    .map((p) => join(ctx.home, p));
  const out = await delegate(ctx, { prompt: `[[probe:${secret.join(",")}]]`, level: level as 1 });
  return JSON.parse(out.answer) as {
    home: string;
    homeTree: string[];
    env: string[];
    exists: Record<string, boolean>;
    isSandbox: string | null;
    cwd: string;
  };
}

bwrapTest("codex sees an empty HOME with only its own auth and session store", async () => {
  const ctx = await fleetContext();
  const p = await probe(ctx, 1, [".claude/.credentials.json", ".claude.json"]);
  assert.equal(p.home, ctx.home);
  assert.deepEqual(p.homeTree, [".codex/", ".codex/auth.json", ".codex/sessions/"]);
  for (const [path, seen] of Object.entries(p.exists)) assert.equal(seen, false, `${path} is visible to codex`);
  assert.equal(p.cwd, ctx.root);
});

bwrapTest("claude sees only its credentials, state file and projects; IS_SANDBOX is set", async () => {
  const ctx = await fleetContext();
  const p = await probe(ctx, 4, [".codex/auth.json"]);
  assert.deepEqual(p.homeTree, [".claude.json", ".claude/", ".claude/.credentials.json", ".claude/projects/"]);
  for (const [path, seen] of Object.entries(p.exists)) assert.equal(seen, false, `${path} is visible to claude`);
  assert.equal(p.isSandbox, "1");
});

bwrapTest("the engine's environment is rebuilt from an allow-list", async () => {
  const ctx = await fleetContext({
    env: { OPENAI_API_KEY: "sk-test", GITHUB_TOKEN: "nope", AWS_SECRET_ACCESS_KEY: "nope" },
  });
  const p = await probe(ctx, 1);
  assert.deepEqual(p.env, [
    "HOME",
    "LANG",
    "LOGNAME",
    "NO_COLOR",
    "OPENAI_API_KEY",
    "PATH",
    "PWD",
    "TERM",
    "TMPDIR",
    "USER",
  ]);
});

bwrapTest("toolchain folders of the real home are bound read-only; credentials beside them are not", async () => {
  const ctx = await fleetContext();
  await Deno.mkdir(join(ctx.home, ".cargo", "bin"), { recursive: true });
  await Deno.writeTextFile(join(ctx.home, ".cargo", "bin", "cargo-x"), "");
  await Deno.writeTextFile(join(ctx.home, ".cargo", "credentials.toml"), "token = 'x'");
  const p = await probe(ctx, 1, [".cargo/credentials.toml"]);
  assert.ok(p.homeTree.includes(".cargo/bin/cargo-x"));
  assert.equal(p.exists[join(ctx.home, ".cargo/credentials.toml")], false);
});

bwrapTest("read-only tools cannot write the workspace; delegate can", async () => {
  const ctx = await fleetContext();
  const ro = await explore(ctx, { question: "[[write]]" });
  assert.match(ro.answer, /^write: EROFS /);
  const slice = await readSlice(ctx, { files: ["README.md"], want: "[[write]]" });
  assert.match(slice.answer, /^write: EROFS /);
  const web = await webLookup(ctx, { query: "[[write]]" });
  assert.match(web.answer, /^write: EROFS /);
  await assert.rejects(Deno.stat(join(ctx.root, "poly-write-probe.txt")));
  const rw = await delegate(ctx, { prompt: "[[write]]", level: 1 });
  assert.match(rw.answer, /^write: ok /);
  assert.equal(await Deno.readTextFile(join(ctx.root, "poly-write-probe.txt")), "written by the engine\n");
});

bwrapTest("a follow_up of a read-only session stays read-only and resumes the engine's own session", async () => {
  const ctx = await fleetContext();
  const first = await explore(ctx, { question: "where is main" });
  const next = await followUp(ctx, { session_id: first.session_id!, prompt: "now [[write]]" });
  assert.match(next.answer, new RegExp(`^resumed ${first.session_id!.slice(6)} at turn 2 after "`));
  assert.match(next.answer, /write: EROFS/);
  assert.equal(next.session_id, first.session_id);
  assert.equal(ctx.store.session(first.session_id!)?.turns, 2);
});

Deno.test("a workspace that contains the home directory is refused", async () => {
  const ctx = await fleetContext();
  const inHome = await fleetContext({ home: ctx.home, root: ctx.home });
  const e = await fleetError(delegate(inHome, { prompt: "x", level: 1 }), "invalid_request");
  assert.match(e.message, /contains the home directory/);
  assert.deepEqual(runs(inHome), []);
});

Deno.test("without bwrap the delegation tools refuse, saying how to install it", async () => {
  const missing = await fleetContext({ env: { POLY_BWRAP_BIN: "/nonexistent/bwrap" } });
  const e = await fleetError(delegate(missing, { prompt: "x", level: 1 }), "sandbox_unavailable");
  assert.match(e.message, /apt install bubblewrap/);
  assert.match(e.message, /POLY_SANDBOX=off/);
  assert.deepEqual(runs(missing), []);
  const noPath = await fleetContext({ env: { PATH: FAKE_BIN } });
  await fleetError(explore(noPath, {}), "sandbox_unavailable");
});

Deno.test("with POLY_SANDBOX=off, read-only tools accept only codex, which runs with -s read-only", async () => {
  const ctx = await fleetContext({ sandbox: false });
  const e = await fleetError(explore(ctx, { engine: "claude" }), "engine_unavailable");
  assert.match(e.message, /only codex has its own read-only mode/);
  const p = JSON.parse((await explore(ctx, { question: "[[probe]]" })).answer);
  assert.equal(p.readOnly, true);
  assert.equal(p.home, ctx.home); // unconfined: the real HOME
});

/** Whether `pid` runs (a zombie waiting for a reaper counts as dead). */
async function alive(pid: number): Promise<boolean> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

async function size(path: string): Promise<number> {
  try {
    return (await Deno.stat(path)).size;
  } catch {
    return -1;
  }
}

async function settle(path: string): Promise<[number, number]> {
  // The heartbeat grows every 50 ms while the grandchild lives.
  const a = await size(path);
  await new Promise((r) => setTimeout(r, 400));
  return [a, await size(path)];
}

/** Waits until `path` exists (the hang scenario's grandchild has started). */
async function started(path: string, withinMs = 30_000): Promise<void> {
  const until = Date.now() + withinMs;
  while ((await size(path)) <= 0) {
    if (Date.now() > until) throw new Error(`${path} never appeared: the engine's grandchild did not start`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

bwrapTest("on timeout the sandboxed process tree is killed", async () => {
  const ctx = await fleetContext({ env: { POLY_TIMEOUT_MS: "5000" } });
  const beat = join(ctx.root, "poly-hang-heartbeat.txt");
  const call = fleetError(delegate(ctx, { prompt: "[[hang]]", level: 1 }), "timeout");
  await Promise.race([started(beat), call]);
  const e = await call;
  assert.match(e.message, /ran longer than 5000 ms \(POLY_TIMEOUT_MS\) and was killed with its process tree/);
  const [a, b] = await settle(beat);
  assert.ok(a > 0, "the grandchild never started");
  assert.equal(b, a, "the grandchild outlived the timeout");
  assert.deepEqual(runs(ctx).map((r) => r.outcome), ["timeout"]);
});

Deno.test("on timeout with the sandbox off the whole process group is killed", async () => {
  const ctx = await fleetContext({ sandbox: false, env: { POLY_TIMEOUT_MS: "5000" } });
  const beat = join(ctx.root, "poly-hang-heartbeat.txt");
  const call = fleetError(delegate(ctx, { prompt: "[[hang]]", level: 1 }), "timeout");
  await Promise.race([started(beat), call]);
  await call;
  const pids = (await Deno.readTextFile(join(ctx.root, "poly-hang-pids.txt"))).trim().split(" ").map(Number);
  for (const pid of pids) assert.equal(await alive(pid), false, `process ${pid} is still alive`);
  const [a, b] = await settle(beat);
  assert.ok(a > 0, "the grandchild never started");
  assert.equal(b, a);
});

bwrapTest("cancelling a call kills the engine", async () => {
  const ac = new AbortController();
  const ctx = { ...(await fleetContext()), signal: ac.signal };
  const beat = join(ctx.root, "poly-hang-heartbeat.txt");
  const call = fleetError(delegate(ctx, { prompt: "[[hang]]", level: 1 }), "cancelled");
  await started(beat);
  ac.abort();
  await call;
  const [a, b] = await settle(beat);
  assert.ok(a > 0);
  assert.equal(b, a);
});

Deno.test({
  name: `poly's state and cache homes stay hidden when the workspace holds them${needsBwrap(noBwrap)}`,
  ignore: noBwrap,
  async fn() {
    // In its own process: poly's homes come from POLY_STATE_HOME / POLY_CACHE_HOME of the process.
    const root = await makeWorkspace();
    const state = join(root, ".poly-state");
    const cache = join(root, ".poly-cache");
    for (const dir of [state, cache]) await Deno.mkdir(dir);
    await Deno.writeTextFile(join(state, "poly.db"), "db");
    await Deno.writeTextFile(join(state, "gateway.key"), "key");
    await Deno.writeTextFile(join(cache, "entry"), "cached");
    const code = `
      const { delegate } = await import(REPO + "/lib/fleet/mod.ts");
      const { fleetContext } = await import(REPO + "/tests/fleet/_helpers.ts");
      const ctx = await fleetContext({ root: ${JSON.stringify(root)} });
      const paths = ${JSON.stringify([join(state, "poly.db"), join(state, "gateway.key"), join(cache, "entry")])};
      const out = await delegate(ctx, { prompt: "[[probe:" + [...paths, ${
      JSON.stringify(join(root, "README.md"))
    }].join(",") + "]]", level: 1 });
      console.log(JSON.stringify(JSON.parse(out.answer).exists));
    `;
    const seen = await inProcessWith({ POLY_STATE_HOME: state, POLY_CACHE_HOME: cache }, code);
    assert.deepEqual(seen, {
      [join(state, "poly.db")]: false,
      [join(state, "gateway.key")]: false,
      [join(cache, "entry")]: false,
      [join(root, "README.md")]: true,
    });
  },
});
