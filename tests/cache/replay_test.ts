/**
 * lib/cache/replay.ts: a kept run comes back under its key while nothing it read
 * changed, with a warm run's counters and the reading process's pid, in a folder
 * only the user can read; a run with errors, a log that proves nothing, or a
 * damaged file is never replayed; keys differ by every part; and only the newest
 * runs are kept.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { findReplay, KEEP, keepReplay, type KeptText, MAX_STALE, PID_MARK, replayKey } from "../../lib/cache/replay.ts";
import { concatBytes } from "../../lib/io/bytes.ts";
import { asFileRead, ReadLog } from "../../lib/fs/read_log.ts";
import type { Report } from "../../lib/report/schema.ts";
import { report as fixture } from "../report/_fixture.ts";
import { withProcessEnv } from "../_helpers/process_env.ts";
import { tempDir } from "../_helpers/temp.ts";

/** A report of one file that missed the result cache. */
const report = (over: Partial<Report> = {}): Report =>
  fixture({ summary: { checked: 1, skipped: 0, errored: 0, cache: { hits: 0, misses: 1 } }, ...over });

/** A log of reading `file`, as if the run had read it a minute after it was written. */
async function logOf(file: string): Promise<ReadLog> {
  const log = ReadLog.open();
  await Deno.readTextFile(file);
  log.close();
  const settle = log.settle.bind(log);
  log.settle = () => settle(-60_000); // the file was written by this test a moment ago
  return log;
}

/** The parsed command a kept run prints as. */
const command = { kind: "lint" as const, value: { paths: [], format: "json" } };

async function inHome<T>(body: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.realPath(await tempDir({ prefix: "poly-replay-unit-" }));
  return await withProcessEnv({ POLY_CACHE_HOME: join(dir, "cache") }, () => body(dir));
}

Deno.test("a kept run replays while its reads are unchanged, as a warm run of this process", async () => {
  await inHome(async (dir) => {
    const file = join(dir, "a.js");
    await Deno.writeTextFile(file, "a");
    const key = await replayKey({ cmd: "lint", cwd: dir });
    const results = [{ path: "a.js" }];
    assert.equal(
      await keepReplay(key, await logOf(file), { command, results, report: report(), noWorkspaceJobs: true }),
      undefined,
    );
    if (Deno.build.os !== "windows") {
      assert.equal(Deno.statSync(join(dir, "cache", "replay")).mode! & 0o777, 0o700, "a report quotes the user's code");
    }
    const found = findReplay(key);
    assert.ok(found);
    assert.deepEqual(found.command, command, "what the arguments parsed to, to print as the run did");
    assert.deepEqual(found.results, results);
    assert.equal(found.noWorkspaceJobs, true);
    assert.deepEqual(found.report.summary.cache, { hits: 1, misses: 0 });
    assert.equal(found.report.poly.pid, Deno.pid);
    assert.equal(findReplay(await replayKey({ cmd: "lint", cwd: dir, paths: ["a.js"] })), undefined, "another key");

    await new Promise((resolve) => setTimeout(resolve, 30)); // past the kernel's timestamp tick (up to 10 ms)
    await Deno.writeTextFile(file, "b");
    assert.equal(findReplay(key), undefined, "a read changed");
  });
});

Deno.test("a run with errors or a log that proves nothing is not kept; a damaged file is not replayed", async () => {
  await inHome(async (dir) => {
    const file = join(dir, "a.js");
    await Deno.writeTextFile(file, "a");
    const key = await replayKey({ dir });
    const errored = report({ errors: [{ path: "a.js", message: "engine crashed" }] });
    assert.equal(
      await keepReplay(key, await logOf(file), { command, results: [], report: errored }),
      "the run had errors",
    );
    const refused = await logOf(file);
    refused.refuse("the cache is off");
    assert.equal(await keepReplay(key, refused, { command, results: [], report: report() }), "the cache is off");
    assert.equal(findReplay(key), undefined);

    assert.equal(await keepReplay(key, await logOf(file), { command, results: [], report: report() }), undefined);
    await Deno.writeTextFile(join(dir, "cache", "replay", `${key}.json`), '{"format": 1, "key": "');
    assert.equal(findReplay(key), undefined);
  });
});

