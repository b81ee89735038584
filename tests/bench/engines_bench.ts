/**
 * Engine bench: files per second of every engine on generated files (see
 * `corpus.ts`), next to the native tool where one is installed (biome CLI of the
 * same version from npm, gofmt, shfmt, rustfmt, shellcheck, oxlint's own CLI).
 *
 * poly's side calls the engine in-process, one file at a time, as a pipeline
 * worker does (host engines spawn their tool per file), and, for engines with a
 * batch method (`lintMany` / `formatMany`: oxlint, shellcheck, rustfmt), once
 * over all files; the native side is one process over all the files, as a
 * person would run it. Each figure is
 * the median of POLY_BENCH_RUNS runs; the ratio is poly time / native time (lower
 * is better). Nothing is asserted.
 *
 * Usage: deno run -P=test tests/bench/engines_bench.ts
 * Env: POLY_BENCH_FILES (per language, default 300), POLY_BENCH_RUNS (default 3).
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { engineById } from "../../lib/engines/registry.ts";
import { findExecutable } from "../../lib/fs/executable.ts";
import { Oxlint } from "../../lib/engines/oxlint/mod.ts";
import type { EngineSettings, Language, SourceFile } from "../../lib/engines/types.ts";
import { REPO } from "../_helpers/cli.ts";
import { type CorpusLanguage, generateCorpus } from "./corpus.ts";
import { tempDir } from "../_helpers/temp.ts";

const FILES = Number(Deno.env.get("POLY_BENCH_FILES") ?? 300);
const RUNS = Number(Deno.env.get("POLY_BENCH_RUNS") ?? 3);

const settings: EngineSettings = {
  defaults: { line_length: 120, line_ending: "lf", final_newline: true, trim_trailing_whitespace: true },
  tool: {},
};

interface Row {
  engine: string;
  mode: "lint" | "format";
  corpus: CorpusLanguage;
  language: Language;
  /** The native command over all files (paths relative to the corpus dir), when one exists. */
  native?: () => Promise<string[] | undefined>;
}

function biomeBinary(): string {
  const triple = Deno.build.os === "linux"
    ? `linux-${Deno.build.arch === "x86_64" ? "x64" : "arm64"}`
    : `${Deno.build.os}-x64`;
  return join(
    REPO,
    "node_modules",
    ".deno",
    `@biomejs+cli-${triple}@2.5.14`,
    "node_modules",
    "@biomejs",
    `cli-${triple}`,
    "biome",
  );
}

const ROWS: Row[] = [
  { engine: "ruff", mode: "lint", corpus: "python", language: "python" },
  { engine: "ruff", mode: "format", corpus: "python", language: "python" },
  {
    engine: "biome",
    mode: "lint",
    corpus: "typescript",
    language: "typescript",
    native: () => Promise.resolve([biomeBinary(), "lint", "--max-diagnostics=0", "typescript"]),
  },
  {
    engine: "biome",
    mode: "format",
    corpus: "typescript",
    language: "typescript",
    native: () => Promise.resolve([biomeBinary(), "format", "--max-diagnostics=0", "typescript"]),
  },
  {
    engine: "oxlint",
    mode: "lint",
    corpus: "typescript",
    language: "typescript",
    native: () =>
      Promise.resolve([
        "node",
        fileURLToPath(new URL("bin/oxlint", new URL("../", import.meta.resolve("oxlint")))),
        "--format",
        "json",
        "typescript",
      ]),
  },
  {
    engine: "gofmt",
    mode: "format",
    corpus: "go",
    language: "go",
    native: () => Promise.resolve(findExecutable("gofmt") ? ["gofmt", "-l", "go"] : undefined),
  },
  {
    engine: "shfmt",
    mode: "format",
    corpus: "shell",
    language: "shell",
    native: () => Promise.resolve(findExecutable("shfmt") ? ["shfmt", "-l", "shell"] : undefined),
  },
  {
    engine: "shellcheck",
    mode: "lint",
    corpus: "shell",
    language: "shell",
    native: () =>
      Promise.resolve(findExecutable("shellcheck") ? ["shellcheck", "-f", "json1", ...list("shell")] : undefined),
  },
  {
    engine: "rustfmt",
    mode: "format",
    corpus: "rust",
    language: "rust",
    native: () =>
      Promise.resolve(
        findExecutable("rustfmt") ? ["rustfmt", "--check", "--edition", "2021", ...list("rust")] : undefined,
      ),
  },
  { engine: "dprint", mode: "format", corpus: "toml", language: "toml" },
  { engine: "dprint", mode: "format", corpus: "markdown", language: "markdown" },
  { engine: "toml", mode: "lint", corpus: "toml", language: "toml" },
  { engine: "yaml", mode: "lint", corpus: "yaml", language: "yaml" },
  { engine: "prettier", mode: "format", corpus: "yaml", language: "yaml" },
  { engine: "markdownlint", mode: "lint", corpus: "markdown", language: "markdown" },
  { engine: "clang-format", mode: "format", corpus: "c", language: "c" },
  { engine: "sqlfmt", mode: "format", corpus: "sql", language: "sql" },
  { engine: "luafmt", mode: "format", corpus: "lua", language: "lua" },
  { engine: "mago", mode: "format", corpus: "php", language: "php" },
  { engine: "webfmt", mode: "format", corpus: "html", language: "html" },
];

