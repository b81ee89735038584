import { equal, notEqual } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { cacheKey, type CacheKeyParts, openCache, throughCache } from "../../lib/cache/mod.ts";
import { CACHE_FORMAT } from "../../lib/cache/key.ts";
import { gofmt } from "../../lib/engines/gofmt/mod.ts";
import type { EngineSettings, SourceFile } from "../../lib/engines/types.ts";
import { setProcessEnv } from "../_helpers/process_env.ts";
import { tempDir } from "../_helpers/temp.ts";

const home = await tempDir({ prefix: "poly-cache-test-" });
await setProcessEnv({ POLY_CACHE_HOME: home });

async function anchor(): Promise<string> {
  return await tempDir({ prefix: "poly-anchor-" });
}

function settings(tool: Record<string, unknown> = {}): EngineSettings {
  return {
    defaults: { line_length: 120, line_ending: "lf", final_newline: true, trim_trailing_whitespace: true },
    tool,
  };
}

const base: CacheKeyParts = {
  namespace: "lint",
  engine: "ruff",
  engineVersion: "@astral-sh/ruff-wasm-nodejs 0.17.3#aaaa",
  settings: settings(),
  path: "app/x.py",
  content: "x = 1\n",
  build: "build-1",
};

Deno.test("cacheKey() is stable and changes with every part", async () => {
  const key = await cacheKey(base);
  equal(await cacheKey({ ...base }), key);
  equal(key.length, 64);
  const variants: Partial<CacheKeyParts>[] = [
    { content: "x = 2\n" },
    { settings: settings({ select: ["E"] }) },
    { engineVersion: "@astral-sh/ruff-wasm-nodejs 0.17.4#aaaa" },
    { engineVersion: "@astral-sh/ruff-wasm-nodejs 0.17.3#bbbb" },
    { build: "build-2" },
    { namespace: "fmt" },
    { engine: "biome" },
    { path: "app/y.py" },
  ];
  for (const v of variants) notEqual(await cacheKey({ ...base, ...v }), key, JSON.stringify(v));
});

Deno.test("cacheKey() treats settings canonically (key order does not matter)", async () => {
  const a = await cacheKey({ ...base, settings: { tool: { a: 1, b: 2 }, defaults: { x: 1 } } });
  const b = await cacheKey({ ...base, settings: { defaults: { x: 1 }, tool: { b: 2, a: 1 } } });
  equal(a, b);
});

Deno.test("openCache() hits after no change, across processes' opens", async () => {
  const dir = await anchor();
  const key = await cacheKey(base);
  const first = await openCache({ anchor: dir });
  equal(first.get("lint", key), undefined);
  first.set("lint", key, { diagnostics: [{ code: "F401" }] });
  equal(first.get<{ diagnostics: unknown[] }>("lint", key)?.diagnostics.length, 1, "pending writes are visible");
  first.close();
  const second = await openCache({ anchor: dir });
  equal(second.get<{ diagnostics: { code: string }[] }>("lint", key)?.diagnostics[0].code, "F401");
  equal(second.get("fmt", key), undefined, "namespaces are separate");
  equal(second.counters().lint.hits, 1);
  second.close();
  const mode = (await Deno.stat(join(second.path!, ".."))).mode! & 0o777;
  equal(mode, 0o700);
});

Deno.test("throughCache() misses after a byte change, a config change and an engine version change", async () => {
  const dir = await anchor();
  const cache = await openCache({ anchor: dir, build: "test-build" });
  const file: SourceFile = {
    path: join(dir, "a.go"),
    relPath: "a.go",
    language: "go",
    text: "package main\nfunc main(){}\n",
  };
  let calls = 0;
  const run = (f: SourceFile, s: EngineSettings, spec = gofmt) =>
    throughCache(cache, "fmt", spec, f, s, async () => {
      calls++;
      return await (await spec.load()).format!(f, s);
    });
  const formatted = await run(file, settings());
  equal(calls, 1);
  equal(await run(file, settings()), formatted, "no change: a hit");
  equal(calls, 1);
  await run({ ...file, text: file.text + "\n" }, settings());
  equal(calls, 2, "a byte change misses");
  await run(file, settings({ unknown_but_hashed: true }));
  equal(calls, 3, "a config change misses");
  // The same engine id with another upstream version (an upgrade) gives another key.
  const upgraded = { ...gofmt, upstream: "@wasm-fmt/gofmt 0.7.4" };
  await throughCache(cache, "fmt", upgraded, file, settings(), () => {
    calls++;
    return "x";
  });
  equal(calls, 4, "an engine version change misses");
  cache.close();
});

Deno.test("openCache() with enabled false bypasses the cache and writes nothing", async () => {
  const dir = await anchor();
  const cache = await openCache({ anchor: dir, enabled: false });
  cache.set("lint", "k", 1);
  equal(cache.get("lint", "k"), undefined);
  equal(cache.path, undefined);
  equal(cache.stats().enabled, false);
  cache.close();
  const again = await openCache({ anchor: dir });
  equal(again.get("lint", "k"), undefined);
  again.close();
});

async function filledCache(): Promise<{ dir: string; path: string }> {
  const dir = await anchor();
  const cache = await openCache({ anchor: dir });
  for (let i = 0; i < 500; i++) cache.set("lint", `k${i}`, { text: "x".repeat(200), i });
  cache.close();
  return { dir, path: cache.path! };
}

