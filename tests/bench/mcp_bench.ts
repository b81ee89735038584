/**
 * `poly mcp` figures (issue 5), printed, never asserted:
 *
 * - process start → `initialize` answered, under `deno run` (target ≤ 300 ms);
 * - a warm `lint` call on one file over stdio: p50 and p95 of 200 calls
 *   (targets ≤ 20 ms and ≤ 50 ms), measured at the SDK client.
 *
 *   deno run -P=test tests/bench/mcp_bench.ts
 *   STARTS=20 CALLS=500 deno run -P=test tests/bench/mcp_bench.ts
 *
 * The server runs from a snapshot of the program (edits to the working tree
 * during the run cannot make it refuse calls).
 *
 * @module
 */
import { join } from "node:path";
import { median, ms, percentile } from "./_measure.ts";
import { serverEnv, startServer } from "../serve/_client.ts";
import { snapshotRepo } from "../serve/_snapshot.ts";
import { tempDir } from "../_helpers/temp.ts";

const STARTS = Number(Deno.env.get("STARTS") ?? 10);
const CALLS = Number(Deno.env.get("CALLS") ?? 200);

const snap = await snapshotRepo();
const root = await tempDir({ prefix: "poly-mcp-bench-" });
await Deno.writeTextFile(join(root, "one.py"), "import os\n\n\ndef f(x):\n    return x + 1\n");
const env = await serverEnv();

// Process start → initialize answered. The first start also warms Deno's module cache for the snapshot.
const starts: number[] = [];
for (let i = 0; i <= STARTS; i++) {
  const t0 = performance.now();
  const server = await startServer({ cwd: root, command: snap.command, env });
  const took = performance.now() - t0;
  if (i > 0) starts.push(took);
  await server.close();
}

// Warm lint calls on one file.
const server = await startServer({ cwd: root, command: snap.command, env });
for (let i = 0; i < 10; i++) {
  const r = await server.client.callTool({ name: "lint", arguments: { paths: ["one.py"] } });
  if (r.isError) throw new Error(`lint failed: ${JSON.stringify(r.content)}`);
}
const calls: number[] = [];
for (let i = 0; i < CALLS; i++) {
  const t0 = performance.now();
  await server.client.callTool({ name: "lint", arguments: { paths: ["one.py"] } });
  calls.push(performance.now() - t0);
}
await server.close();

const load = Deno.loadavg().map((n) => n.toFixed(1)).join(" ");
console.log(`poly mcp (deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} cores, load ${load})`);
console.log(
  `  start → initialize answered (${STARTS} starts): p50 ${ms(median(starts))}, p95 ${
    ms(percentile(starts, 95))
  }, min ${ms(Math.min(...starts))}   target ≤ 300 ms`,
);
console.log(
  `  warm lint, one file (${CALLS} calls):          p50 ${ms(median(calls))}, p95 ${ms(percentile(calls, 95))}, min ${
    ms(Math.min(...calls))
  }   targets ≤ 20 ms / ≤ 50 ms`,
);
