/**
 * Rules bench: the built-in TypeScript and Python rules over 2,000 generated
 * TypeScript and 2,000 generated Python files, poly's ast-grep engine versus
 * `ast-grep scan` (npm `@ast-grep/cli`, the same version as `@ast-grep/napi`)
 * with the same rule files on the same files. Every side runs as a fresh process:
 *
 * - `poly lint` (the real pipeline: discovery, the pre-pass, the rules engine's
 *   batch path — one `ast-grep scan` process —, report) with every
 *   other lint engine switched off in poly.toml and the cache bypassed;
 * - the engine library alone (`_rules_scan.ts`) on one thread, without the
 *   pipeline around it: the engine's own cost per file.
 *
 * The figure is the ratio of median wall times, `poly lint` / `ast-grep scan`
 * (target ≤ 1.5); the median of the per-run ratios is printed too (each run
 * times the two sides back to back, so a noisy neighbour slows both). Finding
 * counts must agree on all sides, or the bench fails.
 *
 * Usage: deno run -P=test tests/bench/rules_bench.ts
 * Env: POLY_BENCH_FILES (per language, default 2000), POLY_BENCH_RUNS (default 5).
 *
 * @module
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { BUILTIN_DIR } from "../../lib/rules/_files.ts";
import { polyCommand, REPO } from "../_helpers/cli.ts";
import { writeRulesCorpus, writeRulesForScan } from "./_rules_corpus.ts";
import { tempDir } from "../_helpers/temp.ts";

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
    const pkg = dirname(
      createRequire(join(cli, "package.json")).resolve(`@ast-grep/cli-${os}-${arch}${suffix}/package.json`),
    );
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
  if (out.code !== 0 && out.code !== 1) {
    throw new Error(`${cmd} ${args.join(" ")} failed:\n${new TextDecoder().decode(out.stderr)}`);
  }
  return { ms, stdout: new TextDecoder().decode(out.stdout) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (import.meta.main) {
  const dir = await tempDir({ prefix: "poly-rules-bench-" });
  await writeRulesCorpus(dir, FILES);
  // The same rule files for both sides: ast-grep reads them through sgconfig.yml.
  await writeRulesForScan(dir);
  // poly: only the built-in TypeScript and Python rules, no other engine.
  const overrides = (await Array.fromAsync(Deno.readDir(BUILTIN_DIR)))
    .filter((e) => e.isDirectory && e.name !== "typescript" && e.name !== "python")
    .flatMap((e) => [...Deno.readDirSync(join(BUILTIN_DIR, e.name))])
    .filter((f) => !f.name.endsWith("-test.yml"))
    .map((f) => `[rules.overrides."${f.name.replace(/\.yml$/, "")}"]\nenabled = false\n`);
  await Deno.writeTextFile(
    join(dir, "poly.toml"),
    ["[tools.ruff]\nenabled = false\n", "[tools.biome]\nenabled = false\n", ...overrides].join("\n"),
  );

  const sg = astGrepBinary();
  const sgArgs = ["scan", "-c", "sgconfig.yml", "--json=stream", "src", "pkg"];
  const polyArgs = [
    "run",
    "-q",
    "-P=test",
    "--node-modules-dir=manual",
    "--config",
    join(REPO, "deno.json"),
    join(REPO, "tests/bench/_rules_scan.ts"),
    dir,
    "1",
  ];
  // poly as the other benches and the tests run it from source (`polyCommand()`: node_modules/ as installed).
  const [deno, ...polyArgs0] = polyCommand();
  const lintArgs = [...polyArgs0, "lint", "--format", "json", "--no-cache", "--no-workspace", "src", "pkg"];
  const theirs: number[] = [];
  const lint: number[] = [];
  const ours: number[] = [];
  const engine: number[] = [];
  let counts: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < RUNS; i++) {
    const a = await timed(sg, sgArgs, dir);
    const b = await timed(deno, lintArgs, dir);
    const c = await timed(Deno.execPath(), polyArgs, dir);
    theirs.push(a.ms);
    lint.push(b.ms);
    ours.push(c.ms);
    const report = JSON.parse(b.stdout) as { results: { diagnostics?: { engine: string }[] }[] };
    const parsed = JSON.parse(c.stdout) as { findings: number; engine_ms: number };
    engine.push(parsed.engine_ms);
    const fromLint = report.results.flatMap((r) => r.diagnostics ?? []).filter((d) => d.engine === "ast-grep").length;
    counts = [a.stdout.split("\n").filter((l) => l.trim()).length, fromLint, parsed.findings];
  }
  const files = FILES * 2;
  console.log(
    `rules bench: ${files} files (${FILES} TypeScript + ${FILES} Python), ${RUNS} runs, rules: built-in TS + Python`,
  );
  console.log(`findings: ast-grep scan ${counts[0]}, poly lint ${counts[1]}, engine alone ${counts[2]}`);
  console.log(`ast-grep scan (native binary, all cores): median ${median(theirs).toFixed(0)} ms`);
  console.log(`poly lint (pipeline, only ast-grep):  median ${median(lint).toFixed(0)} ms`);
  console.log(
    `napi per-file engine alone (one thread): median ${median(ours).toFixed(0)} ms (${
      median(engine)
    } ms after start-up)`,
  );
  console.log(`ratio poly lint / ast-grep scan: ${(median(lint) / median(theirs)).toFixed(2)} (target <= 1.5)`);
  const pairs = lint.map((ms, i) => ms / theirs[i]);
  console.log(
    `ratio poly lint / ast-grep scan, median of the ${RUNS} pairs: ${median(pairs).toFixed(2)} (pairs ${
      pairs.map((r) => r.toFixed(2)).join(", ")
    })`,
  );
  console.log(`ratio engine alone / ast-grep scan: ${(median(ours) / median(theirs)).toFixed(2)}`);
  await Deno.remove(dir, { recursive: true });
  if (counts[0] !== counts[1] || counts[1] !== counts[2]) {
    console.error("finding counts differ: the two sides did not apply the same rules");
    Deno.exit(1);
  }
}
