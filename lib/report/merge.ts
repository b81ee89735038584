/**
 * `poly report merge`: the shard reports of one `--shard i/n` run joined into
 * the document a single run would have produced — the results of every shard
 * (in path order), the run-wide errors (shard 1 carries them), the summary
 * counted again from the merged records, the configs (every shard numbers them
 * as the whole run does) and the whole-project phase (shard 1's).
 *
 * @example
 * ```ts
 * const merged = mergeReports([shard1, shard2]);
 * ```
 *
 * @module
 */
import { Report } from "./schema.ts";
import type { FileResult, RunError, RunSkip } from "./schema.ts";
import { countDiagnostics, runSummary } from "./summary.ts";

/** Parses one report document (JSON text); throws an Error naming `name` when it is not one. */
export function parseReport(name: string, text: string): Report {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`"${name}" is not JSON (${(error as Error).message}): pass reports written by --format json`);
  }
  const parsed = Report.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `"${name}" is not a poly report (${
        issue?.path.join(".") || "document"
      }: ${issue?.message}): pass reports written by --format json`,
    );
  }
  return parsed.data;
}

const byPath = <T extends { path: string }>(a: T, b: T) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0;

/** Joins shard reports of one run; throws an Error when they do not belong together. */
export function mergeReports(reports: readonly Report[]): Report {
  if (reports.length === 0) throw new Error("no reports to merge: name at least one");
  const first = reports[0];
  for (const [i, r] of reports.entries()) {
    if (r.kind !== first.kind || r.mode !== first.mode) {
      throw new Error(
        `report ${
          i + 1
        } is a ${r.kind} ${r.mode} report, report 1 a ${first.kind} ${first.mode} one: merge shards of one run`,
      );
    }
    if (JSON.stringify(r.configs.map((c) => c.hash)) !== JSON.stringify(first.configs.map((c) => c.hash))) {
      throw new Error(
        `report ${i + 1} was made under other configurations than report 1: merge shards of one run of one tree`,
      );
    }
  }
  const seen = new Set<string>();
  const results: FileResult[] = [];
  const errors: RunError[] = [];
  const skipped: RunSkip[] = [];
  let checked = 0;
  let fixed = 0;
  let cache: { hits: number; misses: number } | undefined;
  for (const [i, r] of reports.entries()) {
    for (const result of r.results) {
      if (seen.has(result.path)) {
        throw new Error(`"${result.path}" is in more than one report (report ${i + 1}): merge each shard once`);
      }
      seen.add(result.path);
      results.push(result);
    }
    errors.push(...r.errors);
    skipped.push(...r.skipped);
    checked += r.summary.checked;
    fixed += r.summary.fixed ?? 0;
    if (r.summary.cache) {
      cache ??= { hits: 0, misses: 0 };
      cache.hits += r.summary.cache.hits;
      cache.misses += r.summary.cache.misses;
    }
  }
  results.sort(byPath);
  errors.sort(byPath);
  skipped.sort(byPath);
  // In the order and with the counts a single run gives.
  const summary = runSummary(
    first.kind,
    first.mode === "fix",
    {
      checked,
      skipped: skipped.length,
      errored: errors.length,
      fixed,
      changed: results.filter((r) => r.changed).length,
    },
    countDiagnostics(results),
    cache,
  );
  const workspace = reports.find((r) => r.workspace)?.workspace;
  return {
    kind: first.kind,
    mode: first.mode,
    results,
    errors,
    skipped,
    summary,
    configs: first.configs,
    ...(workspace ? { workspace } : {}),
    poly: first.poly,
  };
}
