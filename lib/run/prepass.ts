/**
 * The pre-pass of a check run (no fixes; formatting with `--fix` too), on the main
 * thread, before any worker
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
import { type FileRecord, type ResultCache, resultKey, resultKeyNow, stampOf, UNCACHEABLE } from "../cache/mod.ts";
import type { Namespace } from "../cache/key.ts";
import { digestOf } from "../cache/digest.ts";
import { engineById, loadedEngine, loadEngine } from "../engines/registry.ts";
import { type EngineSpec, pauser, type Settled, type SourceFile, type StartedBatch } from "../engines/types.ts";
import {
  cacheFor,
  type FileOutcome,
  type FileTask,
  type Known,
  knownError,
  knownLintOutcome,
  namespaceOf,
  processFile,
} from "./file.ts";
import type { EnginePlan } from "./plan.ts";
import { unhonouredBy } from "../engines/settings.ts";
import type { FileStamp } from "../fs/atomic.ts";
import { readClassified, statRound } from "./_reads.ts";
import { span } from "../debug/timing.ts";

/** At most this many files of one batch engine run in-process when it is warm ({@link EngineInstance.warm}). */
const SMALL_BATCH = 8;

/** What the pre-pass leaves: outcomes it finished, and the tasks (index into the input) still to run. */
export interface PrepassResult {
  /** Finished outcomes by task index. */
  done: Map<number, FileOutcome>;
  /** Tasks the pool must still run (each with `text` and `known` filled in), by task index. */
  rest: Map<number, FileTask>;
}

/**
 * What the pre-passes of one run share when the run goes window by window
 * (lib/run/mod.ts): whether the run began cold, judged once before its first
 * window wrote anything (the next windows' files are as cold as the first's,
 * though the cache now holds the first's results).
 */
export interface PrepassContext {
  /** Per namespace: no cache of the run held any result of it when the run began. */
  cold?: Map<Namespace, boolean>;
  /** No cache of the run had a stat index when the run began. */
  indexless?: boolean;
}

/** One engine's result for one file: what it runs on, and where its result is cached (absent: not cached). */
interface Step {
  index: number;
  file: SourceFile;
  plan: EnginePlan;
  spec: EngineSpec;
  kind: FileTask["kind"];
  namespace: Namespace;
  store?: { cache: ResultCache; key: string };
  /** The cached result, once looked up and found. */
  hit?: unknown;
}

/**
 * Whether a task can take the pre-pass: one with engines to run that is a check,
 * or a format that writes (`poly fmt --fix`: the formatted text is the same
 * computation, written afterwards). A lint fix goes file by file.
 */
export function prepassable(task: FileTask): boolean {
  return task.engines.length > 0 && (!task.fix || task.kind === "fmt");
}

type TaskStep = { plan: EnginePlan; spec: EngineSpec; namespace: Namespace };

/** {@link steps} by kind and plan list (files planned under one config and language share their list). */
const stepsOf = { lint: new WeakMap<EnginePlan[], TaskStep[]>(), fmt: new WeakMap<EnginePlan[], TaskStep[]>() };

/** The engines whose results a task's outcome is made of (lint: those that lint; fmt: the formatter). Read-only. */
function steps(task: FileTask): readonly TaskStep[] {
  const known = stepsOf[task.kind].get(task.engines);
  if (known) return known;
  const plans = task.kind === "fmt" ? task.engines.slice(0, 1) : task.engines;
  const out: TaskStep[] = [];
  for (const plan of plans) {
    const spec = engineById(plan.id);
    if (!spec) continue;
    if (task.kind === "lint" && !spec.capabilities.lint) continue;
    // Under a file of its own poly cannot honour, the engine does not run: the file's own path says why.
    if (unhonouredBy(plan.settings)) continue;
    out.push({ plan, spec, namespace: namespaceOf(task.kind, spec) });
  }
  stepsOf[task.kind].set(task.engines, out);
  return out;
}

