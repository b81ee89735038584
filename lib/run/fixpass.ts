/**
 * The pre-pass of a lint fix run (`poly lint --fix`, the `lint_fix` tool), on
 * the main thread before any worker starts: each file is read once, and the
 * files whose first fixing engine fixes in batches (its spec's `batch.fix`:
 * biome, one native process over private copies of the texts; ESLint, one
 * confined `node` process) and has not fixed
 * that text before (the result cache's `fix` namespace) go to it in one call per
 * settings. Every file then goes to the pool with its text and what the batch
 * made of it — the fix, and the findings left in the fixed text — where its
 * other engines fix and lint it and it is written (or proposed). A second
 * stage lints in one batch the texts an engine fixes only where its findings
 * carry fixes (the rule pack): those whose findings carry none need no fixing
 * by it ({@link lintToFix}). A third checks the files every fixing engine
 * leaves as read as a check run does ({@link checkLeftAlone}). The cache keeps
 * both, under the keys the pool's own steps use, so a file fixed here is fixed
 * and linted from the cache next time.
 *
 * @module
 */
import { type ResultCache, resultKey } from "../cache/mod.ts";
import { engineById, loadEngine } from "../engines/registry.ts";
import {
  EngineRefusal,
  type EngineSettings,
  type EngineSpec,
  type FixOutput,
  type LintOutput,
  type Settled,
  type SourceFile,
  SourceSyntaxError,
} from "../engines/types.ts";
import { span } from "../debug/timing.ts";
import { unhonouredBy } from "../engines/settings.ts";
import {
  cacheFor,
  type FileOutcome,
  type FileTask,
  fixSettings,
  type Known,
  knownError,
  namespaceOf,
  type StoredFix,
  storedFix,
} from "./file.ts";
import type { EnginePlan } from "./plan.ts";
import { prepass, type PrepassResult } from "./prepass.ts";
import { readClassified } from "./_reads.ts";

/** Whether a task can take the fix pre-pass: a lint fix with engines to run. */
export function fixPrepassable(task: FileTask): boolean {
  return task.kind === "lint" && task.fix && task.engines.length > 0;
}

/**
 * One file of a batch: its task's index, its text, where its fix is cached (none without a cache), and the engine's
 * findings in the text as read when a check cached them.
 */
interface Item {
  index: number;
  file: SourceFile;
  where?: { cache: ResultCache; key: string };
  linted?: LintOutput;
}

/** The files one engine fixes under one settings object. */
interface Group {
  spec: EngineSpec;
  plan: EnginePlan;
  settings: EngineSettings;
  items: Item[];
}

/**
 * The engines that fix `task`'s file, in their order: those of its engines that fix and run at all (an engine under a
 * file of its own that poly cannot honour neither fixes nor lints).
 */
function* fixers(task: FileTask): Generator<{ plan: EnginePlan; spec: EngineSpec }> {
  for (const plan of task.engines) {
    const spec = engineById(plan.id);
    if (spec && !unhonouredBy(plan.settings) && spec.capabilities.fix) yield { plan, spec };
  }
}

/** The engine that fixes `task`'s file first, with the settings it fixes under. */
function firstFix(task: FileTask): { plan: EnginePlan; spec: EngineSpec; settings: EngineSettings } | undefined {
  const first = fixers(task).next().value;
  return first && { ...first, settings: fixSettings(task, first.plan) };
}

/** Where `spec`'s fix of `file` under `settings` is cached (none without a key), and the fix found there. */
async function cachedFix(
  task: FileTask,
  spec: EngineSpec,
  file: SourceFile,
  settings: EngineSettings,
): Promise<{ where: { cache: ResultCache; key: string } | undefined; hit: unknown }> {
  const cache = await cacheFor(task);
  const key = cache ? await resultKey(cache, "fix", spec, file, settings) : undefined;
  if (key === undefined) return { where: undefined, hit: undefined };
  return { where: { cache: cache!, key }, hit: cache!.get("fix", key) };
}

/**
 * `spec`'s findings in `file` under `settings` as a check cached them (its lint of the same text), when whole: a batch
 * fix counts what it removed from them rather than linting the text again.
 */