Deno.test("replayKey() differs by every part; only the newest runs are kept", async () => {
  const keys = new Set(
    await Promise.all([{ a: 1 }, { a: 2 }, { b: 1 }, ["a"], "a"].map((parts) => replayKey(parts))),
  );
  assert.equal(keys.size, 5);
  assert.equal(await replayKey({ a: 1 }), await replayKey({ a: 1 }));

  await inHome(async (dir) => {
    const file = join(dir, "a.js");
    await Deno.writeTextFile(file, "a");
    for (let i = 0; i < KEEP + 3; i++) {
      assert.equal(
        await keepReplay(await replayKey({ i }), await logOf(file), { command, results: [], report: report() }),
        undefined,
      );
    }
    assert.equal([...Deno.readDirSync(join(dir, "cache", "replay"))].length, KEEP);
  });
});

Deno.test("a kept file is ASCII and comes back as it was: any text, the report's skips rebuilt from the results", async () => {
  await inHome(async (dir) => {
    const file = join(dir, "a.js");
    await Deno.writeTextFile(file, "a");
    const results = [
      { path: "ü/ä.md", skipped: "no lint engine for Markdown — “quoted” 😀" },
      { path: "b.js", diagnostics: [] },
      { path: "c.js", config: 1, skipped: "ignored by biome" },
    ];
    const skipped = [
      { path: "ü/ä.md", reason: "no lint engine for Markdown — “quoted” 😀" },
      { path: "c.js", reason: "ignored by biome" },
    ];
    const summary = { checked: 1, skipped: 2, errored: 0 };
    const key = await replayKey({ run: "skips" });
    assert.equal(
      await keepReplay(key, await logOf(file), { command, results, report: report({ skipped, summary }) }),
      undefined,
    );
    const kept = Deno.readFileSync(join(dir, "cache", "replay", `${key}.json`));
    assert.ok(kept.every((b) => b < 0x80), "every byte ASCII");
    assert.equal(new TextDecoder().decode(kept).split("ignored by biome").length, 2, "the skips kept once");
    const found = findReplay(key);
    assert.ok(found);
    assert.deepEqual(found.results, results);
    assert.deepEqual(found.report.skipped, skipped);

    // Skips that are not the results' own (none such comes from a run, but a report may say more) are kept as they are.
    const other = [...skipped, { path: "d.js", reason: "too large" }];
    const key2 = await replayKey({ run: "other skips" });
    await keepReplay(key2, await logOf(file), { command, results, report: report({ skipped: other, summary }) });
    assert.deepEqual(findReplay(key2)?.report.skipped, other);
  });
});

Deno.test("a JSON run keeps its report's tail as written for a replay, with the replaying process's pid", async () => {
  await inHome(async (dir) => {
    const file = join(dir, "a.js");
    await Deno.writeTextFile(file, "a");
    const streamed = { text: '{\n  "results": [\n    {"path": "ä.js"}', count: 1 };
    const summary = { checked: 1, skipped: 0, errored: 0, cache: { hits: 0, misses: 1 } };
    const seen: Report[] = [];
    const tailOf = (r: Report) => {
      seen.push(r);
      return `\n  ],\n  "summary": ${
        JSON.stringify(r.summary)
      },\n  "poly": {\n    "pid": ${r.poly.pid},\n    "é": 1\n  }\n}\n`;
    };
    const key = await replayKey({ run: "tail" });
    assert.equal(
      await keepReplay(key, await logOf(file), { command, results: [], streamed, report: report({ summary }) }, tailOf),
      undefined,
    );
    assert.equal(seen[0].poly.pid, PID_MARK, "the tail is written for the report as a replay gives it");
    assert.deepEqual(seen[0].summary.cache, { hits: 1, misses: 0 });
    const found = findReplay(key);
    assert.ok(found?.tail && found.streamed);
    assert.equal(textOf(found.streamed.text), streamed.text, "the results' text, without the tail");
    assert.equal(
      new TextDecoder().decode(found.tail),
      tailOf(found.report).replace(`"pid": ${found.report.poly.pid}`, `"pid": ${Deno.pid}`),
    );
    assert.equal(found.report.poly.pid, Deno.pid);

    // A tail without the pid written once (a writer that does not write it) is not kept: the replay encodes the report.
    const key2 = await replayKey({ run: "no pid" });
    await keepReplay(
      key2,
      await logOf(file),
      { command, results: [], streamed, report: report({ summary }) },
      () => "}\n",
    );
    const plain = findReplay(key2);
    assert.equal(plain?.tail, undefined);
    assert.ok(plain?.streamed);
    assert.equal(textOf(plain.streamed.text), streamed.text);
  });
});