/** One step of a task, stored under `key` in `cache` when it has a key. */
function stepOf(
  index: number,
  file: SourceFile,
  task: FileTask,
  { plan, spec, namespace }: { plan: EnginePlan; spec: EngineSpec; namespace: Namespace },
  cache: ResultCache | undefined,
  key: string | undefined,
): Step {
  const step: Step = { index, file, namespace, plan, spec, kind: task.kind };
  if (key !== undefined && cache) step.store = { cache, key };
  return step;
}

function batchable(spec: EngineSpec, kind: FileTask["kind"]): boolean {
  return kind === "fmt" ? spec.batch?.format === true : spec.batch?.lint === true;
}

const settingsJson = new WeakMap<object, string>();
/** {@link groupOf} by kind and plan: the key embeds the settings' JSON (~1 KB for the rules engine), made once per plan, not per file. */
const groupKeys = { lint: new WeakMap<EnginePlan, string>(), fmt: new WeakMap<EnginePlan, string>() };

/** The key of one batch: the same engine, step kind and settings (plans share settings objects per config). */
function groupOf(kind: FileTask["kind"], plan: EnginePlan): string {
  let key = groupKeys[kind].get(plan);
  if (key !== undefined) return key;
  let json = settingsJson.get(plan.settings);
  if (json === undefined) settingsJson.set(plan.settings, json = JSON.stringify(plan.settings));
  groupKeys[kind].set(plan, key = `${kind}\0${plan.id}\0${json}`);
  return key;
}

/**
 * In a cold lint check — no cache, or no file of the run in the stat index and
 * no result of the engine's namespace (lint, rules) cached at all — every file
 * will miss: batch engines that can start before the files are read
 * ({@link EngineInstance.startLintMany}) start now, over every file their step
 * covers, and the run reads and hashes the files while they work. Returns the
 * started batches by group, once each has its process running.
 */
export async function startEarly(
  tasks: FileTask[],
  caches: Map<number, ResultCache>,
  recorded: Set<number>,
  context: PrepassContext = {},
): Promise<Map<string, StartedBatch<unknown>>> {
  const started = new Map<string, StartedBatch<unknown>>();
  const used = new Set<ResultCache>();
  for (const [index, task] of tasks.entries()) {
    if (task.kind !== "lint") return started;
    const cache = caches.get(index);
    if (!cache?.enabled) continue;
    if (recorded.has(index)) return started;
    used.add(cache);
  }
  // Per namespace (lint, rules): cold when no cache of the run holds any result of it.
  // A later window of the run judges by what the run began with (a namespace its first windows did not
  // meet is not started early: its batch runs once the files are read, as in a warm run).
  const later = context.cold !== undefined;
  const cold = context.cold ??= new Map<Namespace, boolean>();
  const isCold = (namespace: Namespace) => {
    let value = cold.get(namespace);
    if (value === undefined) {
      cold.set(namespace, value = !later && [...used].every((c) => !c.hasEntries(namespace)));
    }
    return value;
  };
  type Group = { spec: EngineSpec; plan: EnginePlan; files: Omit<SourceFile, "text">[] };
  const groups = new Map<string, Group>();
  /** The groups of each plan list (files planned under one config and language share theirs). */
  const ofList = new Map<EnginePlan[], Group[]>();
  for (const task of tasks) {
    let targets = ofList.get(task.engines);
    if (!targets) {
      targets = [];
      for (const { plan, spec, namespace } of steps(task)) {
        if (!batchable(spec, task.kind) || !isCold(namespace)) continue;
        const group = groupOf(task.kind, plan);
        let entry = groups.get(group);
        if (!entry) groups.set(group, entry = { spec, plan, files: [] });
        targets.push(entry);
      }
      ofList.set(task.engines, targets);
    }
    if (targets.length === 0) continue;
    const ref = { path: task.path, relPath: task.relPath, language: task.language };
    for (const entry of targets) entry.files.push(ref);
  }
  for (const [spec, list] of Map.groupBy(groups, ([, group]) => group.spec)) {
    try {
      const engine = await loadEngine(spec);
      // Its processes first, then the next engine's loading (which would hold this thread).
      if (engine.startLintGroups) {
        const batches = engine.startLintGroups(list.map(([, { files, plan }]) => ({ files, settings: plan.settings })));
        list.forEach(([group], i) => started.set(group, batches[i]));
        await Promise.all(batches.map((batch) => batch.ready));
        continue;
      }
      if (!engine.startLintMany) continue;
      for (const [group, { files, plan }] of list) {
        const batch = engine.startLintMany(files, plan.settings);
        started.set(group, batch);
        await batch.ready;
      }
    } catch {
      // the engine does not load: its batch below says so, file by file
    }
  }
  return started;
}