async function cachedLint(
  cache: ResultCache,
  spec: EngineSpec,
  file: SourceFile,
  settings: EngineSettings,
  checked: Checked,
): Promise<LintOutput | undefined> {
  const namespace = namespaceOf("lint", spec);
  if (!checked(cache, namespace)) return undefined; // nothing checked yet: no key made, no digest taken
  const key = await resultKey(cache, namespace, spec, file, settings);
  const hit = key === undefined ? undefined : cache.get(namespace, key) as Partial<LintOutput> | undefined;
  return Array.isArray(hit?.diagnostics) && hit.partial === undefined ? hit as LintOutput : undefined;
}

/** Keeps `value` as `spec`'s findings in `file` under `settings`, in the cache `where` names (none: nothing kept). */
async function keepLint(
  where: Item["where"],
  spec: EngineSpec,
  file: SourceFile,
  settings: EngineSettings,
  value: unknown,
): Promise<void> {
  if (!where) return;
  const namespace = namespaceOf("lint", spec);
  const key = await resultKey(where.cache, namespace, spec, file, settings);
  if (key !== undefined) where.cache.set(namespace, key, value);
}

/** Whether a cache held findings in a namespace when the run first asked (a cold one holds none: nothing to look up). */
type Checked = (cache: ResultCache, namespace: ReturnType<typeof namespaceOf>) => boolean;

function checkedBefore(): Checked {
  const seen = new Map<ResultCache, Map<string, boolean>>();
  return (cache, namespace) => {
    let of = seen.get(cache);
    if (!of) seen.set(cache, of = new Map());
    let answer = of.get(namespace);
    if (answer === undefined) of.set(namespace, answer = cache.hasEntries(namespace));
    return answer;
  };
}

const settingsJson = new WeakMap<EngineSettings, string>();

/** `settings` as JSON, made once per settings object (a group's key). */
function jsonOf(settings: EngineSettings): string {
  let json = settingsJson.get(settings);
  if (json === undefined) settingsJson.set(settings, json = JSON.stringify(settings));
  return json;
}

/** Runs the fix pre-pass over `tasks` (all {@link fixPrepassable}); once `signal` is aborted no more files are read. */
export async function fixPrepass(tasks: FileTask[], signal?: AbortSignal): Promise<PrepassResult> {
  const done = new Map<number, FileOutcome>();
  const rest = new Map<number, FileTask>();
  const groups = new Map<string, Group>();
  const checked = checkedBefore();
  const reading = span("read");
  for (const [index, task] of tasks.entries()) {
    if (signal?.aborted) {
      rest.set(index, task);
      continue;
    }
    const read = readClassified(task, (outcome) => done.set(index, outcome));
    if (read === undefined) continue;
    rest.set(index, { ...task, text: read.text, ...(read.stamp ? { stamp: read.stamp } : {}) });
    const step = firstFix(task);
    if (!step?.spec.batch?.fix) continue;
    const file: SourceFile = { path: task.path, relPath: task.relPath, language: task.language, text: read.text };
    const { where, hit } = await cachedFix(task, step.spec, file, step.settings);
    // Fixed before: the fix from the cache.
    if (hit !== undefined) {
      rest.get(index)!.fixes = { [step.plan.id]: { fix: { value: hit } } };
      continue;
    }
    const id = `${step.plan.id}\0${jsonOf(step.settings)}`;
    let group = groups.get(id);
    if (!group) groups.set(id, group = { ...step, items: [] });
    // The findings in the text as read, as a check found them: only under the settings the engine lints with.
    const linted = where && step.settings === step.plan.settings
      ? await cachedLint(where.cache, step.spec, file, step.settings, checked)
      : undefined;
    group.items.push({ index, file, where, ...(linted ? { linted } : {}) });
  }
  reading();
  const batches = span("fix batches");
  await Promise.all(
    [...Map.groupBy(groups.values(), (group) => group.spec)].map(([spec, list]) => fixGroups(spec, list, rest)),
  );
  batches();
  const cannotRun = unavailability();
  const linted = span("fix lint batches");
  await lintToFix(rest, cannotRun);
  linted();
  await checkLeftAlone(done, rest, cannotRun, signal);
  return { done, rest };
}

/** Whether an engine cannot run here under some settings (ESLint not installed), asked once per settings. */
type CannotRun = (spec: EngineSpec, settings: EngineSettings) => Promise<boolean>;

