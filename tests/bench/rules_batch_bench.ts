/**
 * The ast-grep engine's batch path alone: `lintMany` over the rules bench corpus
 * (generated TypeScript and Python files, the built-in TypeScript and Python
 * rules), next to `ast-grep scan` (the native binary of npm `@ast-grep/cli`, the
 * same version) with the same rule files on the same files. Prints medians;
 * asserts nothing. The pipeline around `lintMany` (discovery, reading, cache,
 * report) is not measured here: `rules_bench.ts` measures `poly lint`.
 *
 * Figures printed:
 * - `ast-grep scan`: the binary started directly, and through `sh -c exec` as poly starts it;
 * - `lintMany` as the first call of a fresh process (the rule set loaded first, as a
 *   run does for its cache key; nothing else warmed up): the case of a `poly lint` run;
 * - `lintMany` in a warm process, rule set loaded, and including loading it
 *   (`clearRuleSetCache()` before the call);
 * - the napi per-file path (`lintWithRules`, one thread), one run, for reference.
 *
 * Usage: deno run -P=test tests/bench/rules_batch_bench.ts
 * Env: POLY_BENCH_FILES (per language, default 2000), POLY_BENCH_RUNS (default 5),
 * POLY_BENCH_NAPI=0 skips the napi reference run.
 *
 * @module
 */
import { join, relative } from "node:path";
import { astGrepEngine } from "../../lib/engines/ast_grep/mod.ts";
import type { EngineSettings, LintOutput, Settled, SourceFile } from "../../lib/engines/types.ts";
import { BUILTIN_DIR } from "../../lib/rules/_files.ts";
import { astGrepExecutable, binaryUrl } from "../../lib/engines/ast_grep/_cli_bin.ts";
import { runExecutable } from "../../lib/engines/host.ts";
import { lintBatch } from "../../lib/engines/ast_grep/batch.ts";
import { lintWithRules } from "../../lib/engines/ast_grep/diagnose.ts";
import { clearRuleSetCache, loadRuleSet } from "../../lib/rules/load.ts";
import { writeRulesCorpus, writeRulesForScan } from "./_rules_corpus.ts";
import { tempDir } from "../_helpers/temp.ts";

const FILES = Number(Deno.env.get("POLY_BENCH_FILES") ?? 2000);
const RUNS = Number(Deno.env.get("POLY_BENCH_RUNS") ?? 5);
const NAPI = Deno.env.get("POLY_BENCH_NAPI") !== "0";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(cmd: string, args: string[], cwd: string): Promise<{ ms: number; lines: number }> {
  const start = performance.now();
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" }).output();
  const ms = performance.now() - start;
  if (out.code !== 0 && out.code !== 1) throw new Error(new TextDecoder().decode(out.stderr));
  return { ms, lines: new TextDecoder().decode(out.stdout).split("\n").filter((l) => l.trim()).length };
}

function count(results: Settled<LintOutput>[]): number {
  let n = 0;
  for (const r of results) {
    if (r instanceof Error) throw r;
    n += r.diagnostics.length;
  }
  return n;
}

/** The built-in rule ids of the TypeScript and Python packs. */
async function enabledIds(): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const lang of ["typescript", "python"]) {
    for await (const e of Deno.readDir(join(BUILTIN_DIR, lang))) {
      if (!e.name.endsWith("-test.yml")) ids.add(e.name.replace(/\.yml$/, ""));
    }
  }
  return ids;
}

/** The corpus's files and the engine settings: the built-in pack with other languages' rules disabled. */
async function setup(dir: string): Promise<{ files: SourceFile[]; settings: EngineSettings }> {
  const enabled = await enabledIds();
  const all = await loadRuleSet(dir, { dirs: [] });
  const overrides = Object.fromEntries(
    all.rules.filter((r) => !enabled.has(r.id)).map((r) => [r.id, { enabled: false }]),
  );
  const settings: EngineSettings = {
    defaults: { line_length: 100, line_ending: "lf", final_newline: true, trim_trailing_whitespace: true },
    tool: {},
    configDir: dir,
    rules: { dirs: [], overrides },
  };
  const paths: string[] = [];
  for (const sub of ["src", "pkg"]) {
    for (const e of Deno.readDirSync(join(dir, sub))) paths.push(join(dir, sub, e.name));
  }
  const files: SourceFile[] = await Promise.all(
    paths.sort().map(async (path) => ({
      path,
      relPath: relative(dir, path),
      language: path.endsWith(".py") ? "python" as const : "typescript" as const,
      text: await Deno.readTextFile(path),
    })),
  );
  return { files, settings };
}

