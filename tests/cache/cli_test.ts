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
  equal(doc.namespaces.map((n: { namespace: string }) => n.namespace).join(), "lint,fmt,rules");
  const toon = await runPoly(["cache", "stats", "--format", "toon"], { cwd });
  equal(toon.stdout.includes("namespaces[3]"), true, toon.stdout);
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
