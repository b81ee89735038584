/**
 * The lint and format pipeline: configuration → discovery → engine plan per file
 * → parallel processing → one deterministic {@link Report}. The CLI (`poly lint`,
 * `poly fmt`) and the MCP tools (`lint`, `lint_fix`, `format_check`,
 * `format_write`) call exactly these functions.
 *
 * The files are processed in windows of {@link RUN_WINDOW} consecutive paths,
 * one worker pool serving them all: what a run holds at once (texts, engine
 * results, outcomes) is one window's, and with `onResult` the results leave as
 * each window is done (the CLI writes its report from them), so memory follows
 * the work in flight rather than the repository.
 *
 * @module
 */
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { openConfig } from "../config/load.ts";
import { perFileIgnoredCodes } from "../config/per_file_ignores.ts";
import type { ConfigSet, ResolvedConfig } from "../config/types.ts";
import { discover } from "../discover/mod.ts";
import { buildIdentity } from "../cache/mod.ts";
import { cacheDirFor } from "../cache/db.ts";
import { identity } from "../identity/mod.ts";
import { revalidateEngineVersions } from "../identity/engines.ts";
import type { ConfigRef, FileResult, Identity, Report, RunError, RunSkip, Severity } from "../report/schema.ts";
import type { FileOutcome, FileTask } from "./file.ts";
import { prepass, prepassable, type PrepassContext } from "./prepass.ts";
import { fixPrepass, fixPrepassable } from "./fixpass.ts";
import { narrowToFile, planFormat, planLint, withEditorconfig } from "./plan.ts";
import { nativeIgnoredCodes } from "../config/native/mod.ts";
import { engineById, loadEngine } from "../engines/registry.ts";
import type { EngineSettings, Language } from "../engines/types.ts";
import { revalidateRuleSets, ruleLoadRunErrors } from "../engines/ast_grep/settings.ts";
import { configuredByRepository } from "../engines/settings.ts";
import { Pool } from "./pool.ts";
import type { RunMemo, RunRequest } from "./types.ts";
import type { Candidate } from "../discover/types.ts";
import { compareText } from "../report/sort.ts";
import { boundReportDiffs } from "../report/diff.ts";
import { countDiagnostics, runSummary } from "../report/summary.ts";
import { assignShards, isWhole, sizesOf } from "./shard.ts";
import { span, timed } from "../debug/timing.ts";
import { enginesPlanned } from "../engines/warm.ts";
import { withRunSignal } from "../process/run_signal.ts";

export type { ProposedChange, RunMemo, RunRequest } from "./types.ts";

/** Lints the requested paths (and applies safe fixes with `fix`). */
export function runLint(request: RunRequest): Promise<Report> {
  return withRunSignal(request.signal, () => runPipeline("lint", request));
}

/** Checks (or with `fix`, rewrites) the formatting of the requested paths. */
export function runFmt(request: RunRequest): Promise<Report> {
  return withRunSignal(request.signal, () => runPipeline("fmt", request));
}

