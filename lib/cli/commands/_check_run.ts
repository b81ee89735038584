/**
 * What `poly lint` and `poly fmt` do once their command line is parsed: a run,
 * a report on stdout as the files are done, an exit code — or the replay of an
 * earlier process's run (lib/cache/replay.ts), which main.ts looks up by the
 * command line as given, before it loads a parser, so this module loads none.
 *
 * @module
 */
import type { CommandIO } from "../command.ts";
import { colorMode } from "../color.ts";
import { writeTo } from "../../io/mod.ts";
import { UsageError } from "../../errors/mod.ts";
import type { RunOptionValues } from "./_run_options.ts";
import type { RunRequest } from "../../run/types.ts";
import type { FileResult, Report } from "../../report/schema.ts";
import type { KeptText, Replay } from "../../cache/replay.ts";
import type { ReadLog } from "../../fs/read_log.ts";
import type { ReportWriter } from "../../report/stream.ts";
import { span } from "../../debug/timing.ts";

/** `poly lint`'s parsed value. */
export type LintValue = RunOptionValues & {
  fix: boolean;
  noWorkspace: boolean;
  statistics: boolean;
  maxDiagnostics?: number;
};

/** `poly fmt`'s parsed value. */
export type FmtValue = RunOptionValues & { m: { mode: "check" | "diff" | "fix" } };

/** `--shard I/N` parsed (a malformed value is a usage error, exit 2). */
export async function shardOption(text: string | undefined): Promise<{ index: number; count: number } | undefined> {
  if (text === undefined) return undefined;
  const { parseShard } = await import("../../run/shard.ts");
  try {
    return parseShard(text);
  } catch (error) {
    throw new UsageError(`--shard: ${(error as Error).message}`);
  }
}

/**
 * The run request `poly lint` and `poly fmt` make from their shared options; `own` is what differs (whether it
 * fixes, the progress line, where each file's result goes).
 */
function runRequestOf(
  value: RunOptionValues,
  io: CommandIO,
  shard: RunRequest["shard"],
  own: Pick<RunRequest, "fix" | "onProgress" | "onResult" | "reads">,
): RunRequest {
  return {
    paths: [...value.paths],
    cwd: io.cwd,
    exclude: [...value.exclude],
    config: value.config,
    noCache: value.noCache,
    jobs: value.jobs,
    ...(shard ? { shard } : {}),
    // Inside a daemon (io.memo) the main thread serves other clients; a process of its own has nothing else to do.
    ...(io.memo ? { memo: io.memo } : { oneShot: true }),
    ...(io.signal ? { signal: io.signal } : {}),
    ...own,
  };
}

/** Waits (bounded) for the remote-cache uploads a one-shot process started; a resident one goes on. */
async function settleRemote(io: CommandIO): Promise<void> {
  if (!io.memo) await (await import("../../cache/remote/mod.ts")).settleRemoteWrites();
}

/** A progress line on stderr for long runs on a terminal; never on a pipe. */
function progressReporter(io: CommandIO, label: string): ((done: number, total: number) => void) | undefined {
  if (!io.stderrIsTerminal) return undefined;
  let last = 0;
  return (done, total) => {
    const now = Date.now();
    if (total < 200 || (now - last < 100 && done < total)) return;
    last = now;
    const width = 30;
    const filled = Math.round((done / total) * width);
    const bar = "#".repeat(filled) + "-".repeat(width - filled);
    const end = done === total ? "\r\x1b[2K" : "";
    io.stderr(`\r${label} [${bar}] ${done}/${total}${end}`);
  };
}

/** Arguments after which a run is never kept, so main.ts does not look one up: it writes, or bypasses the cache. */
const NEVER_KEPT = new Set(["--fix", "--no-cache"]);

/**
 * A one-shot check run's replay (lib/cache/replay.ts): the run kept by an
 * earlier process with the same command line, cwd, environment and code, when
 * nothing it read has changed (`hit`); otherwise the log that lets this run be
 * kept for the next one.
 */