/** `--once DIR`: one `lintMany` as the first call of this process; prints `{"ms": N, "findings": N}`. */
async function once(dir: string): Promise<void> {
  const { files, settings } = await setup(dir);
  await loadRuleSet(dir, settings.rules);
  const engine = await astGrepEngine.load();
  const start = performance.now();
  const results = await engine.lintMany!(files, settings);
  console.log(JSON.stringify({ ms: Math.round(performance.now() - start), findings: count(results) }));
}

async function main(): Promise<void> {
  const dir = await tempDir({ prefix: "poly-rules-batch-bench-" });
  try {
    await writeRulesCorpus(dir, FILES);
    // ast-grep scan: the same rule files, through sgconfig.yml.
    await writeRulesForScan(dir);
    const { files, settings } = await setup(dir);
    const engine = await astGrepEngine.load();
    const binary = binaryUrl()!.pathname;
    const executable = (await astGrepExecutable())!;
    const sgArgs = ["scan", "-c", "sgconfig.yml", "--json=stream", "src", "pkg"];
    const onceArgs = ["run", "-q", "-P=test", "--node-modules-dir=manual", import.meta.filename!, "--once", dir];

    const direct: number[] = [];
    const viaSh: number[] = [];
    const fresh: number[] = [];
    const warm: number[] = [];
    const cold: number[] = [];
    let counts = { scan: 0, fresh: 0, batch: 0 };
    for (let i = 0; i < RUNS; i++) {
      const a = await timed(binary, sgArgs, dir);
      direct.push(a.ms);
      const t = performance.now();
      await runExecutable(executable, sgArgs, { cwd: dir });
      viaSh.push(performance.now() - t);
      const run = await new Deno.Command(Deno.execPath(), { args: onceArgs, stdout: "piped", stderr: "inherit" })
        .output();
      const report = JSON.parse(new TextDecoder().decode(run.stdout)) as { ms: number; findings: number };
      fresh.push(report.ms);
      clearRuleSetCache();
      let start = performance.now();
      const first = await engine.lintMany!(files, settings);
      cold.push(performance.now() - start);
      start = performance.now();
      const second = await engine.lintMany!(files, settings);
      warm.push(performance.now() - start);
      counts = { scan: a.lines, fresh: report.findings, batch: count(first) };
      if (count(second) !== counts.batch) throw new Error("two lintMany runs disagree");
    }
    const set = await loadRuleSet(dir, settings.rules);
    const { stats } = await lintBatch(set, files);
    const ratio = (xs: number[]) => (median(xs) / median(direct)).toFixed(2);
    console.log(`rules batch bench: ${files.length} files (${FILES} TypeScript + ${FILES} Python), ${RUNS} runs`);
    console.log(`findings: ast-grep scan ${counts.scan}, lintMany ${counts.batch} (fresh process ${counts.fresh})`);
    console.log(
      `batch stats: ${stats.viaCli} files via the command line, ${stats.viaNapi} via napi, ` +
        `${stats.processes} process(es), ${stats.failures} failure(s)`,
    );
    console.log(`ast-grep scan, binary started directly:   median ${median(direct).toFixed(0)} ms`);
    console.log(`ast-grep scan, as poly starts it (sh):   median ${median(viaSh).toFixed(0)} ms`);
    console.log(`lintMany, first call of a fresh process:  median ${median(fresh).toFixed(0)} ms (${ratio(fresh)}x)`);
    console.log(`lintMany, warm process, rule set loaded:  median ${median(warm).toFixed(0)} ms (${ratio(warm)}x)`);
    console.log(`lintMany, warm process, loading rule set: median ${median(cold).toFixed(0)} ms (${ratio(cold)}x)`);
    if (NAPI) {
      const start = performance.now();
      let n = 0;
      for (const file of files) n += (await lintWithRules(set, file)).length;
      const ms = performance.now() - start;
      console.log(`napi per-file path (one thread, one run): ${ms.toFixed(0)} ms, ${n} findings`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  if (Deno.args[0] === "--once") await once(Deno.args[1]);
  else await main();
}
