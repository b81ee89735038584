import assert from "node:assert/strict";
import { bwrapTest } from "../_helpers/bwrap.ts";
import { join } from "node:path";
import { polyCommand, runPoly } from "../_helpers/cli.ts";
import { callTool, openStore, resolveProfile } from "./_lib.ts";
import { defaultState, type Fixture, makeFixture, startHttp, storeBytes } from "./_fixture.ts";
import { withProcessEnv } from "../_helpers/process_env.ts";
import { tempDir } from "../_helpers/temp.ts";

/** Library calls here stand for a write a person approved (tests/tools/gateway covers proposing). */
const APPROVED = { kind: "approved", proposal: "prop_000000000000", by: "owner (cli)" } as const;

async function home(): Promise<Record<string, string>> {
  const base = await tempDir({ prefix: "poly-gw-cli-" });
  return { POLY_STATE_HOME: join(base, "state"), POLY_CACHE_HOME: join(base, "cache") };
}

function poly(env: Record<string, string>, cwd: string, ...args: string[]) {
  return runPoly(args, { env, cwd });
}

async function json<T = Record<string, unknown>>(
  env: Record<string, string>,
  cwd: string,
  ...args: string[]
): Promise<T> {
  const out = await poly(env, cwd, ...args, "--format", "json");
  assert.equal(out.code, 0, `poly ${args.join(" ")}: ${out.stderr}`);
  return JSON.parse(out.stdout);
}

type Detail = { revision: number; tools_detail: { name: string; fingerprint: string; grant?: { state: string } }[] };

async function registerStdio(env: Record<string, string>, fx: Fixture) {
  const added = await poly(env, fx.dir, "servers", "add", "fx", "--command", fx.commandLine);
  assert.equal(added.code, 0, added.stderr);
  assert.match(added.stdout, /Registered "fx" \(stdio, revision 1\)/);
  assert.match(added.stdout, /None is usable until granted/);
  const detail = await json<Detail>(env, fx.dir, "servers", "show", "fx");
  return Object.fromEntries(detail.tools_detail.map((t) => [t.name, t.fingerprint]));
}

bwrapTest("poly servers and poly grants: register over stdio, grant, refresh, go stale", async () => {
  const env = await home();
  const fx = await makeFixture();
  const fp = await registerStdio(env, fx);

  const refused = await poly(
    env,
    fx.dir,
    "grants",
    "set",
    "fx",
    "get_title",
    "--mode",
    "read",
    "--fingerprint",
    "ab".repeat(32),
  );
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /The approved MCP tool schema changed\. Review the current fingerprint/);
  const read = await poly(
    env,
    fx.dir,
    "grants",
    "set",
    "fx",
    "get_title",
    "--mode",
    "read",
    "--fingerprint",
    fp.get_title,
  );
  assert.equal(read.code, 0, read.stderr);
  assert.match(read.stdout, /Granted "fx\/get_title" as read \(revision 2\)/);
  // No --expected-revision: the output says which revision the write was checked against.
  assert.match(
    read.stdout,
    /Checked against revision 1, read when the command started \(no --expected-revision given; pass --expected-revision 1 to pin it\)/,
  );
  const write = await poly(
    env,
    fx.dir,
    "grants",
    "set",
    "fx",
    "set_title",
    "--mode",
    "write",
    "--fingerprint",
    fp.set_title,
    "--verifier",
    "get_title",
    "--expected-revision",
    "2",
  );
  assert.equal(write.code, 0, write.stderr);
  assert.doesNotMatch(write.stdout, /Checked against/, "a given --expected-revision needs no note");
  const grants = await json<{ grants: { tool: string; state: string }[] }>(env, fx.dir, "grants", "list", "fx");
  assert.deepEqual(grants.grants.map((g) => [g.tool, g.state]), [["get_title", "active"], ["set_title", "active"]]);

  fx.update((s) => {
    s.tools[0].annotations = { readOnlyHint: false };
  });
  const changed = await poly(env, fx.dir, "servers", "refresh", "fx");
  assert.equal(changed.code, 0, changed.stderr);
  assert.match(changed.stdout, /Changed tools \(their grants no longer apply until reviewed again\): get_title/);
  assert.match(changed.stdout, /Checked against revision 3, read when the command started/);
  const after = await json<{ grants: { tool: string; state: string }[] }>(env, fx.dir, "grants", "list");
  assert.deepEqual(after.grants.map((g) => [g.tool, g.state]), [["get_title", "stale"], ["set_title", "unverified"]]);
  const list = await json<{ servers: { name: string; revision: number; grants: { active: number } }[] }>(
    env,
    fx.dir,
    "servers",
    "list",
  );
  assert.equal(list.servers[0].revision, 4);
  assert.equal(list.servers[0].grants.active, 0);
  const human = await poly(env, fx.dir, "servers", "list");
  assert.match(human.stdout, /^NAME\s+TRANSPORT\s+AUTH\s+STATUS\s+REVISION/);
});

