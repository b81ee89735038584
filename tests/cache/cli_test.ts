import { equal } from "node:assert/strict";
import { runPoly } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/temp.ts";

Deno.test("poly cache stats --format json prints the per-namespace document", async () => {
  const cwd = await tempDir({ prefix: "poly-cache-cli-" });
  await Deno.mkdir(`${cwd}/.git`);
  const run = await runPoly(["cache", "stats", "--format", "json"], { cwd });
  equal(run.code, 0, run.stderr);
  const doc = JSON.parse(run.stdout);
  equal(doc.anchor, await Deno.realPath(cwd));
  equal(doc.namespaces.map((n: { namespace: string }) => n.namespace).join(), "lint,fmt,rules,fix");
  const toon = await runPoly(["cache", "stats", "--format", "toon"], { cwd });
  equal(toon.stdout.includes("namespaces[4]"), true, toon.stdout);
});

Deno.test("poly cache clean --namespace fmt reports what it removed", async () => {
  const cwd = await tempDir({ prefix: "poly-cache-cli-" });
  await Deno.mkdir(`${cwd}/.git`);
  const run = await runPoly(["cache", "clean", "--namespace", "fmt", "--format", "json"], { cwd });
  equal(run.code, 0, run.stderr);
  const doc = JSON.parse(run.stdout);
  equal(doc.namespaces.join(), "fmt");
  equal(doc.removed, 0);
  const human = await runPoly(["cache", "clean"], { cwd });
  equal(human.stdout.startsWith("removed 0 entries"), true, human.stdout);
});

Deno.test("poly lint remembers a crash a new instance of the engine repeats: the next run reports it from the cache", async () => {
  const cwd = await tempDir({ prefix: "poly-cache-crash-" });
  await Deno.mkdir(`${cwd}/.git`);
  // 20,000 nested array literals overflow biome's parser: its command line aborts, its WebAssembly module too.
  await Deno.writeTextFile(`${cwd}/deep.js`, `export const a = ${"[".repeat(20_000)}${"]".repeat(20_000)};\n`);
  await Deno.writeTextFile(`${cwd}/plain.js`, "let b = 1;\nexport { b };\n");
  const runs = [];
  for (let i = 0; i < 2; i++) {
    const run = await runPoly(["lint", "--no-workspace", "--format", "json", "."], { cwd });
    equal(run.code, 2, run.stderr); // a file not checked
    runs.push(JSON.parse(run.stdout));
  }
  for (const report of runs) {
    const deep = report.results.find((r: { path: string }) => r.path === "deep.js");
    equal(
      /^biome: biome crashed on this file twice \(Maximum call stack size exceeded\), the second time in a new instance/
        .test(deep?.error),
      true,
      JSON.stringify(deep),
    );
    const plain = report.results.find((r: { path: string }) => r.path === "plain.js");
    equal(plain?.diagnostics?.[0]?.code, "style/useConst", JSON.stringify(plain));
  }
  equal(runs[1].summary.cache.misses, 0, "the second run answers both files from the cache, the crash included");
});