async function runPipeline(kind: "lint" | "fmt", request: RunRequest): Promise<Report> {
  // A resident process (poly mcp, poly daemon) runs many times: rule files edited since are read again, and a host
  // tool upgraded since is asked its version again.
  revalidateRuleSets();
  revalidateEngineVersions();
  // A resident process's memo serves check runs; fixes and previews always run in full.
  const memo = request.memo && !request.noCache && !request.fix && !request.preview ? request.memo : undefined;
  const at = memo?.position() ?? 0;
  const configKey = JSON.stringify(["configs", request.cwd, request.config ?? null]);
  let configs = memo?.shaped<ConfigSet>(configKey);
  if (!configs) {
    configs = await timed("config", () => openConfig({ cwd: request.cwd, explicit: request.config }));
    memo?.rememberShaped(configKey, configs, at);
  }
  // The shared remote cache (lib/cache/remote) is asked while discovery walks the tree.
  const remote = request.noCache
    ? undefined
    : await timed("root config, remote cache", () => remoteFor(kind, request, configs));
  const discoveryKey = JSON.stringify([
    "discover",
    request.cwd,
    request.paths,
    request.exclude ?? [],
    request.config ?? null,
  ]);
  let candidates = memo?.shaped<Candidate[]>(discoveryKey);
  if (!candidates) {
    const walked = span("discovery");
    candidates = await discover({
      cwd: request.cwd,
      paths: request.paths,
      exclude: request.exclude,
      configFor: async (dir) => {
        const c = await configs!.forDir(dir);
        return { excludes: c.excludes, forceExclude: c.data.discovery.force_exclude };
      },
      includeUnknown: false,
      signal: request.signal,
      onLanguage: kind === "lint" && !request.fix ? prepareFor(configs, request) : undefined,
      // The directories the configuration lists are the ones the walk lists: once each. A kept configuration's
      // listings hold while the tree's shape does, which is as long as the memo keeps it.
      listings: configs.listings,
    });
    walked();
    memo?.rememberShaped(discoveryKey, candidates, at);
  }

  const shard = isWhole(request.shard) ? undefined : request.shard!;
  const planned = span("plan");
  // A resident process (`poly daemon`, `poly mcp`) plans the same files under the same configuration again: while the
  // tree's shape holds, the plan is its last one, under this run's id. Not a shard's: shards are assigned by the
  // files' sizes, which an edit changes without changing the shape.
  const planKey = memo && !request.reads && !shard
    ? JSON.stringify(["plan", kind, discoveryKey, configKey])
    : undefined;
  const kept = planKey ? memo!.shaped<RunPlan>(planKey) : undefined;
  const plan = kept?.candidates === candidates && kept.configs === configs
    ? kept
    : await planFiles(kind, request, candidates, configs, shard);
  if (planKey && plan !== kept) memo!.rememberShaped(planKey, plan, at);
  const runId = crypto.randomUUID();
  for (const cache of plan.caches) cache.runId = runId;
  planned();
  const { runnable, runnableConfigs, configRefs, rulesChecked } = plan;
  enginesPlanned(() => new Set(runnable.flatMap((task) => task.engines.map((engine) => engine.id))));
  const cacheSettings = !request.noCache;
  /** Results known before any engine runs (skips, unreadable entries), in path order. */
  const results = plan.known;
  const runErrors: RunError[] = [];
  // Rule files load while the files run (the rules engine loads the same, memoized, sets); their
  // problems are reported once the run is over, so no batch waits for them to start.
  const ruleErrors = Promise.all(
    [...rulesChecked.values()].map((s) => !shard || shard.index === 1 ? ruleLoadRunErrors(s, request.cwd) : []),
  );
  ruleErrors.catch(() => {}); // awaited below
  // The report's identity (the engines' digests: ~15 ms of stats) is worked out while the engines
  // run, at the first turn of the event loop: not before the early batches start, nor after all.
  const who = new Promise<Identity>((resolve, reject) =>
    setTimeout(() => timed("identity", identity).then(resolve, reject), 0)
  );
  who.catch(() => {}); // awaited in assemble
  await remote?.pulled;
  const out = new Results(kind, request);
  const pool = new Pool({ jobs: request.jobs, signal: request.signal, oneShot: request.oneShot });
  let hits = 0;
  const ran = span("files");
  try {
    // The files go through in windows of consecutive paths (a resident process's memo: in one): each window's
    // texts, engine results and outcomes are let go once its results are passed on, so what the run holds is
    // bounded by the window, not the repository (the report itself is written as it goes, see onResult).
    const size = memo || !inPathOrder(runnable)
      ? Math.max(1, runnable.length)
      : Math.max(1, request.window ?? RUN_WINDOW);
    const context: PrepassContext = {};
    const linked = memo ? linkedFiles(candidates) : undefined;
    const sharedSeen = new Set<string>();
    let before = 0;
    let pending = 0; // index into results: the first not yet passed on
    for (let start = 0; start < runnable.length || start === 0; start += size) {
      const tasks = runnable.slice(start, start + size);
      const last = start + size >= runnable.length;
      const progress = request.onProgress &&
        ((done: number) => request.onProgress!(before + done, runnable.length));
      const windowRequest = { ...request, onProgress: progress };
      let outcomes: FileOutcome[];
      if (memo) {
        const ran = await runRemembered(
          tasks,
          runnableConfigs.slice(start, start + size),
          windowRequest,
          memo,
          at,
          linked!,
          pool,
        );
        outcomes = ran.outcomes;
        hits += ran.hits;
      } else outcomes = await runAll(tasks, windowRequest, pool, context);
      before += tasks.length;
      outcomes.forEach((o, i) => {
        if (o.proposed) request.onProposed?.({ path: tasks[i].path, relPath: o.relPath, ...o.proposed });
      });
      const part: FileResult[] = [];
      for (const o of outcomes) {
        if (o.checked) out.checked++;
        if (o.record) part.push(o.record);
        // A failure of a whole module is one run-level error, however many of its files met it.
        for (const failure of o.shared ?? []) {
          const path = displayPath(request.cwd, failure.path);
          if (sharedSeen.has(`${path}\0${failure.message}`)) continue;
          sharedSeen.add(`${path}\0${failure.message}`);
          runErrors.push({ path, message: failure.message });
        }
      }
      // The results known ahead whose paths come before the next window's.
      const bound = last ? undefined : runnable[start + size].relPath;
      while (pending < results.length && (bound === undefined || results[pending].path < bound)) {
        part.push(results[pending++]);
      }
      await out.pass(part);
      if (last) break;
    }
  } finally {
    ran();
    const counters = await pool.close();
    hits += counters.hits;
    out.misses = counters.misses;
  }
  for (const errors of await ruleErrors) runErrors.push(...errors);
  const report = await timed("assemble", () => out.assemble([...configRefs], runErrors, who));
  if (cacheSettings) report.summary.cache = { hits, misses: out.misses };
  // Uploads happen after the run (the CLI waits for them, bounded, before it exits).
  remote?.finish(runnable.length);
  return report;
}

