/**
 * Fleet figures (issue 6), printed, never asserted:
 *
 * 1. Overhead of a delegate call over starting the fake engine directly, sandbox
 *    included (target ≤ 50 ms p50): each iteration starts the fake codex
 *    directly, then through bwrap alone, then runs `delegate` (argv, binary
 *    lookup, sandbox plan, bwrap, parse, scrub, store writes); the overhead is
 *    the median of the per-iteration differences (interleaving cancels load).
 * 2. Characters returned to the caller versus raw engine output, per tool, on
 *    the recorded transcripts in fixtures/fleet/bin/transcripts.
 *
 *   deno run -P=test tests/bench/fleet_bench.ts
 *   RUNS=50 deno run -P=test tests/bench/fleet_bench.ts
 *
 * @module
 */
import { join } from "node:path";
import { cpuUsage } from "node:process";
import { median, percentile } from "./_measure.ts";
import { FAKE_BIN, fleetContext } from "../fleet/_helpers.ts";
import {
  delegate,
  explore,
  fanOut,
  fastDelegate,
  followUp,
  readSlice,
  runFiltered,
  webLookup,
} from "../../lib/fleet/mod.ts";
import { ADAPTERS } from "../../lib/fleet/engines/mod.ts";
import { bwrapArgs, planSandbox, resolveBwrap } from "../../lib/fleet/sandbox.ts";
import { TERSE_STYLE } from "../../lib/fleet/prompts.ts";

const RUNS = Number(Deno.env.get("RUNS") ?? 30);
const ctx = await fleetContext({ env: { POLY_TIMEOUT_MS: "120000" } });
const fake = join(FAKE_BIN, "codex");
const prompt = "bench";
const engineArgs = ADAPTERS.codex.buildArgs({
  prompt,
  model: "gpt-6-luna",
  effort: "max",
  readOnly: false,
  web: false,
  system: TERSE_STYLE,
  sandboxed: true,
});
const env = { HOME: ctx.home, PATH: ctx.env("PATH")! };

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function spawn(cmd: string, args: string[]): Promise<void> {
  const out = await new Deno.Command(cmd, {
    args,
    cwd: ctx.root,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  if (out.code !== 0) throw new Error(new TextDecoder().decode(out.stderr));
}

const bwrap = await resolveBwrap(undefined, env.PATH);
const spec = await planSandbox({
  adapter: ADAPTERS.codex,
  binary: { path: fake, real: fake },
  workspace: ctx.root,
  readOnly: false,
  home: ctx.home,
  toolchains: ctx.settings.toolchains,
  extra: [],
  env: ctx.env,
});
const sandboxed = [...bwrapArgs(spec), "--", fake, ...engineArgs];

// Warm-up: module caches, the sqlite statements, the kernel's page cache.
for (let i = 0; i < 3; i++) {
  await spawn(fake, engineArgs);
  await delegate(ctx, { prompt, level: 1 });
}

const direct: number[] = [];
const viaBwrap: number[] = [];
const viaPoly: number[] = [];
const overhead: number[] = [];
const sandboxOverhead: number[] = [];
const polyCpu: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const d = await timed(() => spawn(fake, engineArgs));
  const b = await timed(() => spawn(bwrap, sandboxed));
  const cpu0 = cpuUsage();
  const p = await timed(() => delegate(ctx, { prompt, level: 1 }));
  const cpu = cpuUsage(cpu0);
  polyCpu.push((cpu.user + cpu.system) / 1000);
  direct.push(d);
  viaBwrap.push(b);
  viaPoly.push(p);
  overhead.push(p - d);
  sandboxOverhead.push(b - d);
}
const f = (n: number) => `${n.toFixed(1)} ms`;
console.log(
  `\n## delegate overhead over the fake engine started directly (${RUNS} interleaved runs, load ${
    Deno.loadavg()[0].toFixed(1)
  })\n`,
);
console.log("| measure | p50 | p95 |");
console.log("|---|---:|---:|");
console.log(`| fake codex started directly | ${f(median(direct))} | ${f(percentile(direct, 95))} |`);
console.log(`| fake codex inside bwrap (same argv) | ${f(median(viaBwrap))} | ${f(percentile(viaBwrap, 95))} |`);
console.log(`| delegate (level 1) through poly | ${f(median(viaPoly))} | ${f(percentile(viaPoly, 95))} |`);
console.log(
  `| overhead: bwrap alone (paired) | ${f(median(sandboxOverhead))} | ${f(percentile(sandboxOverhead, 95))} |`,
);
console.log(
  `| **overhead: delegate, sandbox included (paired)** | **${f(median(overhead))}** | ${f(percentile(overhead, 95))} |`,
);
console.log(
  `| CPU time of the poly process per delegate call (children excluded) | ${f(median(polyCpu))} | ${
    f(percentile(polyCpu, 95))
  } |`,
);

// Characters returned versus raw engine output, per tool, on the recorded transcripts.
const tx = (tool: string) => `summarise [[transcript:${tool}]]`;
const size = async (name: string) => (await Deno.stat(join(FAKE_BIN, "transcripts", name))).size;
const first = await delegate(ctx, { prompt: "start", level: 1 });
const rows: [string, number, number][] = [];
const row = (tool: string, raw: number, out: unknown) => rows.push([tool, raw, JSON.stringify(out).length]);
row("delegate", await size("delegate.codex.txt"), await delegate(ctx, { prompt: tx("delegate"), level: 1 }));
row(
  "fast_delegate",
  await size("fast_delegate.codex.txt"),
  await fastDelegate(ctx, { prompt: tx("fast_delegate") }),
);
row("explore", await size("explore.codex.txt"), await explore(ctx, { question: tx("explore") }));
row(
  "read_slice",
  await size("read_slice.codex.txt"),
  await readSlice(ctx, { files: ["src/main.ts"], want: tx("read_slice") }),
);
row(
  "run_filtered",
  await size("run_filtered.codex.txt"),
  await runFiltered(ctx, { command: "deno test", want: tx("run_filtered") }),
);
row("web_lookup", await size("web_lookup.codex.txt"), await webLookup(ctx, { query: tx("web_lookup") }));
row(
  "follow_up",
  await size("follow_up.codex.txt"),
  await followUp(ctx, { session_id: first.session_id!, prompt: tx("follow_up") }),
);
row(
  "fan_out (2 workers + arbiter)",
  2 * await size("fan_out.codex.txt") + await size("fan_out.claude.txt"),
  await fanOut(ctx, { prompt: tx("fan_out") }),
);
console.log("\n## characters returned to the caller versus raw engine output (recorded transcripts)\n");
console.log("| tool | raw engine output | returned (structured JSON) | returned / raw | kept out of context |");
console.log("|---|---:|---:|---:|---:|");
let rawTotal = 0;
let outTotal = 0;
for (const [tool, raw, out] of rows) {
  rawTotal += raw;
  outTotal += out;
  console.log(`| ${tool} | ${raw} | ${out} | ${((100 * out) / raw).toFixed(1)}% | ${raw - out} |`);
}
console.log(
  `| **all** | ${rawTotal} | ${outTotal} | ${((100 * outTotal) / rawTotal).toFixed(1)}% | ${rawTotal - outTotal} |`,
);