export class RunReplay {
  /** The key the run is kept under: what main.ts passes on to the command as `io.replayKey` on a miss. */
  readonly key: string;
  readonly hit?: Replay;
  /** A kept `poly lint` or `poly fmt --check` run whose own files changed since (replay.ts `stale`): brought up to date. */
  readonly stale?: Replay<KeptText>;
  #log?: ReadLog;
  #results: FileResult[] = [];
  /** A JSON run's results as written (see {@link RunReplay.keepText}), and how many results that text holds. */
  #text?: (string | Uint8Array)[];
  #count = 0;
  /** About how many characters of JSON the results so far make (a run's memory stays bounded by its window). */
  #chars = 0;

  /** About how many characters of results a run collects before it gives up being kept (replay.ts `MAX_CHARS`). */
  readonly #budget: number;

  private constructor(key: string, found: Replay<KeptText> | undefined, budget: number) {
    this.key = key;
    this.#budget = budget;
    if (found?.stale) this.stale = found;
    else if (found) this.hit = found;
  }

  /**
   * Looks up `poly lint ...` or `poly fmt ...` by its arguments as given (main.ts,
   * before parsing them): a run is a function of its command line, cwd,
   * environment and code, and of what it read. Undefined for a command line
   * that is never kept (`--fix`, `--no-cache`) and inside a resident process
   * (`poly daemon`: its own memo knows more).
   */
  static async lookup(args: readonly string[], io: CommandIO): Promise<RunReplay | undefined> {
    if (io.memo || args.some((a) => NEVER_KEPT.has(a))) return undefined;
    const looked = span("replay lookup");
    const [{ findReplay, MAX_CHARS, replayKey }, { relevantEnv }] = await Promise.all([
      import("../../cache/replay.ts"),
      import("../../daemon/wire.ts"),
    ]);
    const key = await replayKey({ args, cwd: io.cwd, env: relevantEnv() });
    const replay = new RunReplay(key, findReplay(key), MAX_CHARS);
    looked();
    if (replay.hit) span("replay hit")();
    if (replay.stale) span(`replay stale: ${replay.stale.stale!.changed.length} changed`)();
    return replay;
  }

  /**
   * The replay a parsed command keeps its run for: the key main.ts looked up
   * (`io.replayKey`, a miss), unless this run is never kept — it writes (`fix`),
   * bypasses the cache, or no key was looked up (a command run in process).
   */
  static async forRun(mode: string, value: RunOptionValues, io: CommandIO): Promise<RunReplay | undefined> {
    if (mode === "fix" || value.noCache || io.memo || io.replayKey === undefined) return undefined;
    const { MAX_CHARS } = await import("../../cache/replay.ts");
    return new RunReplay(io.replayKey, undefined, MAX_CHARS);
  }

  /** Prints a hit (or a stale run brought up to date) as its command would (the kept value is what the same arguments parse to). */
  async play(io: CommandIO): Promise<number> {
    const { kind, value } = (this.hit ?? this.stale)!.command;
    const shard = await shardOption((value as RunOptionValues).shard);
    return kind === "lint"
      ? await lintRun(value as LintValue, io, shard, this)
      : await fmtRun(value as FmtValue, io, shard, this);
  }

  /** Starts logging what the run reads (on a miss); what the run itself adds goes to the returned log. */
  async start(): Promise<ReadLog> {
    this.#log?.close();
    this.#text = undefined;
    this.#results = [];
    this.#count = 0;
    this.#chars = 0;
    const [{ ReadLog }, { cacheHome, stateHome }] = await Promise.all([
      import("../../fs/read_log.ts"),
      import("../../paths/mod.ts"),
    ]);
    // poly's own stores change with every run; what they hold is keyed by what the log records.
    this.#log = ReadLog.open({ exclude: [cacheHome(), stateHome()] });
    return this.#log;
  }