/**
 * Runs the pre-pass over `tasks` (all {@link prepassable}). Once `signal` is
 * aborted no more files are read; the unread ones are left to the pool, which
 * reports them cancelled.
 *
 * A lint check first consults the cache's stat index: a file whose size, times
 * and inode match the record of its last read, and whose results all hit, is
 * answered without being read at all (its digest comes from the record).
 */
export async function prepass(
  tasks: FileTask[],
  signal?: AbortSignal,
  context: PrepassContext = {},
): Promise<PrepassResult> {
  const pass = new Prepass(tasks, signal);
  await timedPhase("cache open", () => pass.openCaches());
  await pass.statAndStartEarly(context);
  await timedPhase("read and hash", () => pass.readAndKey());
  await timedPhase("cache lookup", () => pass.lookUp());
  pass.groupBatches();
  await pass.leaveSmallBatchesToWarmEngines();
  await timedPhase("batches", () => pass.runBatches());
  return await pass.settle();
}

/** Runs one phase inside a `POLY_DEBUG=timing` span. */
async function timedPhase(name: string, phase: () => Promise<void> | void): Promise<void> {
  const end = span(name);
  try {
    await phase();
  } finally {
    end();
  }
}

/** A batch of one engine's cache misses under one settings group. */
interface Batch {
  spec: EngineSpec;
  plan: EnginePlan;
  kind: FileTask["kind"];
  items: Step[];
}

/**
 * One pre-pass, phase by phase (see {@link prepass} for the order). The state is
 * per task index, in arrays rather than maps: a large run has tens of thousands of
 * files.
 */
class Prepass {
  readonly done = new Map<number, FileOutcome>();
  readonly rest = new Map<number, FileTask>();
  readonly #known: (Record<string, Known> | undefined)[];
  readonly #misses: string[][];
  readonly #files: SourceFile[];
  /** The stamp of each file read (what a rewrite checks it still is). */
  readonly #stamps: (FileStamp | undefined)[];
  readonly #byTask: (Step[] | undefined)[];
  /** Every (file, engine) step, in task order, with its cache key when it has one. */
  readonly #lookups: Step[] = [];
  readonly #batches = new Map<string, Batch>();
  readonly #caches = new Map<number, ResultCache>();
  /** Files whose bytes did not match the stat index after all and could not be read again. */
  readonly #dropped = new Set<number>();
  /** New stat-index records per cache (lint checks only: they are the ones that consult it). */
  readonly #records = new Map<ResultCache, FileRecord[]>();
  #stats: Awaited<ReturnType<typeof statRound>>["stats"] = new Map();
  #unchanged: Map<number, string> = new Map();
  #started: Map<string, StartedBatch<unknown>> = new Map();

  constructor(
    readonly tasks: FileTask[],
    readonly signal: AbortSignal | undefined,
  ) {
    this.#known = new Array(tasks.length);
    this.#misses = new Array(tasks.length);
    this.#files = new Array(tasks.length);
    this.#stamps = new Array(tasks.length);
    this.#byTask = new Array(tasks.length);
  }

  /** Phase 1: each task's result cache. */
  async openCaches(): Promise<void> {
    for (let index = 0; index < this.tasks.length; index++) {
      const cache = await cacheFor(this.tasks[index]);
      if (cache) this.#caches.set(index, cache);
    }
  }

