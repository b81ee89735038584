/**
 * The pre-pass of a check run (no fixes), on the main thread, before any worker
 * starts: each file is read once, the result cache answers what it knows, and
 * every cache miss of a batch engine (one whose spec has `batch`: it lints or
 * formats many files in one call, e.g. one native process) goes to that engine
 * in one call per distinct settings. A file whose engines are then all answered
 * is finished here; the rest go to the worker pool with their text and the
 * results found so far. So a warm run starts no worker and loads no engine, and
 * a cold one starts each native tool once per batch rather than once per file.
 *
 * @module
 */
import { type ResultCache, resultKey } from "../cache/mod.ts";
import { blake3Hasher, digestWith, type Namespace } from "../cache/key.ts";
import { readCandidateSync } from "../discover/content.ts";
import { engineById, loadEngine } from "../engines/registry.ts";
import type { EngineSpec, Settled, SourceFile } from "../engines/types.ts";
import { templateReason } from "../engines/templates.ts";
import { cacheFor, type FileOutcome, type FileTask, type Known, knownError, processFile } from "./file.ts";
import type { EnginePlan } from "./plan.ts";

/** What the pre-pass leaves: outcomes it finished, and the tasks (index into the input) still to run. */
export interface PrepassResult {
  /** Finished outcomes by task index. */
  done: Map<number, FileOutcome>;
  /** Tasks the pool must still run (each with `text` and `known` filled in), by task index. */
  rest: Map<number, FileTask>;
}

interface Pending {
  index: number;
  file: SourceFile;
  namespace: Namespace;
  /** Where the result is stored once computed (absent when it is not cached). */
  store?: { cache: ResultCache; key: string };
}

/** Whether a task can take the pre-pass: a check (no fix, no preview) with engines to run. */
export function prepassable(task: FileTask): boolean {
  return !task.fix && task.engines.length > 0;
}

/** The engines whose results a task's outcome is made of (lint: those that lint; fmt: the formatter). */
function steps(task: FileTask): { plan: EnginePlan; spec: EngineSpec; namespace: Namespace }[] {
  const plans = task.kind === "fmt" ? task.engines.slice(0, 1) : task.engines;
  const out: { plan: EnginePlan; spec: EngineSpec; namespace: Namespace }[] = [];
  for (const plan of plans) {
    const spec = engineById(plan.id);
    if (!spec) continue;
    if (task.kind === "lint" && !spec.capabilities.lint) continue;
    out.push({ plan, spec, namespace: task.kind === "fmt" ? "fmt" : spec.crossCutting ? "rules" : "lint" });
  }
  return out;
}

function batchable(spec: EngineSpec, kind: FileTask["kind"]): boolean {
  return kind === "fmt" ? spec.batch?.format === true : spec.batch?.lint === true;
}

/**
 * Reads a task's file and classifies it: its text, or undefined after handing
 * `finish` the outcome of a file that is skipped (too large, binary, a template)
 * or cannot be read.
 */
function readClassified(task: FileTask, finish: (outcome: FileOutcome) => void): string | undefined {
  const base = { path: task.relPath, ...(task.config ? { config: task.config } : {}) };
  const read = readCandidateSync(task.path, task.maxSize, { language: task.language });
  if ("error" in read) {
    finish({ relPath: task.relPath, checked: false, error: read.error, record: { ...base, error: read.error } });
    return undefined;
  }
  const skip = "skip" in read ? read.skip : templateReason(task.relPath, read.text);
  if (skip !== undefined) {
    finish({ relPath: task.relPath, checked: false, skip, record: { ...base, skipped: skip } });
    return undefined;
  }
  return (read as { text: string }).text;
}

/**
 * Runs the pre-pass over `tasks` (all {@link prepassable}). Once `signal` is
 * aborted no more files are read; the unread ones are left to the pool, which
 * reports them cancelled.
 */