async function reopenWarns(dir: string): Promise<string[]> {
  const warnings: string[] = [];
  const cache = await openCache({ anchor: dir, warn: (m) => warnings.push(m) });
  for (let i = 0; i < 500; i++) cache.get("lint", `k${i}`);
  cache.set("lint", "fresh", { ok: true });
  cache.flush();
  equal(cache.get<{ ok: boolean }>("lint", "fresh")?.ok, true, "the rebuilt cache works");
  cache.close();
  return warnings;
}

Deno.test("a truncated cache file is moved aside and rebuilt with a warning", async () => {
  const { dir, path } = await filledCache();
  const size = (await Deno.stat(path)).size;
  await Deno.truncate(path, Math.floor(size / 3));
  const warnings = await reopenWarns(dir);
  equal(warnings.length >= 1, true, "a warning is given");
  equal(warnings[0].includes("moved it to"), true, warnings[0]);
  const aside = [...Deno.readDirSync(join(path, ".."))].filter((e) => e.name.includes(".broken-"));
  equal(aside.length, 1);
});

Deno.test("a garbage cache file is rebuilt with a warning", async () => {
  const { dir, path } = await filledCache();
  await Deno.writeTextFile(path, "this is not a database ".repeat(500));
  for (const s of ["-wal", "-shm"]) await Deno.remove(path + s).catch(() => {});
  const warnings = await reopenWarns(dir);
  equal(warnings.length >= 1, true);
});

Deno.test("a cache of another format version is rebuilt with a warning", async () => {
  const { dir, path } = await filledCache();
  const db = new DatabaseSync(path);
  db.prepare("UPDATE meta SET value = ? WHERE key = 'format_version'").run(String(CACHE_FORMAT + 99));
  db.close();
  const warnings: string[] = [];
  const cache = await openCache({ anchor: dir, warn: (m) => warnings.push(m) });
  equal(cache.get("lint", "k1"), undefined, "old entries are gone");
  cache.close();
  equal(warnings.length, 1);
  equal(warnings[0].includes(`cache format ${CACHE_FORMAT + 99}`), true, warnings[0]);
});

Deno.test("two concurrent writer processes never corrupt the cache", async () => {
  const dir = await anchor();
  const writer = new URL("./_writer.ts", import.meta.url).pathname;
  const spawn = (tag: string) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-q", "-A", writer, dir, tag, "1500"],
      env: { POLY_CACHE_HOME: home },
      stdout: "piped",
      stderr: "piped",
    }).output();
  const [a, b] = await Promise.all([spawn("a"), spawn("b")]);
  const dec = new TextDecoder();
  equal(a.code, 0, dec.decode(a.stderr));
  equal(b.code, 0, dec.decode(b.stderr));
  equal(dec.decode(a.stdout).trim(), "1500");
  equal(dec.decode(b.stdout).trim(), "1500");
  const cache = await openCache({ anchor: dir });
  equal(cache.stats().namespaces.find((n) => n.namespace === "lint")?.entries, 3000);
  cache.close();
  const db = new DatabaseSync(cache.path!);
  equal((db.prepare("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check, "ok");
  db.close();
});

Deno.test("Deno Workers share one cache at once", async () => {
  const dir = await anchor();
  const url = new URL("./_worker.ts", import.meta.url).href;
  const results = await Promise.all(["w1", "w2"].map((tag) =>
    new Promise<number>((resolve, reject) => {
      const w = new Worker(url, { type: "module" });
      w.onmessage = (e) => {
        w.terminate();
        resolve(e.data as number);
      };
      w.onerror = (e) => {
        w.terminate();
        reject(e.message);
      };
      w.postMessage({ anchor: dir, tag, count: 800 });
    })
  ));
  equal(results.join(","), "800,800");
  const cache = await openCache({ anchor: dir });
  equal(cache.stats().total.entries, 1600);
  cache.close();
});

Deno.test("stats() reports namespaces and recent runs; clean() empties one namespace or all", async () => {
  const dir = await anchor();
  const cache = await openCache({ anchor: dir, runId: "run-1" });
  cache.set("lint", "a", { n: 1 });
  cache.set("fmt", "b", "text");
  cache.get("lint", "a");
  cache.get("lint", "zzz");
  cache.close();
  const reader = await openCache({ anchor: dir });
  const stats = reader.stats();
  equal(stats.format_version, CACHE_FORMAT);
  equal(stats.namespaces.map((n) => `${n.namespace}:${n.entries}`).join(" "), "lint:1 fmt:1 rules:0 fix:0");
  equal(stats.recent_runs[0].hits, 1);
  equal(stats.recent_runs[0].misses, 1);
  equal(JSON.parse(JSON.stringify(stats)).total.entries, 2, "a plain JSON document");
  const cleaned = reader.clean("lint");
  equal(cleaned.removed, 1);
  equal(reader.stats().total.entries, 1);
  equal(reader.clean().removed, 1);
  equal(reader.stats().total.entries, 0);
  reader.close();
});

Deno.test("a text's digest is its bytes' digest: the pre-pass hashes what it read, not the text re-encoded", async () => {
  const { digestOf } = await import("../../lib/cache/digest.ts");
  const { classifyContent } = await import("../../lib/discover/content.ts");
  const samples = [
    "plain ascii\n",
    "\uFEFFwith a byte order mark\n",
    "é ü ñ — ∑ 中文\n",
    "astral 😀 𝄞\n",
    "",
    "\r\n\t",
  ];
  for (const sample of samples) {
    const bytes = new TextEncoder().encode(sample);
    const read = classifyContent(bytes, 1 << 20);
    if (!("text" in read)) throw new Error(`not text: ${JSON.stringify(sample)}`);
    equal(read.text, sample, "the byte order mark is kept in the text");
    equal(digestOf(read.text), digestOf(bytes), JSON.stringify(sample));
  }
});
