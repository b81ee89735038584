/**
 * The shared remote cache (lib/cache/remote) against the real
 * `turborepo-remote-cache` npm server on a loopback port: a second runner that
 * is cold locally is answered remotely, tampered or foreign artifacts are
 * refused and counted, and a server that hangs, is down, or refuses the token
 * costs a bounded time and a warning — never the lint.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runPoly } from "../_helpers/cli.ts";
import { CacheStatsDocument } from "../../tools/cache_stats.ts";
import { freePort, hangingServer, type RemoteServer, serverCli, startServer } from "./_remote_server.ts";
import { tempDir } from "../_helpers/temp.ts";
import { openCache } from "../../lib/cache/db.ts";
import { RemoteSession, remoteSettings } from "../../lib/cache/remote/mod.ts";

/** Copies the files of `from` (a flat tree and its folders) to `to`. */
async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isDirectory) await copyTree(join(from, entry.name), join(to, entry.name));
    else await Deno.copyFile(join(from, entry.name), join(to, entry.name));
  }
}

const found = await serverCli();
const skip = "reason" in found ? found.reason : undefined;
if (skip) console.warn(`remote cache tests skipped: ${skip}`);
const cli = "cli" in found ? found.cli : "";

async function tree(): Promise<string> {
  const dir = await tempDir({ prefix: "poly-remote-tree-" });
  await Deno.writeTextFile(join(dir, "poly.toml"), '[lint.python.ruff]\nselect = ["E", "F"]\n');
  for (let i = 0; i < 30; i++) {
    await Deno.writeTextFile(join(dir, `m${i}.py`), `import os\nx${i} = ${i}\n`);
    await Deno.writeTextFile(join(dir, `t${i}.ts`), `export const a${i} = ${i} == 0 ? 1 : 2;\n`);
  }
  return dir;
}

async function home(): Promise<string> {
  return await tempDir({ prefix: "poly-remote-home-" });
}

interface Lint {
  code: number;
  stderr: string;
  results: unknown[];
  cache: { hits: number; misses: number };
}

async function lint(dir: string, cacheHome: string, env: Record<string, string>): Promise<Lint> {
  const run = await runPoly(["lint", "--format", "json", "--no-workspace"], {
    cwd: dir,
    env: { POLY_CACHE_HOME: cacheHome, ...env },
  });
  assert.ok(run.stdout.startsWith("{"), run.stderr);
  const doc = JSON.parse(run.stdout);
  return { code: run.code, stderr: run.stderr, results: doc.results, cache: doc.summary.cache };
}

function remoteEnv(server: { url: string; token: string }, extra: Record<string, string> = {}) {
  return {
    POLY_REMOTE_CACHE_URL: server.url,
    POLY_REMOTE_CACHE_TOKEN: server.token,
    POLY_REMOTE_CACHE_TEAM: "team_poly",
    POLY_REMOTE_CACHE_SIGNING_KEY: "shared secret",
    ...extra,
  };
}

async function remoteStats(dir: string, cacheHome: string) {
  const run = await runPoly(["cache", "stats", "--format", "json"], { cwd: dir, env: { POLY_CACHE_HOME: cacheHome } });
  return JSON.parse(run.stdout).remote;
}

async function withServer(fn: (server: RemoteServer) => Promise<void>) {
  const server = await startServer(cli);
  try {
    await fn(server);
  } finally {
    await server.stop();
  }
}

Deno.test({
  name: "remote cache: a second cache home is cold locally and answered entirely from the shared server",
  ignore: skip !== undefined,
  fn: () =>
    withServer(async (server) => {
      const dir = await tree();
      const first = await lint(dir, await home(), remoteEnv(server));
      assert.equal(first.cache.hits, 0);
      assert.equal(first.code, 1);
      const second = await lint(dir, await home(), remoteEnv(server));
      assert.equal(second.cache.misses, 0, second.stderr);
      assert.equal(second.cache.hits, first.cache.misses);
      assert.deepEqual(second.results, first.results);
      assert.equal(second.code, first.code);
      assert.equal(second.stderr, "");
      // Batched: far fewer artifacts than results.
      const stored = [...Deno.readDirSync(join(server.storage, "team_poly"))].length;
      assert.ok(stored >= 2 && stored <= 3, `${stored} artifacts stored for ${first.cache.misses} results`);
    }),
});