/**
 * A run's plan: each discovered file's task (its engines under its config), the
 * results known before any engine runs, and the configs the report names. A
 * function of the candidates, their configs and the kind (and for a shard, of
 * the files' sizes): a resident process keeps a whole run's while the tree's
 * shape holds (see {@link RunMemo.shaped}).
 */
interface RunPlan {
  candidates: Candidate[];
  configs: ConfigSet;
  /** The tasks with at least one engine, in path order, and each one's effective config (for the memo's signatures). */
  runnable: FileTask[];
  runnableConfigs: ResolvedConfig[];
  /** Results known before any engine runs (skips, unreadable entries, files no engine takes), in path order. */
  known: FileResult[];
  configRefs: ConfigRef[];
  /** The rules settings of each config (by hash) whose rule files' problems the report names. */
  rulesChecked: Map<string, EngineSettings>;
  /** The tasks' cache settings, one object per config: each run sets its own id on them. */
  caches: NonNullable<FileTask["cache"]>[];
}

async function planFiles(
  kind: "lint" | "fmt",
  request: RunRequest,
  candidates: Candidate[],
  configs: ConfigSet,
  shard: RunRequest["shard"] | undefined,
): Promise<RunPlan> {
  const roots = request.fix && !request.preview ? await writeRoots(request) : undefined;
  const cacheSettings = !request.noCache;
  let build: Promise<string> | undefined;
  const known: FileResult[] = [];
  const rulesChecked = new Map<string, EngineSettings>();
  const configRefs: ConfigRef[] = [];
  const configIndex = new Map<string, number>();
  const tasks: FileTask[] = [];
  // `--shard i/n`: every shard numbers the configs as the whole run would (so `poly report merge` can join the
  // reports), and keeps only its own paths.
  const owner = shard
    ? await (async () => {
      const sizes = await sizesOf(candidates.filter((c) => c.kind === "file").map((c) => c.path));
      return assignShards(candidates.map((c) => ({ path: c.relPath, size: sizes.get(c.path) ?? 0 })), shard.count);
    })()
    : undefined;
  const mine = (relPath: string) => !owner || owner.get(relPath) === shard!.index;
  /** A resident process (`poly daemon`, `poly mcp`) plans the same files again: each file's plan is kept by path. */
  const resident = request.memo !== undefined;
  const cacheOf = new Map<string, NonNullable<FileTask["cache"]>>();
  /** Each task's effective config, index for index. */
  const taskConfigs: ResolvedConfig[] = [];
  // discover() returns its records sorted by relPath already: tasks are made in that order.
  for (const c of candidates) {
    // A file is noted by the stat taken before it is read (the pre-pass's, on this thread); one no engine reads is a
    // function of its path alone, and whether it is there at all is its folder's listing, noted by discovery.
    if (c.kind !== "file") request.reads?.note(c.path);
    if (c.kind === "skip") mine(c.relPath) && known.push({ path: c.relPath, skipped: c.skip });
    else if (c.kind === "error") mine(c.relPath) && known.push({ path: c.relPath, error: c.error });
    else {
      const config = await configs.forDir(parentDir(c.path));
      if (!config.data.cache.enabled) {
        request.reads?.refuse(`${config.file ?? "a config"} turns the cache off`);
      }
      let index = configIndex.get(config.hash);
      if (index === undefined) {
        index = configRefs.length;
        configIndex.set(config.hash, index);
        configRefs.push({ hash: config.hash, sources: config.sources.map((s) => displayPath(request.cwd, s)) });
      }
      const plan = kind === "lint"
        ? narrowToFile(planLint(c.language, config), c.path, kind, resident)
        : withEditorconfig(
          narrowToFile(planFormat(c.language, config), c.path, kind, resident),
          config,
          c.path,
          c.language,
        );
      const rules = plan.engines.find((e) => engineById(e.id)?.crossCutting);
      if (rules && !rulesChecked.has(config.hash)) rulesChecked.set(config.hash, rules.settings);
      if (!mine(c.relPath)) continue;
      tasks.push({
        path: c.path,
        relPath: c.relPath,
        language: c.language,
        kind,
        fix: request.fix ?? false,
        ...(request.preview ? { preview: true } : {}),
        ...(roots ? { writeRoots: roots } : {}),
        engines: plan.engines,
        noEngine: plan.noEngine,
        ignoreCodes: kind === "lint" ? orNone(perFileIgnoredCodes(config.perFileIgnores, c.path)) : NONE,
        ...(kind === "lint" && c.language === "python" && config.native?.ruff?.perFileIgnores
          ? nativeIgnores(nativeIgnoredCodes(config.native.ruff, c.path))
          : {}),
        maxSize: config.data.discovery.max_file_size,
        ...(cacheSettings && config.data.cache.enabled
          ? {
            // One object per config, shared by its tasks (a large run has tens of thousands).
            cache: cacheOf.get(config.hash) ?? cacheOf.set(config.hash, {
              anchor: configs.anchor,
              build: await (build ??= buildIdentity()),
              runId: "",
              ...(config.data.cache.dir ? { root: resolve(config.dir, config.data.cache.dir) } : {}),
            }).get(config.hash)!,
          }
          : {}),
        // A formatter governed by the repository's own file (rustfmt.toml, .clang-format, biome.json, ruff's), or run
        // as its pre-commit hook runs it, decides.
        lineEnding: kind === "fmt" && configuredByRepository(plan.engines[0]?.settings)
          ? "keep"
          : plan.engines[0]?.settings.defaults.line_ending ?? config.data.defaults.line_ending,
        ...(index > 0 ? { config: index } : {}),
      });
      taskConfigs.push(config);
    }
  }
  // A file of a language nobody handles, with no cross-cutting engine either, is a skip without a read.
  const runnable: FileTask[] = [];
  const runnableConfigs: ResolvedConfig[] = [];
  tasks.forEach((t, i) => {
    if (t.engines.length > 0) {
      runnable.push(t);
      runnableConfigs.push(taskConfigs[i]);
    } else known.push({ path: t.relPath, ...(t.config ? { config: t.config } : {}), skipped: t.noEngine });
  });
  known.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  if (request.reads?.file) nameOwnFiles(runnable, candidates, request.reads.file.bind(request.reads));
  return {
    candidates,
    configs,
    runnable,
    runnableConfigs,
    known,
    configRefs,
    rulesChecked,
    caches: [...cacheOf.values()],
  };
}