const dir = await tempDir({ prefix: "poly-engines-bench-" });
const counts = Object.fromEntries([...new Set(ROWS.map((r) => r.corpus))].map((c) => [c, FILES]));
const summary = await generateCorpus(dir, { ...counts, perDir: FILES });

function list(corpus: string): string[] {
  return summary.paths[corpus] ?? [];
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function timeIt(fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

type Many = (files: SourceFile[], s: EngineSettings) => Promise<unknown>;
const out: string[][] = [[
  "engine",
  "mode",
  "files",
  "poly per-file/s",
  "poly batch/s",
  "native files/s",
  "best poly/native time",
]];
for (const row of ROWS) {
  const spec = engineById(row.engine);
  if (!spec) continue;
  const paths = summary.paths[row.corpus];
  const files: SourceFile[] = await Promise.all(paths.map(async (rel) => ({
    path: join(dir, rel),
    relPath: rel,
    language: row.language,
    text: await Deno.readTextFile(join(dir, rel)),
  })));
  let engine;
  try {
    engine = await spec.load();
    if (spec.hostProgram && !findExecutable(spec.hostProgram)) throw new Error(`${spec.hostProgram} not on PATH`);
  } catch (e) {
    out.push([row.engine, row.mode, String(files.length), `skipped: ${(e as Error).message}`, "", "", ""]);
    continue;
  }
  const many = (engine as { lintMany?: Many; formatMany?: Many })[row.mode === "lint" ? "lintMany" : "formatMany"];
  const perFile = engine instanceof Oxlint ? undefined : await timeIt(async () => {
    for (const f of files) {
      try {
        if (row.mode === "lint") await engine.lint!(f, settings);
        else await engine.format!(f, settings);
      } catch { /* a file the engine rejects still costs its time */ }
    }
  });
  const batch = many ? await timeIt(() => many.call(engine, files, settings)) : undefined;
  const cmd = await row.native?.();
  let native: number | undefined;
  if (cmd) {
    native = await timeIt(() =>
      new Deno.Command(cmd[0], { args: cmd.slice(1), cwd: dir, stdout: "null", stderr: "null" }).output()
    );
  }
  const rate = (ms: number | undefined) => ms === undefined ? "-" : (files.length / (ms / 1000)).toFixed(0);
  const best = Math.min(perFile ?? Infinity, batch ?? Infinity);
  out.push([
    row.engine,
    row.mode,
    String(files.length),
    rate(perFile),
    rate(batch),
    rate(native),
    native ? `${(best / native).toFixed(2)}x` : "-",
  ]);
  console.error(`${row.engine} ${row.mode}: done`);
}

const widths = out[0].map((_, i) => Math.max(...out.map((r) => r[i].length)));
console.log(
  `engines bench: ${FILES} files per language, median of ${RUNS} runs (${Deno.build.os}, ${navigator.hardwareConcurrency} CPUs)`,
);
for (const r of out) console.log(r.map((c, i) => c.padEnd(widths[i])).join("  "));
await Deno.remove(dir, { recursive: true });