/** A kept text read to its end (each piece copied: the next is read into the same buffer). */
function textOf(text: KeptText | string): string {
  assert.ok(typeof text !== "string");
  return new TextDecoder().decode(concatBytes(Array.from(text, (piece) => piece.slice())));
}

Deno.test("a kept text larger than the buffer it is read through comes back whole, and its file is closed after", async () => {
  await inHome(async (dir) => {
    const file = join(dir, "a.js");
    await Deno.writeTextFile(file, "a");
    // ~600 KB over three buffers of 256 KB, a two-byte character across each boundary somewhere.
    const text = `{\n  "results": [${
      Array.from({ length: 6000 }, (_, i) => `\n    {"path": "é${i}.js", "x": "${"y".repeat(90)}"}`).join(",")
    }`;
    const summary = { checked: 1, skipped: 0, errored: 0 };
    const key = await replayKey({ run: "large" });
    await keepReplay(key, await logOf(file), {
      command,
      results: [],
      streamed: { text, count: 6000 },
      report: report({ summary }),
    });
    const found = findReplay(key);
    assert.ok(found?.streamed && typeof found.streamed.text !== "string");
    assert.equal(found.streamed.text.closed, false, "open until its text is read");
    assert.equal(textOf(found.streamed.text), text);
    assert.equal(found.streamed.text.closed, true, "closed once read");
    // Not read at all, it is closed by close().
    const unread = findReplay(key);
    assert.ok(unread?.streamed && typeof unread.streamed.text !== "string");
    unread.streamed.text.close();
    unread.streamed.text.close();
    assert.equal(unread.streamed.text.closed, true);
    // Stopped partway (a reader that went away), it is closed too.
    const stopped = findReplay(key);
    assert.ok(stopped?.streamed && typeof stopped.streamed.text !== "string");
    for (const _ of stopped.streamed.text) break;
    assert.equal(stopped.streamed.text.closed, true);
  });
});

Deno.test("a kept poly lint or fmt --check run whose own files changed comes back stale, naming them; anything else misses", async () => {
  await inHome(async (dir) => {
    const names = Array.from({ length: MAX_STALE + 2 }, (_, i) => `f${i}.js`);
    for (const name of names) await Deno.writeTextFile(join(dir, name), "a");
    await Deno.writeTextFile(join(dir, "config.json"), "{}");
    const keep = async (kind: "lint" | "fmt", mode?: "check" | "diff") => {
      const key = await replayKey({ cmd: kind, mode, cwd: dir });
      const log = ReadLog.open();
      for (const name of names) {
        log.file(join(dir, name));
        asFileRead(() => Deno.readFileSync(join(dir, name)));
      }
      Deno.readTextFileSync(join(dir, "config.json"));
      log.close();
      const settle = log.settle.bind(log);
      log.settle = () => settle(-60_000);
      assert.equal(
        await keepReplay(key, log, {
          command: { kind, value: { ...command.value, ...(mode ? { m: { mode } } : {}) } },
          results: [],
          report: report(),
        }),
        undefined,
      );
      return key;
    };
    const [lint, fmt, diff] = [await keep("lint"), await keep("fmt", "check"), await keep("fmt", "diff")];
    await new Promise((resolve) => setTimeout(resolve, 30)); // past the kernel's timestamp tick
    await Deno.writeTextFile(join(dir, "f1.js"), "b");
    await Deno.writeTextFile(join(dir, "f3.js"), "c");
    const found = findReplay(lint);
    assert.ok(found?.stale, "stale");
    assert.deepEqual(found.stale.changed, [join(dir, "f1.js"), join(dir, "f3.js")]);
    assert.equal(found.stale.files.length, names.length);
    assert.deepEqual(findReplay(fmt)?.stale?.changed, found.stale.changed, "poly fmt --check");
    assert.equal(findReplay(diff), undefined, "poly fmt --diff prints its diffs alone: it runs whole");
    // More than MAX_STALE changed files: the whole run again.
    for (const name of names) await Deno.writeTextFile(join(dir, name), "d");
    assert.equal(findReplay(lint), undefined);
    const again = await keep("lint");
    await new Promise((resolve) => setTimeout(resolve, 30));
    await Deno.writeTextFile(join(dir, "config.json"), "{ }");
    assert.equal(findReplay(again), undefined, "a file read as more than a file of the run");
    await Deno.writeTextFile(join(dir, "config.json"), "{}");
    await Deno.remove(join(dir, "f0.js"));
    await Deno.mkdir(join(dir, "f0.js"));
    assert.equal(findReplay(again), undefined, "no longer a regular file");
  });
});