bwrapTest("poly grants set: two writers with the same expected revision, one wins", async () => {
  const env = await home();
  const fx = await makeFixture();
  const fp = await registerStdio(env, fx);
  const [a, b] = await Promise.all([
    poly(
      env,
      fx.dir,
      "grants",
      "set",
      "fx",
      "get_title",
      "--mode",
      "read",
      "--fingerprint",
      fp.get_title,
      "--expected-revision",
      "1",
    ),
    poly(
      env,
      fx.dir,
      "grants",
      "set",
      "fx",
      "get_count",
      "--mode",
      "read",
      "--fingerprint",
      fp.get_count,
      "--expected-revision",
      "1",
    ),
  ]);
  assert.deepEqual([a.code, b.code].sort(), [0, 2], `${a.stderr}\n${b.stderr}`);
  const loser = a.code === 2 ? a : b;
  assert.match(loser.stderr, /Server "fx" changed since revision 1 \(it is now at revision 2\)/);
  const detail = await json<Detail>(env, fx.dir, "servers", "show", "fx");
  assert.equal(detail.revision, 2);
  assert.equal(detail.tools_detail.filter((t) => t.grant).length, 1);
});

Deno.test("poly servers add over HTTP: tokens from stdin or a POLY_ variable, sealed; bad URLs refused", async () => {
  const env = await home();
  const token = "fixture-token-9f8e7d6c5b4a";
  const fx = await makeFixture({ ...defaultState(), token });
  const http = await startHttp(fx);
  try {
    const bad = await poly(env, fx.dir, "servers", "add", "bad", "--url", `http://u:p@${new URL(http.url).host}/mcp`);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /is refused: it carries credentials/);
    const noToken = await poly(env, fx.dir, "servers", "add", "web", "--url", http.url);
    assert.equal(noToken.code, 2);
    assert.match(noToken.stderr, /401/);

    const stdin = await runPoly(["servers", "add", "web", "--url", http.url, "--token-stdin"], {
      env,
      cwd: fx.dir,
      stdin: token + "\n",
    });
    assert.equal(stdin.code, 0, stdin.stderr);
    assert.ok(!stdin.stdout.includes(token) && !stdin.stderr.includes(token));

    const viaEnv = await poly(
      { ...env, POLY_FIXTURE_TOKEN: token },
      fx.dir,
      "servers",
      "add",
      "web2",
      "--url",
      http.url,
      "--token-env",
      "POLY_FIXTURE_TOKEN",
    );
    assert.equal(viaEnv.code, 0, viaEnv.stderr);
    const other = await poly(
      { ...env, FIXTURE_TOKEN: token },
      fx.dir,
      "servers",
      "add",
      "web3",
      "--url",
      http.url,
      "--token-env",
      "FIXTURE_TOKEN",
    );
    assert.equal(other.code, 2);
    assert.match(other.stderr, /Variable "FIXTURE_TOKEN" is not readable by poly.*POLY_FIXTURE_TOKEN/);

    const bytes = await storeBytes(env.POLY_STATE_HOME);
    assert.ok(bytes.includes("web2"), "the store holds the servers");
    assert.ok(!bytes.includes(token), "the token is not readable in the store's bytes");
    const key = await Deno.stat(join(env.POLY_STATE_HOME, "gateway.key"));
    assert.equal(key.mode! & 0o777, 0o600);
  } finally {
    await http.close();
  }
});

bwrapTest("poly ops: an unknown write blocks removal until resolved", async () => {
  const env = await home();
  const fx = await makeFixture();
  const fp = await registerStdio(env, fx);
  for (
    const args of [
      ["get_title", "--mode", "read", "--fingerprint", fp.get_title],
      ["set_title", "--mode", "write", "--fingerprint", fp.set_title, "--verifier", "get_title"],
    ]
  ) {
    const out = await poly(env, fx.dir, "grants", "set", "fx", ...args);
    assert.equal(out.code, 0, out.stderr);
  }
  // A write whose verifier hangs, through the library on the same store.
  fx.update((s) => {
    s.handlers!.get_title = { get: "title", delay_ms: 4000 };
  });
  await withProcessEnv({ POLY_STATE_HOME: env.POLY_STATE_HOME }, async () => {
    const db = openStore({ path: join(env.POLY_STATE_HOME, "poly.db") });
    const out = await callTool({ db, profile: resolveProfile(undefined, "default"), timeoutMs: 500 }, {
      authorization: APPROVED,
      target: "fx/set_title",
      schema_sha256: fp.set_title,
      arguments: { value: "new" },
      verification: { tool: "get_title", arguments: {}, result_path: "value", expected: "new" },
    });
    db.close();
    assert.equal(out.operation.status, "unknown");
    const id = out.operation.id;

    const listed = await poly(env, fx.dir, "ops", "list");
    assert.match(listed.stdout, new RegExp(`${id}\\s+fx\\s+write\\s+set_title\\s+unknown`));
    const removal = await poly(env, fx.dir, "servers", "remove", "fx");
    assert.equal(removal.code, 2);
    assert.match(removal.stderr, new RegExp(`Server "fx" has an unresolved MCP mutation \\(${id}\\)`));
    fx.update((s) => {
      s.handlers!.get_title = { get: "title" };
    });
    const verified = await poly(env, fx.dir, "ops", "resolve", id, "--verify");
    assert.equal(verified.code, 0, verified.stderr);
    assert.match(verified.stdout, /Resolved ".*": get_title confirmed the expected value/);
    const all = await json<{ operations: { status: string; resolution?: string }[] }>(
      env,
      fx.dir,
      "ops",
      "list",
      "--all",
    );
    assert.deepEqual(all.operations.map((o) => [o.status, o.resolution]), [["resolved", "confirmed"]]);

    const removed = await poly(env, fx.dir, "servers", "remove", "fx");
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, /Removed "fx"/);
  });
});