  /**
   * Phase 2: the stat round (which files the caches' stat index says are unchanged), and
   * the batch engines started early. When no cache of the run has a stat index yet, no file
   * can be in it: a cold run starts its early batches before the stat round too (which then
   * yields, so their output is read).
   */
  async statAndStartEarly(context: PrepassContext): Promise<void> {
    const { tasks } = this;
    const caches = this.#caches;
    const indexless = context.indexless ??= [...new Set(caches.values())].every((cache) =>
      !cache.enabled || !cache.hasFiles()
    );
    const early = span("early batches");
    let started = indexless ? await startEarly(tasks, caches, new Set(), context) : undefined;
    early();
    const statted = span("stat index");
    const { stats, unchanged, recorded } = await statRound(
      tasks,
      caches,
      started?.size ? pauser() : () => undefined,
    );
    statted();
    if (!started) {
      const late = span("early batches");
      started = await startEarly(tasks, caches, recorded, context);
      late();
    }
    this.#stats = stats;
    this.#unchanged = unchanged;
    this.#started = started;
  }

  /** Remembers a file just read in its cache's stat index. */
  #remember(index: number, digest: string): void {
    const info = this.#stats.get(index);
    const cache = this.#caches.get(index);
    if (!info || !cache) return;
    const list = this.#records.get(cache) ?? this.#records.set(cache, []).get(cache)!;
    list.push({ path: this.tasks[index].path, ...stampOf(info), digest });
  }

  /** {@link keysFor} without waiting, when every key can be made at once (the usual case); else undefined. */
  #keysNow(index: number, file: SourceFile, digest: string | undefined): Step[] | undefined {
    const task = this.tasks[index];
    const cache = this.#caches.get(index);
    const out: Step[] = [];
    for (const { plan, spec, namespace } of steps(task)) {
      if (task.known?.[plan.id]) continue;
      const needed = cache?.enabled === true && !UNCACHEABLE.has(spec.id);
      const key = needed && digest !== undefined
        ? resultKeyNow(cache, namespace, spec, file, plan.settings, digest)
        : undefined;
      if (needed && key === undefined) return undefined;
      out.push(stepOf(index, file, task, { plan, spec, namespace }, cache, key));
    }
    return out;
  }

  /** Each engine step of a file, with its cache key. */
  async #keysFor(index: number, file: SourceFile, digest: string | undefined): Promise<Step[]> {
    const task = this.tasks[index];
    const cache = this.#caches.get(index);
    const out: Step[] = [];
    for (const { plan, spec, namespace } of steps(task)) {
      if (task.known?.[plan.id]) continue;
      const key = cache ? await resultKey(cache, namespace, spec, file, plan.settings, digest) : undefined;
      out.push(stepOf(index, file, task, { plan, spec, namespace }, cache, key));
    }
    return out;
  }

  /**
   * Phase 3: every file read once (an unchanged one only if a result misses, below), hashed,
   * offered to an early batch waiting for its text, and given its steps' cache keys.
   */
  async readAndKey(): Promise<void> {
    const { tasks, signal } = this;
    const started = this.#started;
    // While early batches run, the reads yield now and then: their output pipes must be drained.
    const pause: () => Promise<void> | undefined = started.size > 0 ? pauser() : () => undefined;
    for (let index = 0; index < tasks.length; index++) {
      const paused = pause();
      if (paused) await paused;
      const task = tasks[index];
      if (signal?.aborted) {
        this.rest.set(index, task);
        continue;
      }
      let digest = this.#unchanged.get(index);
      // An unchanged file is not read unless one of its results misses (below).
      const read = digest !== undefined
        ? { text: "" }
        : readClassified(task, (outcome) => this.done.set(index, outcome), this.#stats.get(index));
      if (read === undefined) continue;
      const text = read.text;
      if ("stamp" in read) this.#stamps[index] = read.stamp;
      if (digest === undefined && this.#caches.get(index)?.enabled) {
        // The digest of the text is that of the bytes it was decoded from (valid UTF-8, the BOM kept).
        digest = digestOf(read.bytes ?? text);
        this.#remember(index, digest);
      }
      const file: SourceFile = { path: task.path, relPath: task.relPath, language: task.language, text };
      this.#files[index] = file;
      // An early batch may be waiting for this text (the rules engine's pre-filter).
      if (started.size > 0 && !this.#unchanged.has(index)) {
        for (const { plan, spec } of steps(task)) {
          if (batchable(spec, task.kind)) started.get(groupOf(task.kind, plan))?.offer?.(file);
        }
      }
      // Results the task arrived with (a lint fix run's pre-pass found them) are neither looked up nor computed.
      this.#known[index] = { ...task.known };
      this.#misses[index] = [];
      const own = this.#keysNow(index, file, digest) ?? await this.#keysFor(index, file, digest);
      this.#byTask[index] = own;
      for (const step of own) this.#lookups.push(step);
    }
  }

  /**
   * Phase 4: one cache query per cache and namespace for every key, rather than one per (file,
   * engine). An unchanged file with a result to compute after all is read now; should its bytes
   * not match the index, its keys are made again from what was read.
   */
  async lookUp(): Promise<void> {
    const groups = new Map<ResultCache, Map<Namespace, Step[]>>();
    for (const step of this.#lookups) {
      if (!step.store) continue;
      let byNs = groups.get(step.store.cache);
      if (!byNs) groups.set(step.store.cache, byNs = new Map());
      byNs.get(step.namespace)?.push(step) ?? byNs.set(step.namespace, [step]);
    }
    for (const [cache, byNs] of groups) {
      for (const [namespace, group] of byNs) {
        const values = cache.getMany(namespace, group.map((step) => step.store!.key));
        group.forEach((step, i) => (step.hit = values[i]));
      }
    }
    for (const [index, digest] of this.#unchanged) {
      const own = this.#byTask[index];
      if (!own || own.every((step) => step.hit !== undefined)) continue;
      const read = readClassified(this.tasks[index], (outcome) => this.done.set(index, outcome));
      if (read === undefined) {
        this.#dropped.add(index);
        continue;
      }
      this.#files[index].text = read.text;
      this.#stamps[index] = read.stamp;
      const actual = digestOf(read.bytes ?? read.text);
      if (actual === digest) continue;
      const again = await this.#keysFor(index, this.#files[index], actual);
      for (const step of again) {
        const hit = step.store ? step.store.cache.get(step.namespace, step.store.key) : undefined;
        if (hit !== undefined) step.hit = hit;
      }
      own.splice(0, own.length, ...again);
    }
    for (const [cache, list] of this.#records) cache.recordFiles(list);
  }

  /** Phase 5: what the cache answered becomes known; each batch engine's misses are grouped by settings. */
  groupBatches(): void {
    for (let index = 0; index < this.tasks.length; index++) {
      const own = this.#byTask[index];
      if (!own || this.#dropped.has(index)) continue;
      for (const step of own) {
        if (step.hit !== undefined) {
          this.#known[index]![step.plan.id] = { value: step.hit };
          continue;
        }
        if (step.store) this.#misses[index].push(step.plan.id);
        if (!batchable(step.spec, step.kind)) continue;
        const group = groupOf(step.kind, step.plan);
        let batch = this.#batches.get(group);
        if (!batch) {
          this.#batches.set(group, batch = { spec: step.spec, plan: step.plan, kind: step.kind, items: [] });
        }
        batch.items.push(step);
      }
    }
  }

  /**
   * Phase 6: a handful of files for an engine whose in-process path this process has loaded
   * already (a resident poly after its first run) lint sooner there than a native process
   * starts: the pool (this thread, for so few) runs them. Early-started batches are never given up.
   */
  async leaveSmallBatchesToWarmEngines(): Promise<void> {
    for (const [group, batch] of this.#batches) {
      if (batch.items.length > SMALL_BATCH || this.#started.has(group)) continue;
      const loaded = loadedEngine(batch.spec.id);
      if (loaded && (await loaded.catch(() => undefined))?.warm?.()) this.#batches.delete(group);
    }
  }

  /**
   * Phase 7: the batch engines, side by side (each is one multi-threaded native process per
   * batch); their results are cached as they come. An early batch none of whose files is left
   * to it (all skipped or answered) is waited for and released.
   */
  async runBatches(): Promise<void> {
    await this.#startGroupsTogether();
    const started = this.#started;
    let running = this.#batches.size;
    const unflushed = new Set<ResultCache>();
    const flushSoon = (cache: ResultCache) => {
      if (unflushed.size === 0) {
        setTimeout(() => {
          for (const c of unflushed) c.flush();
          unflushed.clear();
        }, 0);
      }
      unflushed.add(cache);
    };
    await Promise.all([...this.#batches].map(async ([group, batch]) => {
      const batchDone = span(`batch ${batch.spec.id}`);
      let results: Settled<unknown>[];
      try {
        const files = batch.items.map((p) => p.file);
        const early = started.get(group);
        if (early) {
          started.delete(group);
          results = await early.finish(files);
        } else {
          const engine = await loadEngine(batch.spec);
          const many = batch.kind === "fmt" ? engine.formatMany?.bind(engine) : engine.lintMany?.bind(engine);
          if (!many) return; // the instance offers no batch call: each file runs on its own in the pool
          results = await many(files, batch.plan.settings);
        }
      } catch (e) {
        results = batch.items.map(() => e instanceof Error ? e : new Error(String(e)));
      }
      batch.items.forEach((item, i) => {
        const result = results[i];
        const found = this.#known[item.index]!;
        if (result instanceof Error || result === undefined) {
          const known = knownError(result ?? new Error("the batch returned no result for this file"));
          found[batch.plan.id] = known;
          // A syntax error or a refusal is cached like findings (see cache/engine.ts).
          if ("value" in known) item.store?.cache.set(item.namespace, item.store.key, known.value);
          return;
        }
        found[batch.plan.id] = { value: result };
        item.store?.cache.set(item.namespace, item.store.key, result);
      });
      batchDone();
      // While another batch still runs, this one's results are written now rather than at the end: once for
      // all the batches that end together (one process's packages), not once each.
      if (--running > 0) { for (const item of batch.items) if (item.store) flushSoon(item.store.cache); }
    }));
    await Promise.all([...started.values()].map((early) => early.finish([]).catch(() => {})));
  }

  /**
   * The lint batches of one engine that lints several groups in shared processes
   * ({@link EngineInstance.startLintGroups}: biome, a monorepo's packages) start
   * together, as started batches, rather than each in a process of its own.
   */
  async #startGroupsTogether(): Promise<void> {
    const unstarted = [...this.#batches].filter(([group, batch]) => batch.kind === "lint" && !this.#started.has(group));
    for (const [spec, list] of Map.groupBy(unstarted, ([, batch]) => batch.spec)) {
      if (list.length < 2) continue; // one group: its own batch call, as any engine's
      const engine = await loadEngine(spec).catch(() => undefined);
      if (!engine?.startLintGroups) continue;
      const batches = engine.startLintGroups(
        list.map(([, batch]) => ({ files: batch.items.map((item) => item.file), settings: batch.plan.settings })),
      );
      list.forEach(([group], i) => this.#started.set(group, batches[i]));
    }
  }

  /**
   * Phase 8: a file whose every result is known is finished here; the rest go to the pool with
   * their text and what is known so far.
   */
  async settle(): Promise<PrepassResult> {
    for (let index = 0; index < this.tasks.length; index++) {
      const found = this.#known[index];
      if (!found || this.#dropped.has(index)) continue;
      // A file answered whole from the stat index and the cache has text "": an outcome made only of known results never reads it.
      const complete = this.#byTask[index]!.every((step) => found[step.plan.id] !== undefined);
      const outcome = complete ? knownLintOutcome(this.tasks[index], found) : undefined;
      if (outcome) {
        this.done.set(index, outcome);
        continue;
      }
      const stamp = this.#stamps[index];
      const task: FileTask = {
        ...this.tasks[index],
        text: this.#files[index].text,
        ...(stamp ? { stamp } : {}),
        known: found,
        missed: this.#misses[index],
      };
      if (complete) this.done.set(index, await processFile(task));
      else this.rest.set(index, task);
    }
    return { done: this.done, rest: this.rest };
  }
}
