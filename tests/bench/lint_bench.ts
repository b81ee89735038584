/**
 * Whole-run figures for `poly lint` and `poly fmt` (issues 2 and 3), printed with
 * medians and ratios against the native tool, never asserted.
 *
 *   deno run -A tests/bench/lint_bench.ts            # issue 2: 2,000 Python + 2,000 TypeScript
 *   deno run -A tests/bench/lint_bench.ts large      # issue 3: ~20,000 files in 16 languages
 *   RUNS=5 deno run -A tests/bench/lint_bench.ts     # more repetitions
 *   deno run -A tests/bench/lint_bench.ts cold       # issue 2's cold TypeScript ratio only
 *
 * `poly` runs from source exactly as users run it (`deno run -q -P main.ts`), in the
 * corpus directory as the native tool does. A cold run has an empty result cache
 * in a cache home where poly has run once before (elsewhere); the first run after
 * install (a brand-new cache home) is printed beside it.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateCorpus, LARGE_CORPUS } from "./corpus.ts";
import { median, ms, startDaemon, timeCommand, type Timed } from "./_measure.ts";
import { polyCommand } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/temp.ts";
import { executableUrl } from "../../lib/engines/biome/_bin.ts";

const RUNS = Number(Deno.env.get("RUNS") ?? 3);
const large = Deno.args.includes("large");
/** `cold`: stop after the cold TypeScript figures (issue 2's ratio). */
const coldOnly = Deno.args.includes("cold");
/** biome's own binary, as poly starts it (npm's `node_modules/.bin/biome` is a Node.js launcher of it). */
const BIOME = fileURLToPath(executableUrl());

/** Temporary folders this bench made (removed at the end). */
const temporary: string[] = [];

async function freshHomes(): Promise<Record<string, string>> {
  const base = await tempDir({ prefix: "poly-bench-home-" });
  temporary.push(base);
  return { POLY_CACHE_HOME: join(base, "cache"), POLY_STATE_HOME: join(base, "state"), NO_COLOR: "1" };
}

/**
 * Fresh homes in which poly has already run once, on a one-file project elsewhere:
 * what a "cold" run meets on a machine where poly is installed and has been used.
 * The result cache holds nothing for the corpus; what poly keeps per install (the
 * digests of its engines' module bytes, the parsed built-in rules) is in place.
 */
async function primedHomes(): Promise<Record<string, string>> {
  const env = await freshHomes();
  const other = await tempDir({ prefix: "poly-bench-prime-" });
  temporary.push(other);
  await Deno.writeTextFile(join(other, "prime.ts"), "export const x = 1;\n");
  await timeCommand([...poly, "lint", "--no-workspace", "--format", "json", "."], { env, cwd: other });
  return env;
}

/** Whether two JSON reports agree on everything but the run's own identity and cache counters. */
function sameReport(a: string, b: string): boolean {
  const strip = (text: string) => {
    const { poly: _poly, summary: { cache: _cache, ...summary }, ...rest } = JSON.parse(text);
    return JSON.stringify({ ...rest, summary });
  };
  return strip(a) === strip(b);
}

async function repeat(label: string, run: () => Promise<Timed>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = await run();
    if (t.code > 1) console.error(`${label}: exit ${t.code}: ${t.stderr.slice(0, 500)}`);
    times.push(t.ms);
  }
  console.log(
    `${label.padEnd(48)} median ${ms(median(times)).padStart(10)}   runs ${times.map((t) => ms(t)).join(", ")}`,
  );
  return times;
}

const dir = await tempDir({ prefix: "poly-bench-corpus-" });
console.log(`corpus: ${dir}`);
const summary = await generateCorpus(dir, large ? LARGE_CORPUS : { python: 2000, typescript: 2000 });
console.log(`files: ${summary.files} (${Object.entries(summary.byLanguage).map(([k, v]) => `${k} ${v}`).join(", ")})`);
const poly = polyCommand();
const tsDir = join(dir, "typescript");

// poly --version
const version = await repeat("poly --version", () => timeCommand([...poly, "--version"]));

