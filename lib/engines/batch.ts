/**
 * Micro-batching for engines that start a process: calls made in the same tick
 * with equal settings are collected and handed to one batch function (one
 * process for many files). A caller that awaits each file in turn still works,
 * one file per batch; a caller that starts many at once gets them batched.
 *
 * @module
 */
import type { EngineSettings, Settled, SourceFile } from "./types.ts";
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

/**
 * Writes files into a private temporary directory, each in its own numbered
 * folder under its own base name (extensions matter to tools), runs `fn` with the
 * relative names, and removes the directory.
 */
export async function withTempFiles<R>(
  files: SourceFile[],
  fn: (dir: string, names: string[]) => Promise<R>,
): Promise<R> {
  const dir = await makeTempDir("poly-batch-");
  try {
    const names = files.map((f, i) => `${i}/${f.relPath.split("/").pop()}`);
    await Promise.all(files.map(async (f, i) => {
      await Deno.mkdir(`${dir}/${i}`);
      await Deno.writeTextFile(`${dir}/${names[i]}`, f.text);
    }));
    return await fn(dir, names);
  } finally {
    await removeTemp(dir);
  }
}
