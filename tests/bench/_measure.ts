import { join } from "node:path";
import { ENGINES } from "../../lib/engines/registry.ts";
import { tempFile } from "../_helpers/temp.ts";
/**
 * Small helpers for benchmark scripts: run a command N times, report medians
 * and percentiles. Benchmarks print figures; they never assert on them.
 *
 * @module
 */

/** One timed process run. */
export interface Timed {
  ms: number;
  code: number;
  /** Peak resident set size in KiB (from /usr/bin/time), when measured. */
  maxRssKb?: number;
  /** User plus system CPU time in milliseconds (from /usr/bin/time), when measured. */
  cpuMs?: number;
  stdout: string;
  stderr: string;
}

/** Runs a command once and times it (wall clock, from spawn to exit). */
export async function timeCommand(
  cmd: string[],
  options: { cwd?: string; env?: Record<string, string>; measureMemory?: boolean } = {},
): Promise<Timed> {
  let argv = cmd;
  let memFile: string | undefined;
  if (options.measureMemory) {
    memFile = await tempFile();
    argv = ["/usr/bin/time", "-f", "%M %U %S", "-o", memFile, ...cmd];
  }
  const start = performance.now();
  const out = await new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd: options.cwd,
    env: options.env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const ms = performance.now() - start;
  const dec = new TextDecoder();
  const result: Timed = { ms, code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  if (memFile) {
    const [kb, user, system] = ((await Deno.readTextFile(memFile)).trim().split("\n").pop() ?? "").split(" ").map(
      Number,
    );
    if (Number.isFinite(kb)) result.maxRssKb = kb;
    if (Number.isFinite(user) && Number.isFinite(system)) result.cpuMs = (user + system) * 1000;
    await Deno.remove(memFile);
  }
  return result;
}

/** The median of a list of numbers. */
export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** The p-th percentile (0..100), nearest rank. */
export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

/** Formats milliseconds for a table. */
export function ms(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(1)} ms`;
}

/** `values` as "median (min–max)", each formatted by `format`; "—" for none. */
export function spread(values: number[], format: (value: number) => string = ms): string {
  if (values.length === 0) return "—";
  return `${format(median(values))} (${format(Math.min(...values))}–${format(Math.max(...values))})`;
}

/**
 * A `poly daemon run .` started with the command line `poly` in `tree` under `env`, returned once it has put its
 * socket in `<POLY_STATE_HOME>/daemon` (30 s at most).
 */
export async function startDaemon(
  poly: string[],
  tree: string,
  env: Record<string, string>,
): Promise<Deno.ChildProcess> {
  const daemon = new Deno.Command(poly[0], {
    args: [...poly.slice(1), "daemon", "run", "."],
    cwd: tree,
    env,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const sockets = join(env.POLY_STATE_HOME, "daemon");
  for (let i = 0; i < 600; i++) {
    const up = await Array.fromAsync(Deno.readDir(sockets)).then(
      (e) => e.some((x) => x.name.endsWith(".sock")),
      () => false,
    );
    if (up) return daemon;
    await new Promise((r) => setTimeout(r, 50));
  }
  daemon.kill("SIGTERM");
  await daemon.status;
  throw new Error(`the poly daemon on ${tree} did not start`);
}

/**
 * The `poly.local.toml` text that leaves only the lint engines `keep` on. Where biome is kept, its linting of the
 * languages ESLint lints is named too, so biome lints them where a repository's ESLint configuration would otherwise
 * hand them to the repository's ESLint (lib/run/plan.ts): the figures compare biome with biome.
 */
export function onlyEngines(keep: readonly string[]): string {
  const off = ENGINES.filter((e) => e.lintLanguages.length > 0 && !keep.includes(e.id)).map((e) => e.id);
  const named = keep.includes("biome") ? ["javascript", "typescript"].map((l) => `[lint.${l}.biome]\n`) : [];
  return [...off.map((id) => `[tools.${id}]\nenabled = false\n`), ...named].join("\n");
}

/** The parsed `POLY_DEBUG=timing` table: name → [first start, last end, total]. */
export function parseTiming(stderr: string): Map<string, [number, number, number]> {
  const out = new Map<string, [number, number, number]>();
  for (const line of stderr.split("\n")) {
    const m = /^ {2}(\S.*?)\s+(-?[\d.]+) → +([\d.]+) +([\d.]+) ms/.exec(line);
    if (m) out.set(m[1], [Number(m[2]), Number(m[3]), Number(m[4])]);
    const exit = /^ {2}exit\s+([\d.]+)\s*$/.exec(line);
    if (exit) out.set("exit", [Number(exit[1]), Number(exit[1]), 0]);
    const cpu = /^ {2}cpu\s+([\d.]+) ms of this process/.exec(line);
    if (cpu) out.set("cpu", [0, 0, Number(cpu[1])]);
  }
  return out;
}