Deno.test({
  name: "remote cache: a checkout of the same repository at another path is answered from the server",
  ignore: skip !== undefined,
  fn: () =>
    withServer(async (server) => {
      // Its configuration and its own rule folder are named by path in the keys: relative to each checkout.
      const dir = await tree();
      await Deno.mkdir(join(dir, ".poly", "rules"), { recursive: true });
      await Deno.writeTextFile(
        join(dir, ".poly", "rules", "no-alert.yml"),
        "id: mine-no-alert\nlanguage: TypeScript\nseverity: warning\nmessage: no alert\nrule:\n  pattern: alert($A)\n",
      );
      await Deno.writeTextFile(join(dir, "alert.ts"), "alert(1);\n");
      const other = join(await tempDir({ prefix: "poly-remote-elsewhere-" }), "deeper", "repo");
      await Deno.mkdir(join(other, ".."), { recursive: true });
      await copyTree(dir, other);
      const first = await lint(dir, await home(), remoteEnv(server));
      assert.equal(first.cache.hits, 0);
      assert.ok(JSON.stringify(first.results).includes("mine-no-alert"), "the repository's own rule ran");
      const second = await lint(other, await home(), remoteEnv(server));
      assert.equal(second.cache.misses, 0, second.stderr);
      assert.equal(second.cache.hits, first.cache.misses);
      assert.deepEqual(second.results, first.results);
      assert.equal(second.code, first.code);
    }),
});

Deno.test({
  name: "remote cache: a result that quotes its checkout's path is taken only by a checkout at that path",
  ignore: skip !== undefined,
  fn: () =>
    withServer(async (server) => {
      const settings = remoteSettings({ remote: server.url })!;
      Object.assign(settings, { token: server.token, team: "team_poly", signingKey: "k" });
      const anchor = await tempDir({ prefix: "poly-remote-anchor-" });
      const elsewhere = await tempDir({ prefix: "poly-remote-anchor-" });
      const plain = { diagnostics: [{ engine: "x", severity: "error", title: "plain" }] };
      const quoting = {
        diagnostics: [{ engine: "x", severity: "error", title: `cannot read ${anchor}/tsconfig.json` }],
      };
      const origin = await openCache({ anchor, root: await home() });
      origin.set("lint", "a".repeat(64), plain);
      origin.set("lint", "b".repeat(64), quoting);
      origin.close();
      const index = "c".repeat(64);
      await new RemoteSession(settings, origin.path!, index, () => {}).push(["lint"], 2);
      const received = async (at: string) => {
        const cache = await openCache({ anchor: at, root: await home() });
        await new RemoteSession(settings, cache.path!, index, () => {}).pull();
        const got = [cache.get("lint", "a".repeat(64)), cache.get("lint", "b".repeat(64))];
        cache.close();
        return got;
      };
      assert.deepEqual(await received(elsewhere), [plain, undefined]);
      assert.deepEqual(await received(anchor), [plain, quoting]);
    }),
});

Deno.test({
  name: "remote cache: stats show remote hits, misses and bytes",
  ignore: skip !== undefined,
  fn: () =>
    withServer(async (server) => {
      const dir = await tree();
      const h1 = await home();
      await lint(dir, h1, remoteEnv(server));
      const s1 = await remoteStats(dir, h1);
      assert.equal(s1.misses, 1); // no index yet
      assert.ok(s1.rows_out > 0 && s1.bytes_out > 0);
      const h2 = await home();
      await lint(dir, h2, remoteEnv(server));
      const s2 = await remoteStats(dir, h2);
      assert.ok(s2.hits >= 2 && s2.rows_in === s1.rows_out && s2.bytes_in > 0, JSON.stringify(s2));
      assert.equal(s2.refusals, 0);
      // The MCP tool cache_stats carries the same counters.
      assert.deepEqual(CacheStatsDocument.shape.remote.parse(s2), s2);
      const human = await runPoly(["cache", "stats"], { cwd: dir, env: { POLY_CACHE_HOME: h2 } });
      assert.match(human.stdout, /remote cache: http:\/\/127\.0\.0\.1:\d+\n\s+\d+ hits, 0 misses, 0 refused/);
    }),
});

