/**
 * The biome engine's batch lint (`Biome.lintMany`: one native `biome` process for
 * the batch) over 2,000 generated TypeScript files, against the native biome CLI
 * run directly on the same directory. Prints medians; asserts nothing.
 *
 *   deno run -A tests/bench/biome_batch_bench.ts          # 5 rounds
 *   RUNS=9 deno run -A tests/bench/biome_batch_bench.ts
 *
 * Each round runs, one after the other (so a busy machine weighs on each alike):
 * - `biome lint <dir>`: biome's binary (npm's `node_modules/.bin/biome` is a Node.js launcher of it), `lint
 *   --reporter=json --max-diagnostics=none <dir>`;
 * - `biome lint, poly's flags`: the exact command `lintMany` starts, the files as arguments;
 * - `lintMany`: a Deno process that reads the files as a run does and calls
 *   `Biome.lintMany` once (the figure is that call: starting Node and biome,
 *   reading the report, converting every position).
 *
 * Wall-clock medians, and CPU seconds (user + system, children included, from
 * `/usr/bin/time` where it exists), which a shared machine disturbs much less;
 * for `lintMany` the CPU of a process that only reads the files is subtracted.
 * Last, the WebAssembly per-file path on a sample, scaled to 2,000 files (one
 * thread; a run spreads it over its worker pool).
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateCorpus } from "./corpus.ts";
import { median, ms } from "./_measure.ts";
import { Biome } from "../../lib/engines/biome/mod.ts";
import { configuration } from "../../lib/engines/biome/_shared.ts";
import { biomeCommand, executableUrl } from "../../lib/engines/biome/_bin.ts";
import type { EngineSettings, SourceFile } from "../../lib/engines/types.ts";
import { tempDir, tempFile } from "../_helpers/temp.ts";

const RUNS = Number(Deno.env.get("RUNS") ?? 5);
const FILES = 2000;
const SAMPLE = 200;
const BIOME = fileURLToPath(executableUrl());

const settings: EngineSettings = {
  defaults: { line_length: 120, line_ending: "lf", final_newline: true, trim_trailing_whitespace: true },
  tool: {},
};

async function readCorpus(tsDir: string): Promise<SourceFile[]> {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const files: SourceFile[] = [];
  for await (const pkg of Deno.readDir(tsDir)) {
    for await (const e of Deno.readDir(join(tsDir, pkg.name))) {
      const path = join(tsDir, pkg.name, e.name);
      const text = decoder.decode(await Deno.readFile(path));
      files.push({ path, relPath: `${pkg.name}/${e.name}`, language: "typescript", text });
    }
  }
  return files.sort((a, b) => a.relPath < b.relPath ? -1 : 1);
}

// Child mode: read the corpus, call lintMany once (unless "read-only"), print the call's milliseconds.
if (Deno.args[0] === "--child") {
  const files = await readCorpus(Deno.args[1]);
  if (Deno.args[2] !== "read-only") {
    const engine = new Biome();
    let native = 0;
    engine.native = { onRun: (r) => (native += r.processed) };
    const start = performance.now();
    await engine.lintMany(files, settings);
    console.log(JSON.stringify({ ms: performance.now() - start, native, files: files.length }));
  } else {
    console.log(JSON.stringify({ ms: 0, native: 0, files: files.length }));
  }
  Deno.exit(0);
}

interface Sample {
  wall: number;
  cpu?: number;
  stdout: string;
}

let haveTime: boolean | undefined;

/** Runs a command; wall-clock ms, and CPU ms (user + system, waited-for children included) when /usr/bin/time exists. */
async function measure(cmd: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Sample> {
  haveTime ??= await Deno.stat("/usr/bin/time").then(() => true, () => false);
  const out = haveTime ? await tempFile() : undefined;
  const argv = out ? ["/usr/bin/time", "-f", "%U %S", "-o", out, ...cmd] : cmd;
  const start = performance.now();
  const run = await new Deno.Command(argv[0], { args: argv.slice(1), ...options, stdout: "piped", stderr: "piped" })
    .output();
  const wall = performance.now() - start;
  const stdout = new TextDecoder().decode(run.stdout);
  if (run.code > 1) console.error(`${cmd.slice(0, 3).join(" ")}: exit ${run.code}`);
  let cpu: number | undefined;
  if (out) {
    const [u, s] = (await Deno.readTextFile(out)).trim().split("\n").pop()!.split(" ").map(Number);
    if (Number.isFinite(u) && Number.isFinite(s)) cpu = (u + s) * 1000;
    await Deno.remove(out);
  }
  return { wall, cpu, stdout };
}

function line(label: string, values: number[], unit = ""): void {
  console.log(
    `${label.padEnd(50)} median ${ms(median(values)).padStart(10)}${unit}   runs ${values.map(ms).join(", ")}`,
  );
}

const dir = await tempDir({ prefix: "poly-biome-bench-" });
try {
  await generateCorpus(dir, { typescript: FILES });
  const tsDir = join(dir, "typescript");
  const files = await readCorpus(tsDir);
  console.log(`corpus: ${files.length} TypeScript files in ${tsDir}; ${navigator.hardwareConcurrency} CPUs`);

  const command = await biomeCommand();
  if (!command) console.log("no native biome for this platform: lintMany runs on WebAssembly");
  const cfgDir = await tempDir({ prefix: "poly-biome-bench-cfg-" });
  await Deno.writeTextFile(
    join(cfgDir, "biome.json"),
    JSON.stringify({ ...configuration(settings, "lint"), vcs: { enabled: false } }),
  );
  const self = new URL(import.meta.url).pathname;
  const child = [Deno.execPath(), "run", "-A", "--node-modules-dir=manual", self, "--child", tsDir];
  const runs: Record<string, (() => Promise<Sample>) | undefined> = {
    "biome lint <dir> (native CLI 2.5.14)": () =>
      measure([BIOME, "lint", "--reporter=json", "--max-diagnostics=none", tsDir], { cwd: dir }),
    "biome lint, poly's flags, files as arguments": command && (() =>
      measure([
        command.binary,
        "lint",
        `--config-path=${join(cfgDir, "biome.json")}`,
        "--colors=off",
        "--max-diagnostics=none",
        "--verbose",
        "--reporter=summary",
        "--reporter=json",
        `--reporter-file=${join(cfgDir, "report.json")}`,
        ...files.map((f) => f.path),
      ], { cwd: cfgDir, env: command.env })),
    "Biome.lintMany (one call, 2,000 files)": async () => {
      const sample = await measure(child);
      const result = JSON.parse(sample.stdout.trim().split("\n").pop()!);
      if (result.native !== result.files) console.error(`only ${result.native} files were linted natively`);
      return { ...sample, wall: result.ms };
    },
    "(reading the files only, subtracted from lintMany's CPU)": () => measure([...child, "read-only"]),
  };
  const wall: Record<string, number[]> = {};
  const cpu: Record<string, number[]> = {};
  for (let i = 0; i < RUNS; i++) {
    for (const [label, run] of Object.entries(runs)) {
      if (!run) continue;
      const s = await run();
      (wall[label] ??= []).push(s.wall);
      if (s.cpu !== undefined) (cpu[label] ??= []).push(s.cpu);
    }
  }
  await Deno.remove(cfgDir, { recursive: true });
  const base = cpu["(reading the files only, subtracted from lintMany's CPU)"];
  console.log("wall clock:");
  for (const [label, t] of Object.entries(wall)) if (!label.startsWith("(")) line(`  ${label}`, t);
  if (Object.keys(cpu).length) {
    console.log("CPU (user + system):");
    for (const [label, t] of Object.entries(cpu)) {
      if (label.startsWith("(")) continue;
      line(`  ${label}`, label.startsWith("Biome.lintMany") && base ? t.map((v, i) => v - base[i]) : t);
    }
  }
  const direct = wall["biome lint <dir> (native CLI 2.5.14)"];
  const batch = wall["Biome.lintMany (one call, 2,000 files)"];
  console.log(`ratio lintMany / biome lint <dir>, wall medians: ${(median(batch) / median(direct)).toFixed(2)}`);

  const wasm = new Biome();
  wasm.native = { command: null };
  const load = performance.now();
  await wasm.lint(files[0], settings);
  const loaded = performance.now() - load;
  const scaled: number[] = [];
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    for (const f of files.slice(0, SAMPLE)) await wasm.lint(f, settings).catch(() => {});
    scaled.push((performance.now() - start) * (FILES / SAMPLE));
  }
  console.log(`WebAssembly module load: ${ms(loaded)}`);
  line(`WebAssembly lint(), ${SAMPLE} files scaled to ${FILES}`, scaled);
} finally {
  await Deno.remove(dir, { recursive: true });
}