function unavailability(): CannotRun {
  const known = new Map<EngineSettings, Promise<boolean>>();
  return (spec, settings) => {
    let answer = known.get(settings);
    if (!answer) {
      const why = spec.unavailable?.(settings) ?? Promise.resolve(undefined);
      known.set(settings, answer = why.then((reason) => reason !== undefined, () => false));
    }
    return answer;
  };
}

/**
 * The third stage: a file every fixing engine leaves as read (each one's fix known to change nothing, or the engine
 * unable to run here) is checked as a check run checks it — the check pre-pass, with the findings the fixes found
 * known, the cache, its other engines' batches (ESLint's one process) — its outcome a check's, as the pool would have
 * made it; the rest stay fix tasks for the pool.
 */
async function checkLeftAlone(
  done: Map<number, FileOutcome>,
  rest: Map<number, FileTask>,
  cannotRun: CannotRun,
  signal?: AbortSignal,
): Promise<void> {
  const alone: number[] = [];
  for (const [index, task] of rest) if (task.text !== undefined && await leftAlone(task, cannotRun)) alone.push(index);
  if (alone.length === 0) return;
  const checks = alone.map((index): FileTask => {
    const { fixes, text: _text, stamp: _stamp, ...task } = rest.get(index)!;
    const known: Record<string, Known> = {};
    for (const [id, found] of Object.entries(fixes ?? {})) if (found.lint) known[id] = found.lint;
    return { ...task, fix: false, ...(Object.keys(known).length > 0 ? { known } : {}) };
  });
  // Nothing starts before the files are read: the run's batches have run, its namespaces are not cold.
  const checked = await prepass(checks, signal, { cold: new Map() });
  alone.forEach((index, k) => {
    rest.delete(index);
    const outcome = checked.done.get(k);
    if (outcome) done.set(index, outcome);
    else rest.set(index, checked.rest.get(k)!);
  });
}

/** Whether every fixing engine of `task` leaves its text as read: its fix known to change nothing, or unable to run. */
async function leftAlone(task: FileTask, cannotRun: CannotRun): Promise<boolean> {
  for (const { plan, spec } of fixers(task)) {
    const fix = task.fixes?.[plan.id]?.fix;
    // The engine cannot run here (ESLint not installed): it changes nothing, and a check says so as the pool would.
    if (fix && "unavailable" in fix) continue;
    if (fix) {
      if (!("value" in fix) || typeof (fix.value as { text?: unknown }).text === "string") return false;
      if ((fix.value as { poly_verdict?: unknown }).poly_verdict !== undefined) return false;
      continue;
    }
    if (!(await cannotRun(spec, plan.settings))) return false;
  }
  return true;
}

/**
 * The second stage: each file's next fixing engine whose fixes are its findings' edits ({@link EngineSpec.fixesFindings},
 * the rule pack) and that lints in batches, when every fixing engine before it leaves the text as read (the batch's fix
 * changed nothing, or the engine cannot run here), lints the text in one batch call per settings: a file whose findings
 * carry no fix is left as it is by that engine, its findings known; the pool fixes the others one by one.
 */
async function lintToFix(rest: Map<number, FileTask>, cannotRun: CannotRun): Promise<void> {
  const groups = new Map<string, { plan: EnginePlan; spec: EngineSpec; items: Item[] }>();
  for (const [index, task] of rest) {
    if (task.text === undefined) continue; // not read (cancelled)
    const plan = await nextToLint(task, cannotRun);
    if (!plan) continue;
    const spec = engineById(plan.id)!;
    const file: SourceFile = { path: task.path, relPath: task.relPath, language: task.language, text: task.text };
    const { where, hit } = await cachedFix(task, spec, file, fixSettings(task, plan));
    // Fixed before: the fix from the cache.
    if (hit !== undefined) {
      task.fixes = { ...task.fixes, [plan.id]: { fix: { value: hit } } };
      continue;
    }
    const id = `${plan.id}\0${jsonOf(plan.settings)}`;
    let group = groups.get(id);
    if (!group) groups.set(id, group = { plan, spec, items: [] });
    group.items.push({ index, file, where });
  }
  await Promise.all([...groups.values()].map(async ({ plan, spec, items }) => {
    let results: Settled<LintOutput>[];
    try {
      const engine = await loadEngine(spec);
      if (!engine.lintMany) return;
      results = await engine.lintMany(items.map((item) => item.file), plan.settings);
    } catch {
      return; // the pool fixes them one by one, and says what fails
    }
    await Promise.all(items.map(async (item, i) => {
      const result = results[i];
      if (result instanceof Error || result === undefined || result.partial !== undefined) return;
      if (result.diagnostics.some((d) => d.fix !== undefined)) return;
      const task = rest.get(item.index)!;
      const value: StoredFix = { fixed: 0 };
      item.where?.cache.set("fix", item.where.key, value);
      await keepLint(item.where, spec, item.file, plan.settings, result);
      task.fixes = { ...task.fixes, [plan.id]: { fix: { value }, lint: { value: result } } };
    }));
  }));
}