Deno.test({
  name: "remote cache: a tampered artifact and a foreign key are refused and counted; the run stays correct",
  ignore: skip !== undefined,
  fn: () =>
    withServer(async (server) => {
      const dir = await tree();
      const first = await lint(dir, await home(), remoteEnv(server));
      // Someone with write access to the storage flips a byte in every batch (not the index).
      const team = join(server.storage, "team_poly");
      const files = [...Deno.readDirSync(team)].map((e) => join(team, e.name));
      const sizes = files.map((f) => Deno.statSync(f).size);
      const batch = files[sizes.indexOf(Math.max(...sizes))];
      const bytes = Deno.readFileSync(batch);
      bytes[bytes.length - 3] ^= 0xff;
      Deno.writeFileSync(batch, bytes);
      const h = await home();
      const second = await lint(dir, h, remoteEnv(server));
      assert.match(second.stderr, /refused remote cache artifact "[0-9a-f]{16}" \(signature does not match\)/);
      assert.deepEqual(second.results, first.results);
      assert.equal(second.code, first.code);
      assert.ok(second.cache.misses > 0);
      assert.equal((await remoteStats(dir, h)).refusals, 1);
      // A runner with another signing key refuses everything (the index first).
      const foreign = await lint(dir, await home(), remoteEnv(server, { POLY_REMOTE_CACHE_SIGNING_KEY: "other" }));
      assert.match(foreign.stderr, /refused remote cache artifact .*signature does not match/);
      assert.deepEqual(foreign.results, first.results);
      assert.equal(foreign.cache.hits, 0);
    }),
});

Deno.test({
  name: "remote cache: a wrong token is a warning, and the run is the local one",
  ignore: skip !== undefined,
  fn: () =>
    withServer(async (server) => {
      const dir = await tree();
      const local = await lint(dir, await home(), {});
      const run = await lint(dir, await home(), remoteEnv(server, { POLY_REMOTE_CACHE_TOKEN: "wrong" }));
      assert.match(run.stderr, /remote cache at "http:\/\/127\.0\.0\.1:\d+" failed \(reading the index: HTTP 401/);
      assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
      assert.deepEqual(run.results, local.results);
      assert.equal(run.code, local.code);
    }),
});

Deno.test("remote cache: a server that hangs costs one bounded timeout and a warning", async () => {
  const dir = await tree();
  const local = await lint(dir, await home(), {});
  const hang = hangingServer();
  try {
    const started = Date.now();
    const run = await lint(
      dir,
      await home(),
      remoteEnv({ url: hang.url, token: "t" }, { POLY_REMOTE_CACHE_TIMEOUT_MS: "1500" }),
    );
    const took = Date.now() - started;
    assert.match(run.stderr, /failed \(reading the index: no answer within 1500 ms\); running locally/);
    assert.deepEqual(run.results, local.results);
    assert.equal(run.code, local.code);
    // Without the bound the run would never end; with it, it ends (this is no timing benchmark).
    assert.ok(took < 60_000, `took ${took} ms`);
  } finally {
    hang.stop();
  }
});

Deno.test("remote cache: a server that is down is a warning, and the run is the local one", async () => {
  const dir = await tree();
  const local = await lint(dir, await home(), {});
  const run = await lint(dir, await home(), remoteEnv({ url: `http://127.0.0.1:${freePort()}`, token: "t" }));
  assert.match(
    run.stderr,
    /remote cache at "http:\/\/127\.0\.0\.1:\d+" failed \(reading the index: .*\); running locally/,
  );
  assert.deepEqual(run.results, local.results);
  assert.equal(run.code, local.code);
});

Deno.test("[cache] remote must be an http(s) URL", async () => {
  const dir = await tree();
  await Deno.writeTextFile(join(dir, "poly.toml"), '[cache]\nremote = "ftp://x"\n');
  const run = await runPoly(["lint", "--format", "json", "--no-workspace"], { cwd: dir });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /must be an http:\/\/ or https:\/\/ URL/);
});