export async function prepass(tasks: FileTask[], signal?: AbortSignal): Promise<PrepassResult> {
  const done = new Map<number, FileOutcome>();
  const known = new Map<number, Record<string, Known>>();
  const misses = new Map<number, string[]>();
  const texts = new Map<number, string>();
  const batches = new Map<string, { spec: EngineSpec; plan: EnginePlan; kind: FileTask["kind"]; items: Pending[] }>();
  /** Every (file, engine) step, in task order, with its cache key when it has one. */
  const lookups: (Pending & { plan: EnginePlan; spec: EngineSpec; kind: FileTask["kind"] })[] = [];

  const hasher = await blake3Hasher();
  const rest = new Map<number, FileTask>();
  for (let index = 0; index < tasks.length; index++) {
    const task = tasks[index];
    if (signal?.aborted) {
      rest.set(index, task);
      continue;
    }
    const text = readClassified(task, (outcome) => done.set(index, outcome));
    if (text === undefined) continue;
    texts.set(index, text);
    known.set(index, {});
    misses.set(index, []);
    const file: SourceFile = { path: task.path, relPath: task.relPath, language: task.language, text };
    const cache = await cacheFor(task);
    const digest = cache?.enabled ? digestWith(hasher, text) : undefined;
    for (const { plan, spec, namespace } of steps(task)) {
      const key = cache ? await resultKey(cache, namespace, spec, file, plan.settings, digest) : undefined;
      lookups.push({
        index,
        file,
        namespace,
        plan,
        spec,
        kind: task.kind,
        ...(key !== undefined ? { store: { cache: cache!, key } } : {}),
      });
    }
  }

  // One query per cache and namespace for every key, rather than one per (file, engine).
  const groups = new Map<ResultCache, Map<Namespace, typeof lookups>>();
  for (const step of lookups) {
    if (!step.store) continue;
    let byNs = groups.get(step.store.cache);
    if (!byNs) groups.set(step.store.cache, byNs = new Map());
    byNs.get(step.namespace)?.push(step) ?? byNs.set(step.namespace, [step]);
  }
  const hits = new Map<(typeof lookups)[number], unknown>();
  for (const [cache, byNs] of groups) {
    for (const [namespace, steps] of byNs) {
      const values = cache.getMany(namespace, steps.map((step) => step.store!.key));
      steps.forEach((step, i) => values[i] !== undefined && hits.set(step, values[i]));
    }
  }
  for (const step of lookups) {
    const hit = hits.get(step);
    if (hit !== undefined) {
      known.get(step.index)![step.plan.id] = { value: hit };
      continue;
    }
    if (step.store) misses.get(step.index)!.push(step.plan.id);
    if (!batchable(step.spec, step.kind)) continue;
    const group = `${step.kind}\0${step.plan.id}\0${JSON.stringify(step.plan.settings)}`;
    let batch = batches.get(group);
    if (!batch) batches.set(group, batch = { spec: step.spec, plan: step.plan, kind: step.kind, items: [] });
    batch.items.push(step);
  }

  // Batch engines run side by side: each is one (multi-threaded) native process per batch.
  await Promise.all([...batches.values()].map(async (batch) => {
    let results: Settled<unknown>[];
    try {
      const engine = await loadEngine(batch.spec);
      const files = batch.items.map((p) => p.file);
      const many = batch.kind === "fmt" ? engine.formatMany?.bind(engine) : engine.lintMany?.bind(engine);
      if (!many) return; // the instance offers no batch call: each file runs on its own in the pool
      results = await many(files, batch.plan.settings);
    } catch (e) {
      results = batch.items.map(() => e instanceof Error ? e : new Error(String(e)));
    }
    batch.items.forEach((item, i) => {
      const result = results[i];
      const found = known.get(item.index)!;
      if (result instanceof Error || result === undefined) {
        found[batch.plan.id] = knownError(result ?? new Error("the batch returned no result for this file"));
        return;
      }
      found[batch.plan.id] = { value: result };
      item.store?.cache.set(item.namespace, item.store.key, result);
    });
  }));

  for (const [index, found] of known) {
    const task: FileTask = { ...tasks[index], text: texts.get(index)!, known: found, missed: misses.get(index)! };
    if (steps(task).every(({ plan }) => found[plan.id] !== undefined)) done.set(index, await processFile(task));
    else rest.set(index, task);
  }
  return { done, rest };
}