Deno.test("poly servers add --oauth prints the authorization URL and waits for the redirect", async () => {
  const env = await home();
  const fx = await makeFixture({ ...defaultState(), oauth: { enabled: true } });
  const http = await startHttp(fx);
  try {
    const [exe, ...rest] = polyCommand();
    const child = new Deno.Command(exe, {
      args: [...rest, "servers", "add", "oa", "--url", http.url, "--oauth"],
      env: { NO_COLOR: "1", ...env },
      cwd: fx.dir,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
    let err = "";
    let url: string | undefined;
    while (!url) {
      const { value, done } = await reader.read();
      if (done) break;
      err += value;
      url = /^(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m.exec(err)?.[1];
    }
    assert.ok(url, `no authorization URL in: ${err}`);
    const authorize = await fetch(url, { redirect: "manual" });
    await authorize.body?.cancel();
    const back = await fetch(authorize.headers.get("location")!);
    assert.match(await back.text(), /poly received the authorization/);
    reader.releaseLock();
    const [status, stdout] = await Promise.all([
      child.status,
      new Response(child.stdout).text(),
      child.stderr.cancel().catch(() => {}),
    ]);
    assert.equal(status.code, 0, err);
    assert.match(stdout, /Registered "oa" \(http, revision 2, connected\)/);
    const list = await json<{ servers: { oauth_status: string; tools: number }[] }>(env, fx.dir, "servers", "list");
    assert.deepEqual([list.servers[0].oauth_status, list.servers[0].tools], ["connected", 4]);
  } finally {
    await http.close();
  }
});

bwrapTest(
  "poly servers add --env reads poly's variable at registration and stores it sealed; --bind-ro is checked",
  async () => {
    const env = await home();
    const fx = await makeFixture();
    const secret = `tok-${crypto.randomUUID()}`;
    const added = await poly(
      { ...env, POLY_FX_TOKEN: secret },
      fx.dir,
      "servers",
      "add",
      "fx",
      "--command",
      fx.commandLine,
      "--env",
      "FX_TOKEN=POLY_FX_TOKEN",
      "--bind-ro",
      fx.dir,
    );
    assert.equal(added.code, 0, added.stderr);
    const db = await Deno.readFile(join(env.POLY_STATE_HOME, "poly.db"));
    assert.equal(new TextDecoder().decode(db).includes(secret), false, "the variable's value is stored in plain text");
    const detail = await json<{ env: string[]; bind_ro: string[] }>(env, fx.dir, "servers", "show", "fx");
    assert.deepEqual([detail.env, detail.bind_ro], [["FX_TOKEN"], [fx.dir]]);
    const shown = await poly(env, fx.dir, "servers", "show", "fx");
    assert.match(shown.stdout, new RegExp(`env \\(sealed\\): FX_TOKEN\nread-only binds: ${fx.dir}\n`));
    assert.doesNotMatch(shown.stdout + JSON.stringify(detail), new RegExp(secret));

    const unreadable = await poly(
      env,
      fx.dir,
      "servers",
      "add",
      "gh",
      "--command",
      fx.commandLine,
      "--env",
      "GH_TOKEN",
    );
    assert.equal(unreadable.code, 2, unreadable.stderr);
    assert.match(
      unreadable.stderr,
      /Variable "GH_TOKEN" is not readable by poly.*export the value as POLY_GH_TOKEN and pass --env GH_TOKEN=POLY_GH_TOKEN/,
    );
    const missing = await poly(env, fx.dir, "servers", "add", "m", "--command", fx.commandLine, "--bind-ro", "nope");
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(missing.stderr, /--bind-ro ".*\/nope" does not exist/);
    const http = await poly(env, fx.dir, "servers", "add", "h", "--url", "https://x.test/mcp", "--env", "A");
    assert.equal(http.code, 2);
    assert.match(http.stderr, /--env and --bind-ro go with --command/);
  },
);
