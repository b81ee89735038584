import assert from "node:assert/strict";
import { join } from "node:path";
import { assignShards, parseShard } from "../../lib/run/shard.ts";
import { runPoly } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/temp.ts";

Deno.test("parseShard() accepts i/n and refuses what is not one", () => {
  assert.deepEqual(parseShard("2/3"), { index: 2, count: 3 });
  for (const bad of ["0/2", "3/2", "1", "a/b", "1/0", ""]) assert.throws(() => parseShard(bad), /i\/n/);
});

Deno.test("assignShards() does not depend on the order paths come in, and balances by size", () => {
  const items = Array.from(
    { length: 200 },
    (_, i) => ({ path: `d${i % 7}/f${i}.py`, size: 100 + ((i * 7919) % 5000) }),
  );
  const a = assignShards(items, 3);
  const b = assignShards([...items].reverse(), 3);
  assert.deepEqual([...a.entries()].sort(), [...b.entries()].sort());
  const loads = [0, 0, 0];
  for (const it of items) loads[a.get(it.path)! - 1] += it.size;
  const max = Math.max(...loads), min = Math.min(...loads);
  assert(max - min <= 5100, `loads ${loads} differ by more than the largest file`);
  assert.deepEqual(new Set(a.values()), new Set([1, 2, 3]));
});

/** A small tree with findings in several languages, two configurations, and a discovery skip. */
async function tree(): Promise<string> {
  const dir = await tempDir({ prefix: "poly-shard-" });
  await Deno.writeTextFile(join(dir, "poly.toml"), '[lint.python.ruff]\nselect = ["E", "F"]\n');
  await Deno.mkdir(join(dir, "sub"), { recursive: true });
  await Deno.writeTextFile(join(dir, "sub", "poly.toml"), "[defaults]\nline_length = 90\n");
  for (let i = 0; i < 12; i++) {
    const where = i % 3 === 0 ? "sub" : ".";
    await Deno.writeTextFile(join(dir, where, `m${i}.py`), `import os${"\n"}x${i} = ${"1 + ".repeat(i)}1\n`);
    await Deno.writeTextFile(join(dir, where, `t${i}.ts`), `export const a${i} = ${i} == 0 ? 1 : 2;\n`);
  }
  await Deno.writeTextFile(join(dir, "bad.json"), "{ not json\n");
  return dir;
}

async function json(args: string[], cwd: string) {
  const run = await runPoly([...args, "--format", "json", "--no-workspace"], { cwd });
  assert(run.stdout.startsWith("{"), run.stderr);
  return { code: run.code, doc: JSON.parse(run.stdout) };
}

/** The document without what differs between runs of one tree (process identity, cache counts). */
function steady(doc: Record<string, unknown>) {
  const copy = structuredClone(doc);
  delete copy.poly;
  delete (copy.summary as Record<string, unknown>).cache;
  return copy;
}

Deno.test("poly lint --shard i/n: the shards' results are the unsharded run's, each path once", async () => {
  const dir = await tree();
  const whole = await json(["lint", "--no-cache"], dir);
  assert(whole.doc.results.length >= 25);
  const paths: string[] = [];
  for (let i = 1; i <= 3; i++) {
    const part = await json(["lint", "--no-cache", "--shard", `${i}/3`], dir);
    assert.deepEqual(part.doc.configs, whole.doc.configs);
    assert(part.doc.results.length > 0, `shard ${i} is empty`);
    paths.push(...part.doc.results.map((r: { path: string }) => r.path));
  }
  assert.deepEqual(paths.sort(), whole.doc.results.map((r: { path: string }) => r.path).sort());
});

Deno.test("poly report merge joins shard reports into the unsharded document (json and sarif) and its exit code", async () => {
  const dir = await tree();
  for (const cmd of ["lint", "fmt"]) {
    const whole = await runPoly([cmd, "--no-cache", "--format", "json"], { cwd: dir });
    const out = await tempDir({ prefix: "poly-shard-reports-" });
    const files: string[] = [];
    for (let i = 1; i <= 2; i++) {
      const part = await runPoly([cmd, "--no-cache", "--format", "json", "--shard", `${i}/2`], { cwd: dir });
      const file = join(out, `${cmd}-${i}.json`);
      await Deno.writeTextFile(file, part.stdout);
      files.push(file);
    }
    const merged = await runPoly(["report", "merge", ...files, "--format", "json"], { cwd: dir });
    assert.deepEqual(merged.code, whole.code, merged.stderr);
    assert.deepEqual(steady(JSON.parse(merged.stdout)), steady(JSON.parse(whole.stdout)));
    const sarif = await runPoly(["report", "merge", ...files, "--format", "sarif"], { cwd: dir });
    const wholeSarif = await runPoly([cmd, "--no-cache", "--format", "sarif"], { cwd: dir });
    const strip = (text: string) => JSON.parse(text.replace(/"(pid|executable)": [^,\n]+/g, '"$1": 0'));
    assert.deepEqual(strip(sarif.stdout), strip(wholeSarif.stdout));
  }
});

Deno.test("poly report merge refuses a report that is not one, in one line, exit 2", async () => {
  const dir = await tempDir();
  await Deno.writeTextFile(join(dir, "a.json"), '{"kind": "lint"}');
  const run = await runPoly(["report", "merge", "a.json"], { cwd: dir });
  assert.deepEqual(run.code, 2);
  assert(run.stderr.includes('"a.json" is not a poly report'), run.stderr);
});

Deno.test("poly lint --shard with a malformed value is a usage error", async () => {
  const run = await runPoly(["lint", "--shard", "3/2", "--format", "json"], { cwd: await tempDir() });
  assert.deepEqual(run.code, 2);
  assert(run.stderr.includes("--shard"), run.stderr);
});