  /**
   * Notes one result as the run passes it on. Past about 64 MiB of results as
   * JSON (a run with a million findings) they are let go and the run is not
   * kept: a run's memory stays bounded by its window, not by its report.
   */
  result(result: FileResult | Uint8Array): void {
    if (!this.#log) return;
    this.#chars += result instanceof Uint8Array
      ? result.length
      : 100 + result.path.length + 300 * (result.diagnostics?.length ?? 0) + (result.diff?.length ?? 0);
    if (this.#chars > this.#budget) {
      this.#results = [];
      this.#text = undefined;
      this.#log.refuse("the report is too large to keep");
      return;
    }
    if (this.#text) this.#count++;
    else if (!(result instanceof Uint8Array)) this.#results.push(result);
    else this.#log.refuse("a kept result's text came without a JSON writer");
  }

  /**
   * For a JSON run (on a miss): what its report writer writes for the results goes to the returned function, and is
   * kept in place of the results themselves, so a replay writes it as it is (lib/report/stream.ts `resume`).
   */
  keepText(): ((text: string | Uint8Array) => void) | undefined {
    if (!this.#log) return undefined;
    const text: (string | Uint8Array)[] = this.#text = [];
    return (part) => {
      if (this.#text === text) text.push(part);
    };
  }

  /** Stops logging (idempotent; a run that failed midway is not kept). */
  close(): void {
    this.#log?.close();
  }

  /**
   * Stops logging and keeps the run for the next process when it can be
   * replayed, with the parsed `command` a replay prints as; why not, when it was not.
   * With `writer` (given only when a replay's report will be this one), a JSON run also keeps the text its `finish`
   * would write for the report as replayed (every file a hit; lib/cache/replay.ts `tail`).
   */
  async keep(
    command: Replay["command"],
    report: Report,
    noWorkspaceJobs: boolean,
    writer?: ReportWriter,
  ): Promise<string | undefined> {
    const log = this.#log;
    if (!log) return "no log was kept";
    log.close();
    const kept = span("replay keep");
    const { keepReplay } = await import("../../cache/replay.ts");
    const why = await keepReplay(this.key, log, {
      command,
      results: this.#results,
      report,
      ...(this.#text ? { streamed: { text: this.#text, count: this.#count } } : {}),
      ...(noWorkspaceJobs ? { noWorkspaceJobs } : {}),
    }, writer?.tail ? (view) => writer.tail!(view) : undefined);
    kept();
    if (why) span(`replay not kept: ${why}`)();
    return why;
  }
}

/**
 * Runs a parsed `poly lint` or `poly fmt` with its `--shard` parsed and the
 * replay its run may be kept for ({@link RunReplay.forRun}); the replay's log of
 * reads is closed however the body ends, so a run that fails midway (in
 * process) leaves none open.
 */
export async function withReplay(
  mode: string,
  value: RunOptionValues,
  io: CommandIO,
  body: (shard: RunRequest["shard"], replay: RunReplay | undefined) => Promise<number>,
): Promise<number> {
  const shard = await shardOption(value.shard);
  const replay = await RunReplay.forRun(mode, value, io);
  try {
    return await body(shard, replay);
  } finally {
    replay?.close();
  }
}

/** `poly lint` once its shard and replay are known (see {@link withReplay}). */
export async function lintRun(
  value: LintValue,
  io: CommandIO,
  shard: RunRequest["shard"],
  replay: RunReplay | undefined,
): Promise<number> {
  const hit = replay?.hit;
  const loaded = span("load run modules");
  const [run, { reportWriter }, { exitCodeFor }] = await Promise.all([
    hit ? undefined : import("../../run/mod.ts"),
    import("../../report/encode.ts"),
    import("../../report/exit.ts"),
  ]);
  loaded();
  const { reads, brought } = hit ? {} : await logOrBringUpToDate("lint", run!, value, io, replay);
  // The whole-project phase (cargo clippy, go vet, [workspace.jobs]) runs beside the per-file run (on shard 1),
  // unless a replayed run's phase had no job.
  const kept = hit ?? (brought ? replay?.stale : undefined);
  const phased = !value.noWorkspace && (!shard || shard.index === 1) && !kept?.noWorkspaceJobs;
  const status = phased && value.format === "human" && io.stderrIsTerminal
    ? import("../../workspace/mod.ts").then((m) => new m.WorkspaceStatus())
    : undefined;
  const phase = phased
    ? import("../../workspace/mod.ts").then(async (m) =>
      m.runWorkspacePhase({
        cwd: io.cwd,
        config: value.config,
        fix: value.fix,
        jobs: value.jobs,
        noCache: value.noCache,
        ...(io.signal ? { signal: io.signal } : {}),
        ...(status ? { onJob: (await status).onJob } : {}),
      })
    )
    : undefined;
  const color = value.format === "human" && colorMode(value.color, io.stdoutIsTerminal);
  // The report is written as the files are done (JSON and annotations stream; see lib/report/stream.ts).
  const writer = reportWriter(
    value.format,
    {
      color,
      cwd: io.cwd,
      statistics: value.statistics,
      maxDiagnostics: value.maxDiagnostics,
    },
    { kind: "lint", mode: value.fix ? "fix" : "check" },
    (text) => writeTo(io, "stdout", text),
    value.format === "json" ? replay?.keepText() : undefined,
  );
  const ran = span("run");
  let report: Report;
  if (hit) {
    await replayResults(hit, writer);
    report = hit.report;
  } else if (brought) {
    report = await writeBrought(brought, replay!, writer);
  } else {
    report = await run!.runLint(runRequestOf(value, io, shard, {
      fix: value.fix,
      onProgress: value.format === "human" ? progressReporter(io, "lint") : undefined,
      onResult: (result) => {
        replay?.result(result);
        return writer.result(result);
      },
      ...(reads ? { reads } : {}),
    }));
  }
  ran();
  // Once the files are done, a phase still running says what it runs, on a terminal.
  const stop = phase && status ? (await status).show((text) => io.stderr(text)) : undefined;
  const workspace = await phase;
  await stop?.();
  // A replay runs no whole-project phase unless this run's had jobs: only then does its report differ from this one.
  const jobs = workspace?.outcome.jobs.length ?? 0;
  if (!hit) {
    await replay?.keep(
      { kind: "lint", value },
      report,
      jobs === 0 && (workspace !== undefined || kept?.noWorkspaceJobs === true),
      jobs === 0 ? writer : undefined,
    );
  }
  if (workspace && workspace.outcome.jobs.length > 0) {
    report.workspace = workspace.outcome;
    // Its pass/fail goes to stderr, so stdout stays one valid document.
    await io.stderr(workspace.summary);
  }
  const reported = span("report");
  await finish(writer, report, hit);
  reported();
  // Remote-cache uploads start once the report is out.
  if (!hit) await settleRemote(io);
  return exitCodeFor(report);
}

/** A kept run brought up to date ({@link upToDate}). */
type Brought = { results: (FileResult | Uint8Array)[]; report: Report };

/**
 * On a replay miss, the log of the run's reads, and a kept run whose own files changed brought up to date
 * ({@link upToDate}); when that cannot be (a file no longer checks cleanly, say, or a kept file does not read back as
 * written: never a failed run), the whole run's log, under a log of its own.
 */
async function logOrBringUpToDate(
  kind: "lint" | "fmt",
  run: typeof import("../../run/mod.ts"),
  value: RunOptionValues,
  io: CommandIO,
  replay: RunReplay | undefined,
): Promise<{ reads?: ReadLog; brought?: Brought }> {
  const reads = await replay?.start();
  const stale = replay?.stale;
  if (!stale || !reads) return { reads };
  const brought = await upToDate(kind, run, value, io, stale, reads).catch(() => undefined);
  return brought ? { reads, brought } : { reads: await replay!.start() };
}

/** Writes a brought-up-to-date run's results (a JSON run's kept ones as their bytes), noting each for its keep. */
async function writeBrought(brought: Brought, replay: RunReplay, writer: ReportWriter): Promise<Report> {
  for (const result of brought.results) {
    replay.result(result);
    await (result instanceof Uint8Array ? writer.encoded!(result) : writer.result(result));
  }
  return brought.report;
}

/**
 * A kept `poly lint` or `poly fmt --check` run (`stale`, lib/cache/replay.ts) brought up to date: its changed files
 * checked again under `reads` (a run of those paths alone, as this command line runs them), and its results with
 * theirs in place — as objects, or for a JSON run as the text it wrote (lib/report/stream.ts `keptResults`) — with the
 * report's counts moved by the difference. Undefined (nothing written) when a changed file did not check as it did
 * before and after (skipped, errored: the run's counts would move by more than its results say), its configuration is
 * not one the kept run names, a `poly fmt` report's diffs would not all fit its budget (lib/report/diff.ts
 * `boundReportDiffs`: which diffs a whole run leaves out depends on every file's), or the run met an error: the
 * command then runs whole.
 */
async function upToDate(
  kind: "lint" | "fmt",
  run: typeof import("../../run/mod.ts"),
  value: RunOptionValues,
  io: CommandIO,
  stale: Replay<KeptText>,
  reads: ReadLog,
): Promise<Brought | undefined> {
  const brought = span("replay brought up to date");
  const [
    { relativeInside },
    { countDiagnostics, runSummary },
    { keptResults },
    { concatBytes },
    { compareText },
    diffs,
  ] = await Promise.all([
    import("../../paths/inside.ts"),
    import("../../report/summary.ts"),
    import("../../report/stream.ts"),
    import("../../io/bytes.ts"),
    import("../../report/sort.ts"),
    kind === "fmt" ? import("../../report/diff.ts") : undefined,
  ]);
  const { changed, lines, files } = stale.stale!;
  const inside = changed.map((path) => relativeInside(io.cwd, path));
  const closeText = () => stale.streamed?.text.close();
  if (inside.some((path) => path === undefined)) return void closeText();
  const paths = inside as string[];
  const fresh: FileResult[] = [];
  const request = runRequestOf({ ...value, paths }, io, undefined, {
    fix: false,
    onResult: (result) => void fresh.push(result),
    reads,
  });
  const sub = kind === "lint" ? await run.runLint(request) : await run.runFmt(request);
  const { summary } = sub;
  if (sub.errors.length > 0 || summary.errored > 0) return void closeText();
  // The kept report's configurations and skips: in its kept tail (a JSON run's), else in the report itself.
  let report = stale.report;
  if (stale.tail) {
    const tail = new TextDecoder().decode(stale.tail);
    const rest = JSON.parse(stale.streamed && stale.streamed.count > 0 ? `{"results": [${tail}` : tail) as Report;
    report = { ...report, skipped: rest.skipped, configs: rest.configs };
  }
  // Each fresh result under the kept run's number for its configuration (a run of a few paths numbers its own).
  for (const result of fresh) {
    const ref = sub.configs[result.config ?? 0];
    const index = report.configs.findIndex((c) => c.hash === ref?.hash);
    if (index < 0) return void closeText();
    if (index > 0) result.config = index;
    else delete result.config;
  }
  const kept = keptInOrder(stale, keptResults, concatBytes);
  if (!kept) return;
  // A changed file checks as it did when it is skipped by the same engines for the same reasons before and after (an
  // ESLint not installed here, say) and errors in neither: then the run's files checked, skipped and errored are the
  // same, and only its diagnostics (and, formatting, the files that would change) move.
  const freshOf = new Map(fresh.map((r) => [r.path, r]));
  const again = new Set(paths);
  const before: FileResult[] = [];
  const results: (FileResult | Uint8Array)[] = [];
  const ordered = [...fresh].sort((a, b) => compareText(a.path, b.path));
  let next = 0;
  const decoder = new TextDecoder();
  for (const { path, result } of kept) {
    while (next < ordered.length && ordered[next].path < path) results.push(ordered[next++]);
    if (!again.has(path)) results.push(result);
    else before.push(result instanceof Uint8Array ? JSON.parse(decoder.decode(result)) as FileResult : result);
  }
  results.push(...ordered.slice(next));
  const keptOf = new Map(before.map((r) => [r.path, r]));
  for (const path of paths) {
    const [was, now] = [keptOf.get(path), freshOf.get(path)];
    if (was?.skipped !== now?.skipped || was?.error !== undefined || now?.error !== undefined) return;
  }
  if (diffs && !diffs.diffsFit(results, decoder)) return;
  // Counts: the same files checked, skipped and errored; the diagnostics and the files that would change moved by the
  // changed files' difference; the result cache's hits and misses as a replay counts them (every kept file's a hit),
  // the changed files' as found now.
  const [was, now] = [countDiagnostics(before), countDiagnostics(fresh)];
  const counted = report.summary;
  const diagnostics = { ...(counted.diagnostics ?? { error: 0, warning: 0, info: 0, hint: 0 }) };
  for (const s of Object.keys(diagnostics) as (keyof typeof diagnostics)[]) diagnostics[s] += now[s] - was[s];
  const changes = (list: FileResult[]) => list.filter((r) => r.changed).length;
  const cache = counted.cache && summary.cache
    ? { hits: counted.cache.hits - summary.cache.misses, misses: summary.cache.misses }
    : counted.cache;
  const moved = { ...counted, fixed: 0, changed: (counted.changed ?? 0) + changes(fresh) - changes(before) };
  report = { ...report, results: [], summary: runSummary(kind, false, moved, diagnostics, cache) };
  reads.adopt(lines, files, new Set(changed));
  brought();
  return { results, report };
}

/**
 * A kept run's results in report order with their paths: a JSON run's as the UTF-8 bytes it wrote (its kept text read
 * whole; undefined when it does not split into as many results as it holds), else as objects.
 */
function keptInOrder(
  stale: Replay<KeptText>,
  keptResults: typeof import("../../report/stream.ts").keptResults,
  concatBytes: typeof import("../../io/bytes.ts").concatBytes,
): { path: string; result: FileResult | Uint8Array }[] | undefined {
  const text = stale.streamed?.text;
  if (text === undefined) return stale.results.map((result) => ({ path: result.path, result }));
  // Each piece is valid only until the next is read (one buffer): copied as it comes.
  const parts = keptResults(concatBytes(Array.from(text, (p) => p.slice())));
  if (parts.length !== stale.streamed!.count) return undefined;
  return parts.map(({ path, bytes }) => ({ path, result: bytes }));
}

/** The rest of the report: a replayed run's kept tail as it is, when it has one (and nothing was added since). */
async function finish(writer: ReportWriter, report: Report, hit: Replay | undefined): Promise<void> {
  if (hit?.tail && writer.end && report.workspace === undefined) await writer.end(hit.tail);
  else await writer.finish(report);
}

/** A replayed run's results, written as the run wrote them (its JSON text as it is, when it kept that). */
async function replayResults(hit: Replay, writer: ReportWriter): Promise<void> {
  if (hit.streamed && writer.resume) await writer.resume(hit.streamed.text, hit.streamed.count);
  else {
    if (typeof hit.streamed?.text === "object") hit.streamed.text.close();
    for (const result of hit.results) await writer.result(result);
  }
}

/** `poly fmt` once its shard and replay are known (see {@link withReplay}). */
export async function fmtRun(
  value: FmtValue,
  io: CommandIO,
  shard: RunRequest["shard"],
  replay: RunReplay | undefined,
): Promise<number> {
  const hit = replay?.hit;
  const [run, { reportWriter }, { exitCodeFor }] = await Promise.all([
    hit ? undefined : import("../../run/mod.ts"),
    import("../../report/encode.ts"),
    import("../../report/exit.ts"),
  ]);
  const { reads, brought } = hit ? {} : await logOrBringUpToDate("fmt", run!, value, io, replay);
  const color = value.format === "human" && colorMode(value.color, io.stdoutIsTerminal);
  // The report is written as the files are done (not with --diff, which prints the diffs alone).
  const writer = value.m.mode === "diff" ? undefined : reportWriter(
    value.format,
    { color, cwd: io.cwd },
    { kind: "fmt", mode: value.m.mode === "fix" ? "fix" : "check" },
    (text) => writeTo(io, "stdout", text),
    value.format === "json" ? replay?.keepText() : undefined,
  );
  let report: Report;
  if (hit) {
    if (writer) await replayResults(hit, writer);
    report = hit.report;
  } else {
    // Only a check that writes its report is brought up to date (lib/cache/replay.ts).
    report = brought
      ? await writeBrought(brought, replay!, writer!)
      : await run!.runFmt(runRequestOf(value, io, shard, {
        fix: value.m.mode === "fix",
        onProgress: value.format === "human" && value.m.mode !== "diff" ? progressReporter(io, "fmt") : undefined,
        ...(writer
          ? {
            onResult: (result: FileResult) => {
              replay?.result(result);
              return writer.result(result);
            },
          }
          : {}),
        ...(reads ? { reads } : {}),
      }));
    await replay?.keep({ kind: "fmt", value }, report, false, writer);
  }
  if (value.m.mode === "diff") {
    await io.stdout(report.results.filter((r) => r.changed && r.diff).map((r) => r.diff).join(""));
    for (const e of report.errors) await io.stderr(`${e.path}: error: ${e.message}\n`);
    const changed = report.summary.changed ?? 0;
    await io.stderr(`${changed} file${changed === 1 ? "" : "s"} would be reformatted\n`);
  } else await finish(writer!, report, hit);
  // Remote-cache uploads start once the report is out.
  if (!hit) await settleRemote(io);
  return exitCodeFor(report);
}