/**
 * The engine {@link lintToFix} may lint `task`'s file for: the first fixing engine with {@link EngineSpec.fixesFindings}
 * and a batch lint, when every fixing engine before it leaves the text as read; else undefined.
 */
async function nextToLint(task: FileTask, cannotRun: CannotRun): Promise<EnginePlan | undefined> {
  for (const { plan, spec } of fixers(task)) {
    const batched = task.fixes?.[plan.id];
    if (batched) {
      // The batch's fix: a changed text stops here; an unchanged one (or a failure, which changes nothing) goes on.
      const value = "value" in batched.fix ? batched.fix.value as { text?: unknown } : undefined;
      if (typeof value?.text === "string") return undefined;
      continue;
    }
    if (spec.fixesFindings && spec.batch?.lint) return plan;
    // An engine that cannot run here (ESLint not installed) changes nothing; any other might.
    if (!(await cannotRun(spec, plan.settings))) return undefined;
  }
  return undefined;
}

/** The batch calls of one engine's groups: in one call when the engine fixes several groups at once. */
async function fixGroups(spec: EngineSpec, groups: Group[], rest: Map<number, FileTask>): Promise<void> {
  const ended = span(`fix batch ${spec.id}`);
  let results: Settled<FixOutput>[][];
  try {
    const engine = await loadEngine(spec);
    const calls = groups.map((group) => ({
      files: group.items.map((item) => item.file),
      settings: group.settings,
      linted: group.items.map((item) => item.linted),
    }));
    if (engine.fixGroups) results = await engine.fixGroups(calls);
    else if (engine.fixMany) {
      results = await Promise.all(calls.map((call) => engine.fixMany!(call.files, call.settings, call.linted)));
    } else return; // the instance offers no batch call: each file is fixed on its own in the pool
  } catch (e) {
    results = groups.map((group) => group.items.map(() => e instanceof Error ? e : new Error(String(e))));
  } finally {
    ended();
  }
  await Promise.all(groups.map((group, i) => settleGroup(group, results[i], rest)));
}

/** One group's batch results: each file's fix (and the findings in the fixed text) into its task and the cache. */
async function settleGroup(group: Group, results: Settled<FixOutput>[], rest: Map<number, FileTask>): Promise<void> {
  const { spec, plan, settings, items } = group;
  // The findings in a fixed text are the lint's only under the settings the engine lints with.
  const lintsAlike = settings === plan.settings;
  await Promise.all(items.map(async (item, i) => {
    const task = rest.get(item.index)!;
    const result = results[i];
    if (result instanceof Error || result === undefined) {
      const known = knownError(result ?? new Error("the batch returned no result for this file"));
      // A refusal or a crash's verdict is cached as the pool's step caches it (see cache/engine.ts).
      if ("value" in known) item.where?.cache.set("fix", item.where.key, known.value);
      // A text that does not parse, or one the engine refuses: the verdict is the lint's too (EngineInstance.fix), kept
      // for a check after this run.
      const lints = result instanceof SourceSyntaxError || result instanceof EngineRefusal;
      if (lints && "value" in known && lintsAlike) {
        await keepLint(item.where, spec, item.file, plan.settings, known.value);
      }
      task.fixes = { [plan.id]: { fix: known } };
      return;
    }
    const value = storedFix(item.file.text, result);
    item.where?.cache.set("fix", item.where.key, value);
    const entry: { fix: Known; lint?: Known } = { fix: { value } };
    if (result.lint && lintsAlike) {
      entry.lint = { value: result.lint };
      const fixedFile = { ...item.file, text: value.text ?? item.file.text };
      await keepLint(item.where, spec, fixedFile, plan.settings, result.lint);
    }
    task.fixes = { [plan.id]: entry };
  }));
}
