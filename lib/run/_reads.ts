/**
 * The pre-pass's reads (`prepass.ts`): the stat index round that tells which
 * files are unchanged since poly last read them, and each file read and
 * classified on the main thread.
 *
 * @module
 */
import { type ResultCache, sameStamp, stampOf } from "../cache/mod.ts";
import { readCandidateSync } from "../discover/content.ts";
import type { FileStamp } from "../fs/atomic.ts";
import { classifyRead, type FileOutcome, type FileTask } from "./file.ts";

/**
 * Reads a task's file (synchronously: thousands of small reads on one thread)
 * and classifies it: its text, or undefined after handing `finish` the outcome
 * of a file that is skipped or cannot be read. `stat` is the file's stat when
 * the caller took one.
 */
export function readClassified(
  task: FileTask,
  finish: (outcome: FileOutcome) => void,
  stat?: Deno.FileInfo,
): { text: string; bytes?: Uint8Array; stamp?: FileStamp } | undefined {
  const raw = readCandidateSync(task.path, task.maxSize, { language: task.language }, stat);
  const read = classifyRead(task, raw);
  if ("outcome" in read) {
    finish(read.outcome);
    return undefined;
  }
  return raw as { text: string; bytes: Uint8Array; stamp: FileStamp };
}

/**
 * The stat index round of a lint check: stats every file and asks each cache's
 * index which ones are unchanged since poly last read them. Returns the stats
 * taken (reused when the file is read, so what is recorded is the stamp from
 * before the read) and, for unchanged files, the digest of their bytes.
 */
export async function statRound(
  tasks: FileTask[],
  caches: Map<number, ResultCache>,
  pause: () => Promise<void> | undefined,
): Promise<{ stats: Map<number, Deno.FileInfo>; unchanged: Map<number, string>; recorded: Set<number> }> {
  const stats = new Map<number, Deno.FileInfo>();
  const unchanged = new Map<number, string>();
  const recorded = new Set<number>();
  const byCache = new Map<ResultCache, number[]>();
  for (const [index, cache] of caches) {
    const paused = pause();
    if (paused) await paused;
    if (tasks[index].kind !== "lint" || !cache.enabled) continue;
    try {
      stats.set(index, Deno.statSync(tasks[index].path));
    } catch {
      continue; // the read reports it
    }
    byCache.get(cache)?.push(index) ?? byCache.set(cache, [index]);
  }
  for (const [cache, indexes] of byCache) {
    const records = cache.files(indexes.map((i) => tasks[i].path));
    for (const index of indexes) {
      const record = records.get(tasks[index].path);
      if (record) recorded.add(index);
      const info = stats.get(index)!;
      if (record && info.isFile && info.size <= tasks[index].maxSize && sameStamp(record, stampOf(info))) {
        unchanged.set(index, record.digest);
      }
    }
  }
  return { stats, unchanged, recorded };
}
