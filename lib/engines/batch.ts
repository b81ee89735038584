/**
 * Micro-batching for engines that start a process: calls made in the same tick
 * with equal settings are collected and handed to one batch function (one
 * process for many files). A caller that awaits each file in turn still works,
 * one file per batch; a caller that starts many at once gets them batched.
 *
 * @module
 */
import {
  EngineError,
  type EngineInstance,
  type EngineSettings,
  type LintOutput,
  type Settled,
  type SourceFile,
} from "./types.ts";
import { dirname } from "node:path";
import { makeTempDir, removeTemp } from "../fs/temp.ts";

export type { Settled };

interface Pending<T> {
  file: SourceFile;
  settings: EngineSettings;
  resolve: (value: Settled<T>) => void;
  reject: (error: unknown) => void;
}

/** Collects per-file calls and runs them through `run` in batches. */
export class Batcher<T> {
  #pending: Pending<T>[] = [];
  constructor(private readonly run: (files: SourceFile[], settings: EngineSettings) => Promise<Settled<T>[]>) {}

  /** Queues one file; resolves with its result or throws its error. */
  async call(file: SourceFile, settings: EngineSettings): Promise<T> {
    const result = await new Promise<Settled<T>>((resolve, reject) => {
      this.#pending.push({ file, settings, resolve, reject });
      if (this.#pending.length === 1) setTimeout(() => this.#flush(), 0);
    });
    if (result instanceof Error) throw result;
    return result;
  }

  async #flush(): Promise<void> {
    const batch = this.#pending;
    this.#pending = [];
    const groups = new Map<string, Pending<T>[]>();
    for (const item of batch) {
      const key = JSON.stringify(item.settings);
      groups.set(key, [...(groups.get(key) ?? []), item]);
    }
    for (const group of groups.values()) {
      try {
        const results = await this.run(group.map((g) => g.file), group[0].settings);
        group.forEach((g, i) => g.resolve(results[i]));
      } catch (e) {
        group.forEach((g) => g.reject(e));
      }
    }
  }
}

/** Characters of path arguments one process is given at most: far under every platform's command-line limit. */
export const ARGS_BUDGET = Deno.build.os === "windows" ? 24_000 : 256_000;

/**
 * Writes files into a private temporary directory, each in its own numbered
 * folder under its own base name (extensions matter to tools), runs `fn` with the
 * relative names, and removes the directory. `nameOf` places a file elsewhere in
 * the directory instead (a `/`-separated path below it; oxlint lays files out as
 * they lie under their configuration); a name given twice is written once.
 */
export async function withTempFiles<R>(
  files: SourceFile[],
  fn: (dir: string, names: string[]) => Promise<R>,
  nameOf: (file: SourceFile, index: number) => string = (f, i) => `${i}/${f.relPath.split("/").pop()}`,
): Promise<R> {
  const dir = await makeTempDir("poly-batch-");
  try {
    const names = files.map(nameOf);
    const first = new Map<string, SourceFile>();
    files.forEach((f, i) => first.has(names[i]) || first.set(names[i], f));
    // Each folder made once, then each copy written: hundreds of small writes, faster in turn than as promises.
    for (const folder of new Set([...first.keys()].map((name) => dirname(`${dir}/${name}`)))) {
      Deno.mkdirSync(folder, { recursive: true });
    }
    for (const [name, f] of first) Deno.writeTextFileSync(`${dir}/${name}`, f.text);
    return await fn(dir, names);
  } finally {
    await removeTemp(dir);
  }
}

/**
 * One run of a linter over private copies of `files` (at most a chunk), with its fixes applied when `fix`: each
 * file's outcome (computed on its text after the run) and that text.
 */
export type CopiesRun = (
  files: SourceFile[],
  settings: EngineSettings,
  fix: boolean,
) => Promise<{ outcomes: Settled<LintOutput>[]; texts: string[] }>;

/**
 * A linter whose process runs over private copies of the files (oxlint, deno lint): many files per process, a chunk
 * at a time; single calls made in the same tick batched; a fix applied to a copy, counted as the findings it removed.
 */
export class CopiesLinter implements EngineInstance {
  #batcher = new Batcher<LintOutput>((files, settings) => this.lintMany(files, settings));
  /**
   * `chunk`: at most this many files per process; `budget`: at most about this many characters of their paths (the
   * names the process is given are no longer), far under every platform's command-line limit.
   */
  constructor(private readonly run: CopiesRun, private readonly chunk = 500, private readonly budget = ARGS_BUDGET) {}

  /** Lints many files sharing one settings object: one process per chunk. */
  async lintMany(files: SourceFile[], settings: EngineSettings): Promise<Settled<LintOutput>[]> {
    const out: Settled<LintOutput>[] = [];
    for (let start = 0; start < files.length;) {
      let end = start;
      for (let size = 0; end < files.length && end - start < this.chunk; end++) {
        size += files[end].path.length + 1;
        if (size > this.budget && end > start) break;
      }
      out.push(...(await this.run(files.slice(start, end), settings, false)).outcomes);
      start = end;
    }
    return out;
  }

  /** Lints one file; calls made in the same tick with equal settings share one process. */
  lint(file: SourceFile, settings: EngineSettings): Promise<LintOutput> {
    return this.#batcher.call(file, settings);
  }

  /** Applies the tool's fixes to a copy of the text. */
  async fix(file: SourceFile, settings: EngineSettings): Promise<{ text: string; fixed: number }> {
    const before = await this.lint(file, settings);
    const { outcomes: [after], texts: [text] } = await this.run([file], settings, true);
    if (after instanceof EngineError || text === file.text) return { text: file.text, fixed: 0 };
    return { text, fixed: Math.max(before.diagnostics.length - (after as LintOutput).diagnostics.length, 1) };
  }
}
