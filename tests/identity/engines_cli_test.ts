import { equal } from "node:assert/strict";
import { runPoly } from "../_helpers/cli.ts";

Deno.test("poly engines --format json lists engines and host tools", async () => {
  const run = await runPoly(["engines", "--format", "json"]);
  equal(run.code, 0, run.stderr);
  const doc = JSON.parse(run.stdout);
  equal(doc.engines.some((e: { id: string }) => e.id === "gofmt"), true);
  equal(doc.host_tools.some((t: { name: string }) => t.name === "shellcheck"), true);
});

Deno.test("poly engines prints the human listing", async () => {
  const run = await runPoly(["engines"]);
  equal(run.code, 0, run.stderr);
  equal(run.stdout.includes("host tools"), true);
  equal(/gofmt\s+in-process/.test(run.stdout), true, run.stdout);
});