/**
 * Names to the log of a run's reads (a one-shot check's, kept for replay) each file of the run whose bytes no other
 * file's result depends on: not reached through a link, and no engine of the run takes it into another file's context
 * (`contextFiles`: a `.go` file for go vet, a module an ESLint configuration loads). A replay whose only changes are
 * such files brings its kept run up to date by checking those files again (lib/cache/replay.ts).
 */
function nameOwnFiles(tasks: FileTask[], candidates: Candidate[], file: (path: string) => void): void {
  const linked = linkedFiles(candidates);
  const contexts = new Set<string>();
  for (const task of tasks) for (const plan of task.engines) contexts.add(plan.id);
  const specs = [...contexts].map((id) => engineById(id)).filter((spec) => spec?.cacheContext);
  for (const task of tasks) {
    // Brought up to date, such a file's bytes have changed: it was neither made nor removed.
    if (
      !linked.has(task.path) && specs.every((spec) => spec!.contextFiles && !spec!.contextFiles(task.path, "modify"))
    ) {
      file(task.path);
    }
  }
}

/** The empty list of codes every task without per-file ignores shares (never written to). */
const NONE: string[] = [];
const orNone = (codes: string[]) => codes.length > 0 ? codes : NONE;

/** Files a run takes at a time (see {@link RunRequest.window}). */
export const RUN_WINDOW = 4096;