// Cold lint of the TypeScript half versus the native biome CLI (same version as the wasm):
// no cached result for any file of the corpus. The first run after install also hashes every
// engine's module bytes (~100 MB) and parses the built-in rules once; that figure is printed too.
const tsLint = [...poly, "lint", "--no-workspace", "--format", "json", "typescript"];
const biomeLint = [BIOME, "lint", "--reporter=json", "--max-diagnostics=none", tsDir];
const haveBiome = await Deno.stat(BIOME).then(() => true, () => false);
if (!haveBiome) console.log(`biome native CLI not installed (${BIOME}): ratio not measured`);
// Interleaved: each poly run next to a biome run, so a noisy neighbour slows both sides of a pair.
const polyTs: number[] = [];
const biomeTs: number[] = [];
const pairs: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const ours = await timeCommand(tsLint, { env: await primedHomes(), cwd: dir });
  if (ours.code > 1) console.error(`poly lint typescript/: exit ${ours.code}: ${ours.stderr.slice(0, 500)}`);
  polyTs.push(ours.ms);
  if (!haveBiome) continue;
  const theirs = await timeCommand(biomeLint, { cwd: dir });
  biomeTs.push(theirs.ms);
  pairs.push(ours.ms / theirs.ms);
}
const runs = (xs: number[]) => xs.map((t) => ms(t)).join(", ");
console.log(
  `${"poly lint typescript/ (cold: empty result cache)".padEnd(48)} median ${ms(median(polyTs)).padStart(10)}   runs ${
    runs(polyTs)
  }`,
);
const firstTs = await repeat(
  "poly lint typescript/ (first run after install)",
  async () => timeCommand(tsLint, { env: await freshHomes(), cwd: dir }),
);
if (biomeTs.length) {
  console.log(
    `${"biome lint typescript/ (native CLI 2.5.14)".padEnd(48)} median ${ms(median(biomeTs)).padStart(10)}   runs ${
      runs(biomeTs)
    }`,
  );
  console.log(`ratio poly/biome (TypeScript lint, cold): ${(median(polyTs) / median(biomeTs)).toFixed(2)}`);
  console.log(
    `ratio poly/biome, median of the ${pairs.length} interleaved pairs: ${median(pairs).toFixed(2)} (pairs ${
      pairs.map((r) => r.toFixed(2)).join(", ")
    })`,
  );
  console.log(
    `ratio poly/biome (TypeScript lint, first run after install): ${(median(firstTs) / median(biomeTs)).toFixed(2)}`,
  );
}

if (coldOnly) {
  console.log(`poly --version median: ${ms(median(version))}`);
  await Deno.remove(dir, { recursive: true });
  for (const path of temporary) await Deno.remove(path, { recursive: true }).catch(() => {});
  Deno.exit(0);
}

// Cold, warm and touch-one runs over the whole corpus, with peak memory.
const homes = await primedHomes();
const whole = [...poly, "lint", "--no-workspace", "--format", "json", "."];
const cold = await timeCommand(whole, { env: homes, measureMemory: true, cwd: dir });
console.log(`poly lint whole corpus, cold: ${ms(cold.ms)}, peak RSS ${((cold.maxRssKb ?? 0) / 1024).toFixed(0)} MB`);
const warm = await repeat(
  "poly lint whole corpus, warm (nothing changed)",
  () => timeCommand(whole, { env: homes, cwd: dir }),
);
console.log(`warm/cold: ${(median(warm) / cold.ms).toFixed(3)}`);
if (biomeTs.length) {
  const warmTs = await repeat(
    "poly lint typescript/, warm",
    () => timeCommand([...poly, "lint", "--no-workspace", "--format", "json", "typescript"], { env: homes, cwd: dir }),
  );
  console.log(`ratio poly warm / biome (TypeScript): ${(median(warmTs) / median(biomeTs)).toFixed(2)}`);
}
const one = join(dir, summary.paths.typescript?.[0] ?? summary.paths.python[0]);
const touched = await repeat("poly lint whole corpus, warm, one file touched", async () => {
  await Deno.writeTextFile(one, `${await Deno.readTextFile(one)}\n// touched ${Math.random()}\n`);
  return timeCommand(whole, { env: homes, cwd: dir });
});
console.log(`touch-one median: ${ms(median(touched))}`);

// The same through a resident `poly daemon` watching the corpus (how the figure is met):
// one run fills its memo, then each run after touching one file.
const daemon = await startDaemon(poly, dir, homes);
const first = await timeCommand(whole, { env: homes, cwd: dir });
console.log(`poly lint whole corpus through the daemon, first run: ${ms(first.ms)}`);
await repeat("poly lint whole corpus, daemon, nothing changed", () => timeCommand(whole, { env: homes, cwd: dir }));
const touchedDaemon = await repeat("poly lint whole corpus, daemon, one file touched", async () => {
  await Deno.writeTextFile(one, `${await Deno.readTextFile(one)}\n// touched ${Math.random()}\n`);
  return timeCommand(whole, { env: homes, cwd: dir });
});
console.log(`touch-one median (daemon): ${ms(median(touchedDaemon))}`);
const direct = await timeCommand(whole, { env: { ...homes, POLY_DAEMON: "0" }, cwd: dir });
const viaDaemon = await timeCommand(whole, { env: homes, cwd: dir });
console.log(`daemon report equals the in-process report: ${sameReport(direct.stdout, viaDaemon.stdout)}`);
daemon.kill("SIGTERM");
await daemon.status;
const fmtCold = await timeCommand([...poly, "fmt", "--format", "json", "."], { env: await primedHomes(), cwd: dir });
console.log(`poly fmt --check whole corpus, cold: ${ms(fmtCold.ms)}`);
console.log(`poly --version median: ${ms(median(version))}`);
await Deno.remove(dir, { recursive: true });
for (const path of temporary) await Deno.remove(path, { recursive: true }).catch(() => {});
