/**
 * Rules bench: the built-in TypeScript and Python rules over 2,000 generated
 * TypeScript and 2,000 generated Python files, poly's ast-grep engine versus
 * `ast-grep scan` (npm `@ast-grep/cli`, the same version as `@ast-grep/napi`)
 * with the same rule files on the same files. Both sides run as fresh processes;
 * the figure is the ratio of median wall times (target ≤ 1.5). Finding counts
 * must agree, or the bench fails.
 *
 * Usage: deno run -P=test tests/bench/rules_bench.ts
 * Env: POLY_BENCH_FILES (per language, default 2000), POLY_BENCH_RUNS (default 5).
 *
 * @module
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { BUILTIN_DIR } from "../../lib/rules/_files.ts";
import { REPO } from "../_helpers/cli.ts";
import { writeRulesCorpus } from "./_rules_corpus.ts";

const FILES = Number(Deno.env.get("POLY_BENCH_FILES") ?? 2000);
const RUNS = Number(Deno.env.get("POLY_BENCH_RUNS") ?? 5);

/** The native ast-grep binary of @ast-grep/cli (falls back to the npm launcher). */
function astGrepBinary(): string {
  try {
    const require = createRequire(join(REPO, "deno.json"));
    const cli = dirname(require.resolve("@ast-grep/cli/package.json"));
    const arch = Deno.build.arch === "aarch64" ? "arm64" : "x64";
    const os = Deno.build.os === "windows" ? "win32" : Deno.build.os;
    const suffix = os === "linux" ? "-gnu" : os === "win32" ? "-msvc" : "";
    const pkg = dirname(createRequire(join(cli, "package.json")).resolve(`@ast-grep/cli-${os}-${arch}${suffix}/package.json`));
    return join(pkg, os === "win32" ? "ast-grep.exe" : "ast-grep");
  } catch {
    return join(REPO, "node_modules", ".bin", "ast-grep");
  }
}

/** Runs a process to the end; exit 1 counts as success (ast-grep's "error-level findings"). */
async function timed(cmd: string, args: string[], cwd: string): Promise<{ ms: number; stdout: string }> {
  const start = performance.now();
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" }).output();
  const ms = performance.now() - start;
  if (out.code !== 0 && out.code !== 1) throw new Error(`${cmd} ${args.join(" ")} failed:\n${new TextDecoder().decode(out.stderr)}`);
  return { ms, stdout: new TextDecoder().decode(out.stdout) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (import.meta.main) {
  const dir = await Deno.makeTempDir({ prefix: "poly-rules-bench-" });
  await writeRulesCorpus(dir, FILES);
  // The same rule files for both sides: ast-grep reads them through sgconfig.yml.
  await Deno.mkdir(join(dir, "rules"));
  for (const lang of ["typescript", "python"]) {
    for await (const e of Deno.readDir(join(BUILTIN_DIR, lang))) {
      if (!e.name.endsWith("-test.yml")) await Deno.copyFile(join(BUILTIN_DIR, lang, e.name), join(dir, "rules", e.name));
    }
  }
  await Deno.writeTextFile(join(dir, "sgconfig.yml"), "ruleDirs:\n  - rules\n");

  const sg = astGrepBinary();
  const sgArgs = ["scan", "-c", "sgconfig.yml", "--json=stream", "src", "pkg"];
  const polyArgs = ["run", "-q", "-P=test", "--config", join(REPO, "deno.json"), join(REPO, "tests/bench/_rules_scan.ts"), dir];
  const ours: number[] = [];
  const theirs: number[] = [];
  const engine: number[] = [];
  let counts: [number, number] = [0, 0];
  for (let i = 0; i < RUNS; i++) {
    const a = await timed(sg, sgArgs, dir);
    const b = await timed(Deno.execPath(), polyArgs, dir);
    theirs.push(a.ms);
    ours.push(b.ms);
    const parsed = JSON.parse(b.stdout) as { findings: number; engine_ms: number };
    engine.push(parsed.engine_ms);
    counts = [a.stdout.split("\n").filter((l) => l.trim()).length, parsed.findings];
  }
  const files = FILES * 2;
  console.log(`rules bench: ${files} files (${FILES} TypeScript + ${FILES} Python), ${RUNS} runs, rules: built-in TS + Python`);
  console.log(`findings: ast-grep scan ${counts[0]}, poly ${counts[1]}`);
  console.log(`ast-grep scan (${sg.split("/").pop()}): median ${median(theirs).toFixed(0)} ms`);
  console.log(`poly engine (fresh deno process): median ${median(ours).toFixed(0)} ms (in-process: ${median(engine)} ms)`);
  console.log(`ratio poly/ast-grep: ${(median(ours) / median(theirs)).toFixed(2)} (target <= 1.5)`);
  await Deno.remove(dir, { recursive: true });
  if (counts[0] !== counts[1]) {
    console.error("finding counts differ: the two sides did not apply the same rules");
    Deno.exit(1);
  }
}
