/**
 * The shared benchmark corpus: realistic generated files in 16 languages
 * (varied imports, classes and functions; a share with lint findings and a share
 * with broken formatting), deterministic for a seed. Used by the engine, rules
 * and whole-run benchmarks.
 *
 * @example
 * ```ts
 * import { generateCorpus, LARGE_CORPUS } from "./corpus.ts";
 * await generateCorpus(dir, { python: 2000, typescript: 2000 });
 * await generateCorpus(dir, LARGE_CORPUS); // 20,800 files in 16 languages
 * ```
 *
 * Run it directly to make one: `deno run -A tests/bench/corpus.ts DIR [large]`.
 *
 * @module
 */
import { join } from "node:path";
import { GENERATORS, Rng } from "./_corpus_langs.ts";
import { tempDir } from "../_helpers/temp.ts";

/** Languages the corpus can generate. */
export type CorpusLanguage = keyof typeof GENERATORS;

/** How many files of each language (missing = 0), plus knobs. */
export type CorpusOptions = Partial<Record<CorpusLanguage, number>> & {
  /** PRNG seed (default 1): the same seed gives the same files. */
  seed?: number;
  /** Share of files with lint findings (default 0.2). */
  findings?: number;
  /** Share of files with broken formatting (default 0.2). */
  unformatted?: number;
  /** Files per directory (default 100); Go files of one directory form one package. */
  perDir?: number;
};

/** What {@link generateCorpus} wrote. */
export interface CorpusSummary {
  files: number;
  bytes: number;
  byLanguage: Record<string, number>;
  /** Paths relative to the corpus directory, by language. */
  paths: Record<string, string[]>;
}

/** The issue-3 corpus: 20,800 files across 16 languages. */
export const LARGE_CORPUS: CorpusOptions = {
  python: 3000,
  typescript: 3000,
  javascript: 1500,
  go: 1500,
  shell: 1200,
  toml: 1000,
  yaml: 1500,
  markdown: 1500,
  json: 1500,
  css: 1000,
  rust: 800,
  c: 800,
  sql: 600,
  lua: 600,
  php: 600,
  html: 700,
};

const OPTION_KEYS = new Set(["seed", "findings", "unformatted", "perDir"]);

/** Writes the corpus under `dir` (`<dir>/<language>/pkgNN/file_NNNNN.<ext>`). */
export async function generateCorpus(dir: string, options: CorpusOptions): Promise<CorpusSummary> {
  const rng = new Rng(options.seed ?? 1);
  const perDir = options.perDir ?? 100;
  const summary: CorpusSummary = { files: 0, bytes: 0, byLanguage: {}, paths: {} };
  const encoder = new TextEncoder();
  for (const [language, count] of Object.entries(options)) {
    if (OPTION_KEYS.has(language) || typeof count !== "number" || count <= 0) continue;
    const entry = GENERATORS[language];
    if (!entry) {
      throw new Error(`generateCorpus: unknown language "${language}" (known: ${Object.keys(GENERATORS).join(", ")})`);
    }
    const [ext, make] = entry;
    summary.paths[language] = [];
    for (let n = 0; n < count; n++) {
      const pkg = `pkg${String(Math.floor(n / perDir)).padStart(3, "0")}`;
      const rel = join(language, pkg, `file_${String(n).padStart(5, "0")}.${ext}`);
      if (n % perDir === 0) await Deno.mkdir(join(dir, language, pkg), { recursive: true });
      const text = make({
        rng,
        n,
        pkg,
        bad: rng.next() < (options.findings ?? 0.2),
        messy: rng.next() < (options.unformatted ?? 0.2),
      });
      const bytes = encoder.encode(text);
      await Deno.writeFile(join(dir, rel), bytes);
      summary.bytes += bytes.length;
      summary.paths[language].push(rel);
    }
    summary.byLanguage[language] = count;
    summary.files += count;
  }
  return summary;
}

if (import.meta.main) {
  const [dir, size] = Deno.args;
  if (!dir) throw new Error("usage: deno run -A tests/bench/corpus.ts DIR [large]");
  const summary = await generateCorpus(dir, size === "large" ? LARGE_CORPUS : { python: 2000, typescript: 2000 });
  console.log(`${summary.files} files, ${(summary.bytes / 1024 / 1024).toFixed(1)} MiB:`, summary.byLanguage);
}

/**
 * {@link LARGE_CORPUS} scaled by `factor` (each language's count, at least 1) in a new
 * temporary folder named with `prefix`, marked as a workspace root; the folder and
 * how many files it holds.
 */
export async function largeCorpus(prefix: string, factor: number): Promise<{ dir: string; files: number }> {
  const options: CorpusOptions = {};
  for (const [k, v] of Object.entries(LARGE_CORPUS)) {
    (options as Record<string, number>)[k] = Math.max(1, Math.round((v as number) * factor));
  }
  const dir = await tempDir({ prefix });
  const summary = await generateCorpus(dir, options);
  await Deno.writeTextFile(join(dir, "poly.toml"), "[workspace]\nroot = true\n");
  return { dir, files: summary.files };
}