/** Whether tasks come in code-unit order of their paths (discovery's order), so windows of them are in report order. */
function inPathOrder(tasks: FileTask[]): boolean {
  for (let i = 1; i < tasks.length; i++) if (tasks[i - 1].relPath > tasks[i].relPath) return false;
  return true;
}

/**
 * A run's results as they come, window by window, in path order: counted for
 * the summary, their errors and skips noted, and then either passed on
 * (`onResult`: the report is written as the run goes and nothing is kept) or
 * kept for the returned report.
 */
class Results {
  checked = 0;
  misses = 0;
  readonly #kept: FileResult[] = [];
  readonly #errors: RunError[] = [];
  readonly #skipped: RunSkip[] = [];
  readonly #counts: Record<Severity, number> = { error: 0, warning: 0, info: 0, hint: 0 };
  #fixed = 0;
  #changed = 0;
  readonly #diffs = { used: 0 };

  constructor(readonly kind: "lint" | "fmt", readonly request: RunRequest) {}

  /** Takes one window's results (any order; they sort among themselves and come after every earlier window's). */
  async pass(results: FileResult[]): Promise<void> {
    results.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
    for (const r of results) {
      r.diagnostics?.sort((a, b) =>
        (a.span?.start_line ?? 0) - (b.span?.start_line ?? 0) ||
        (a.span?.start_col ?? 0) - (b.span?.start_col ?? 0) ||
        compareText(a.code, b.code) || compareText(a.engine, b.engine)
      );
    }
    if (this.kind === "fmt") boundReportDiffs(results, undefined, this.#diffs);
    const counts = countDiagnostics(results);
    for (const severity of Object.keys(counts) as Severity[]) this.#counts[severity] += counts[severity];
    for (const r of results) {
      if (r.error) this.#errors.push({ path: r.path, message: r.error });
      if (r.skipped) this.#skipped.push({ path: r.path, reason: r.skipped });
      this.#fixed += r.fixed ?? 0;
      if (r.changed) this.#changed++;
      if (this.request.onResult) {
        const written = this.request.onResult(r);
        if (written) await written;
      } else this.#kept.push(r);
    }
  }

  /** The report: the kept results (none when they were passed on), errors, skips and the summary of them all. */
  async assemble(configs: ConfigRef[], runErrors: RunError[], who: Promise<Identity>): Promise<Report> {
    const errors: RunError[] = [...runErrors, ...this.#errors].sort((a, b) =>
      a.path < b.path ? -1 : a.path > b.path ? 1 : 0
    );
    const summary = runSummary(this.kind, this.request.fix === true, {
      checked: this.checked,
      skipped: this.#skipped.length,
      errored: errors.length,
      fixed: this.#fixed,
      changed: this.#changed,
    }, this.#counts);
    return {
      kind: this.kind,
      mode: this.request.fix ? "fix" : "check",
      results: this.#kept,
      errors,
      skipped: this.#skipped,
      summary,
      configs,
      poly: await who,
    };
  }
}

/** The remote cache session of a check run, when `[cache] remote` or `POLY_REMOTE_CACHE_URL` names one. */
async function remoteFor(kind: "lint" | "fmt", request: RunRequest, configs: ConfigSet) {
  if (request.fix || request.preview) return undefined;
  const { remoteSettings, startRemote } = await import("../cache/remote/mod.ts");
  const config = await configs.forDir(resolve(request.cwd));
  if (!remoteSettings(config.data.cache)) return undefined;
  return await startRemote({
    kind,
    fix: false,
    anchor: configs.anchor,
    cwd: resolve(request.cwd),
    paths: request.paths,
    exclude: request.exclude ?? [],
    ...(request.config ? { configPath: request.config } : {}),
    ...(request.shard ? { shard: request.shard } : {}),
    cache: config.data.cache,
    configDir: config.dir,
    build: await buildIdentity(),
  });
}

/**
 * Runs every task: a check run (or a format with `--fix`) goes through the
 * main-thread pre-pass first (the cache, then batch engines), and only what it
 * leaves reaches the worker pool; a lint fix run through the fix pre-pass
 * (lib/run/fixpass.ts: the batch fixers), then the pool.
 */
async function runAll(
  tasks: FileTask[],
  request: RunRequest,
  pool: Pool,
  context: PrepassContext = {},
): Promise<FileOutcome[]> {
  const first = tasks.every(prepassable)
    ? () => prepass(tasks, request.signal, context)
    : tasks.every(fixPrepassable)
    ? () => fixPrepass(tasks, request.signal)
    : undefined;
  if (!first) return await timed("pool", () => pool.run(tasks, request.onProgress));
  const { done, rest } = await first();
  if (done.size > 0) request.onProgress?.(done.size, tasks.length);
  const order = [...rest.keys()];
  const pooled = await timed("pool", () =>
    pool.run(
      order.map((i) => rest.get(i)!),
      (n) => request.onProgress?.(done.size + n, tasks.length),
    ));
  const outcomes = new Array<FileOutcome>(tasks.length);
  for (const [i, outcome] of done) outcomes[i] = outcome;
  order.forEach((i, k) => outcomes[i] = pooled[k]);
  return outcomes;
}

/**
 * {@link runAll} through a resident process's memo: a file whose outcome was
 * recorded under the same signature and has not changed since is answered from
 * it; the rest run, and what they give is recorded at `at` (the run's start).
 */
async function runRemembered(
  tasks: FileTask[],
  configs: ResolvedConfig[],
  request: RunRequest,
  memo: RunMemo,
  at: number,
  linked: Set<string>,
  pool: Pool,
): Promise<{ outcomes: FileOutcome[]; hits: number }> {
  const keep = (path: string) => !linked.has(path) && memo.covers(path);
  memo.noteSources(new Set(configs.flatMap((c) => c.sources)));
  memo.noteLanguages(new Set(tasks.map((t) => t.language)));
  // What a result depends on beyond the file and its config: each engine's salt (the rules' digest), worked out once
  // for each config, kind and language before the files are looked up.
  const keys = tasks.map((task, i) => keysOf(task, configs[i]));
  const salts = new Map<string, Promise<string>>();
  tasks.forEach((task, i) => {
    const plan = keys[i].plan;
    if (salts.has(plan)) return;
    salts.set(
      plan,
      Promise.all(task.engines.map(async (plan) => {
        const spec = engineById(plan.id);
        return spec?.cacheSalt ? `${plan.id}=${await spec.cacheSalt(plan.settings)}` : "";
      })).then((parts) => parts.join(",")),
    );
  });
  // All awaited at once: a salt that fails is the run's error, never a rejection nobody handles.
  const saltOf = new Map(await Promise.all([...salts].map(async ([plan, salt]) => [plan, await salt] as const)));
  const signatures: string[] = [];
  const outcomes = new Array<FileOutcome>(tasks.length);
  const rest: number[] = [];
  let hits = 0;
  for (const [i, task] of tasks.entries()) {
    signatures[i] = signatureOf(keys[i], saltOf.get(keys[i].plan)!);
    const known = keep(task.path) ? memo.outcome<FileOutcome>(task.path, signatures[i]) : undefined;
    if (known) {
      outcomes[i] = known.outcome;
      hits += known.steps;
    } else rest.push(i);
  }
  if (rest.length < tasks.length) request.onProgress?.(tasks.length - rest.length, tasks.length);
  const ran = await runAll(rest.map((i) => tasks[i]), {
    ...request,
    onProgress: request.onProgress &&
      ((done: number) => request.onProgress!(tasks.length - rest.length + done, tasks.length)),
  }, pool);
  rest.forEach((i, k) => {
    const outcome = outcomes[i] = ran[k];
    const task = tasks[i];
    if (outcome.error || outcome.record?.error || outcome.shared || !keep(task.path)) return;
    const specs = task.engines.map((plan) => engineById(plan.id)).filter((spec) => spec !== undefined);
    const steps = task.kind === "fmt" ? 1 : specs.filter((spec) => spec.capabilities.lint).length;
    const contexts = specs.filter((spec) => spec.cacheContext).map((spec) => ({
      id: spec.id,
      ...(spec.contextFiles ? { files: spec.contextFiles } : {}),
    }));
    memo.remember(task.path, signatures[i], { outcome, steps, contexts }, at);
  });
  return { outcomes, hits };
}

/**
 * In a run that will start its batch engines (no result cache for the
 * repository yet, or `--no-cache`), each language discovery finds has its batch
 * engines loaded (and their rule sets read) under the config of the run's
 * directory while the walk waits on the file system, so the native processes
 * start sooner once the files are known. Only engines a found language plans
 * load: a Python-only run loads no biome; a run with a cache to answer from
 * loads nothing ahead (it may need no batch at all).
 */
function prepareFor(configs: ConfigSet, request: RunRequest): (language: Language) => void {
  const prepared = new Set<string>();
  const wanted = (async () => {
    const config = await configs.forDir(request.cwd);
    if (request.noCache || !config.data.cache.enabled) return config;
    const root = config.data.cache.dir ? resolve(config.dir, config.data.cache.dir) : undefined;
    const db = join(cacheDirFor(configs.anchor, root), "cache.db");
    return await Deno.stat(db).then(() => undefined, () => config);
  })();
  wanted.catch(() => {}); // a config that does not load: the run reports it
  return (language) => {
    void (async () => {
      const config = await wanted;
      if (!config) return;
      for (const plan of planLint(language, config).engines) {
        const spec = engineById(plan.id);
        if (!spec?.batch?.lint || prepared.has(`${plan.id}\0${config.hash}`)) continue;
        prepared.add(`${plan.id}\0${config.hash}`);
        await (await loadEngine(spec)).prepare?.(plan.settings);
      }
    })().catch(() => {}); // the run itself meets (and reports) whatever failed here
  };
}

/**
 * The directories a fix run may rewrite files in, as real paths: the request's
 * `root` alone when it has one (an MCP call); else its `cwd`, and each named
 * path that lies outside `cwd` as written (a directory named there bounds the
 * writes below it; a file named there may itself be written). A file reached
 * through a symbolic link is written only when its real path is inside one.
 */
export async function writeRoots(request: Pick<RunRequest, "root" | "cwd" | "paths">): Promise<string[]> {
  const real = (path: string) => Deno.realPath(path).catch(() => path);
  if (request.root !== undefined) return [await real(resolve(request.root))];
  const cwd = resolve(request.cwd);
  const roots = [await real(cwd)];
  for (const path of request.paths) {
    const abs = resolve(cwd, path);
    const rel = relative(cwd, abs);
    if (rel === ".." || rel.startsWith(".." + sep) || isAbsolute(rel)) roots.push(await real(abs));
  }
  return roots;
}

/** A task's keys in the memo (see {@link keysOf}). */
interface TaskKeys {
  /** Its signature but for its engines' salts. */
  head: string;
  /** The key of its plan (config, kind, language), which the salts are worked out by. */
  plan: string;
  /** Its last signature, and the salts it was made with. */
  last?: { salts: string; signature: string };
}

/** Each task's keys, by task: a resident process's kept plan passes the same tasks run after run. */
const taskKeys = new WeakMap<FileTask, TaskKeys>();

function keysOf(task: FileTask, config: ResolvedConfig): TaskKeys {
  let keys = taskKeys.get(task);
  if (!keys) {
    keys = {
      head: [task.kind, task.relPath, task.language, config.hash, task.config ?? 0].join("\0"),
      plan: `${config.hash}\0${task.kind}\0${task.language}`,
    };
    taskKeys.set(task, keys);
  }
  return keys;
}

/** A task's signature under `salts`: the same string as last time while they hold (the memo compares it at once). */
function signatureOf(keys: TaskKeys, salts: string): string {
  if (keys.last?.salts !== salts) keys.last = { salts, signature: `${keys.head}\0${salts}` };
  return keys.last.signature;
}

/** Files reached through a symbolic link: a watcher sees their changes under another name. */
function linkedFiles(candidates: Candidate[]): Set<string> {
  const out = new Set<string>();
  for (const c of candidates) if (c.kind === "file" && c.linked) out.add(c.path);
  return out;
}

/** ruff's own per-file-ignores for one file, as a task's `engineIgnores` (absent when none apply). */
function nativeIgnores(codes: string[]): { engineIgnores?: Record<string, string[]> } {
  return codes.length > 0 ? { engineIgnores: { ruff: codes } } : {};
}

function parentDir(path: string): string {
  const i = path.lastIndexOf("/");
  return i > 0 ? path.slice(0, i) : "/";
}

function displayPath(cwd: string, path: string): string {
  const rel = relative(cwd, path).split("\\").join("/");
  return rel.startsWith("..") ? path : rel;
}
