/**
 * `poly mcp --http` figures (issue 10), printed, never asserted: requests per
 * second and p50/p95 latency of `tools/call version` and `tools/call lint` on
 * one file, with 1, 8 and 32 concurrent clients (each its own session and
 * token check), on loopback, over a bounded number of calls. Any error fails
 * the run.
 *
 *   deno run -P=test tests/bench/http_bench.ts
 *   CALLS=400 deno run -P=test tests/bench/http_bench.ts
 *
 * The server runs from a snapshot of the program (edits to the working tree
 * during the run cannot make it refuse calls).
 *
 * @module
 */
import { join } from "node:path";
import { median, ms, percentile } from "./_measure.ts";
import { connect, memberWithToken, startHttp } from "../serve/http/_server.ts";
import { tempDir } from "../_helpers/temp.ts";

const CALLS = Number(Deno.env.get("CALLS") ?? 200);
const CONCURRENCY = [1, 8, 32];

const root = await tempDir({ prefix: "poly-http-bench-" });
await Deno.writeTextFile(join(root, "one.py"), "import os\n\n\ndef f(x):\n    return x + 1\n");
const server = await startHttp({ root });
const token = memberWithToken(server.access, "bench", "member", { access: "read" });

interface Figures {
  tool: string;
  clients: number;
  calls: number;
  seconds: number;
  latencies: number[];
  errors: number;
}

async function measure(tool: string, args: Record<string, unknown>, clients: number): Promise<Figures> {
  const pool = await Promise.all(Array.from({ length: clients }, () => connect(server.url, token)));
  // Warm every session (and the server's engines) before timing.
  await Promise.all(pool.map((c) => c.callTool({ name: tool, arguments: args })));
  const latencies: number[] = [];
  let errors = 0;
  let issued = 0;
  const t0 = performance.now();
  await Promise.all(pool.map(async (client) => {
    while (issued < CALLS) {
      issued++;
      const s = performance.now();
      try {
        const r = await client.callTool({ name: tool, arguments: args });
        if (r.isError) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - s);
    }
  }));
  const seconds = (performance.now() - t0) / 1000;
  await Promise.all(pool.map((c) => c.close()));
  return { tool, clients, calls: latencies.length, seconds, latencies, errors };
}

const results: Figures[] = [];
try {
  for (const [tool, args] of [["version", {}], ["lint", { paths: ["one.py"] }]] as const) {
    for (const clients of CONCURRENCY) results.push(await measure(tool, args, clients));
  }
} finally {
  await server.stop();
}

const load = Deno.loadavg().map((x) => x.toFixed(2)).join(" ");
console.log(
  `poly mcp --http (deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} cores, load ${load}), ${CALLS} calls per row`,
);
console.log("  tool      clients   req/s    p50       p95       errors");
for (const f of results) {
  console.log(
    `  ${f.tool.padEnd(9)} ${String(f.clients).padStart(7)}   ${(f.calls / f.seconds).toFixed(1).padStart(6)}   ${
      ms(median(f.latencies)).padEnd(8)
    }  ${ms(percentile(f.latencies, 95)).padEnd(8)}  ${f.errors}`,
  );
}
const failed = results.reduce((n, f) => n + f.errors, 0);
if (failed > 0) {
  console.error(`${failed} calls failed`);
  Deno.exit(1);
}
