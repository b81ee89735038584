/**
 * Options shared by `poly lint` and `poly fmt`, and the code that turns a parsed
 * command into a run, a document on stdout and an exit code.
 *
 * @module
 */
import {
  argument,
  choice,
  constant,
  integer,
  message,
  multiple,
  object,
  option,
  optional,
  string,
  withDefault,
} from "../_optique.ts";
import { pathValue } from "../_path.ts";
import type { CommandIO } from "../command.ts";
import { COLOR_MODES, type ColorMode, colorMode } from "../color.ts";
import { UsageError } from "../../errors/mod.ts";
import { formatOption } from "../output.ts";
import type { REPORT_FORMATS as ENCODED_FORMATS } from "../../report/encode.ts";
import type { RunReads, RunRequest } from "../../run/types.ts";
import type { FileResult, Report } from "../../report/schema.ts";
import type { Replay } from "../../cache/replay.ts";
import type { ReadLog } from "../../fs/read_log.ts";
import { span } from "../../debug/timing.ts";

/**
 * Report formats the CLI can print: exactly the encoders' list (lib/report/encode.ts),
 * which `satisfies` holds at compile time; imported as a type, so parsing loads no encoder.
 */
export const REPORT_FORMATS = ["human", "json", "toon", "sarif", "github"] as const satisfies typeof ENCODED_FORMATS;

/** The options every run command takes. */
export function runOptions<K extends string>(cmd: K) {
  return object({
    cmd: constant(cmd),
    paths: multiple(argument(pathValue("PATH"), { description: message`Files or directories (default: .)` })),
    format: formatOption(REPORT_FORMATS),
    exclude: multiple(
      option("--exclude", string({ metavar: "GLOB" }), {
        description: message`Gitignore-style exclude, added to [discovery] exclude (repeatable)`,
      }),
    ),
    config: optional(option("--config", pathValue("PATH"), { description: message`Use this poly.toml` })),
    noCache: option("--no-cache", { description: message`Bypass the result cache` }),
    jobs: optional(
      option("--jobs", integer({ min: 1, metavar: "N" }), {
        description: message`Parallel workers (default: CPU count)`,
      }),
    ),
    color: withDefault(
      option("--color", choice(COLOR_MODES, { metavar: "WHEN" }), {
        description:
          message`When to colour the human report (auto: on a terminal; FORCE_COLOR and NO_COLOR decide first)`,
      }),
      "auto" as const,
    ),
    shard: optional(
      option("--shard", string({ metavar: "I/N" }), {
        description: message`Only shard I of N (by path, balanced by size; run-wide checks on shard 1)`,
      }),
    ),
  });
}

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

/** Parsed shared options. */
export interface RunOptionValues {
  paths: readonly string[];
  format: typeof REPORT_FORMATS[number];
  exclude: readonly string[];
  config?: string;
  noCache: boolean;
  jobs?: number;
  color: ColorMode;
  /** `--shard I/N` as given. */
  shard?: string;
}

/**
 * The run request `poly lint` and `poly fmt` make from their shared options; `own` is what differs (whether it
 * fixes, the progress line, where each file's result goes).
 */
export function runRequestOf(
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
    ...(io.memo ? { memo: io.memo } : {}),
    ...own,
  };
}

/** Waits (bounded) for the remote-cache uploads a one-shot process started; a resident one goes on. */
export async function settleRemote(io: CommandIO): Promise<void> {
  if (!io.memo) await (await import("../../cache/remote/mod.ts")).settleRemoteWrites();
}

/** Whether the human report is coloured: `--color`, then FORCE_COLOR / NO_COLOR, then the terminal. */
export function useColor(mode: ColorMode, isTerminal: boolean): boolean {
  return colorMode(mode, isTerminal);
}

/** A progress line on stderr for long runs on a terminal; never on a pipe. */
export function progressReporter(io: CommandIO, label: string): ((done: number, total: number) => void) | undefined {
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

/**
 * A one-shot check run's replay (lib/cache/replay.ts): the run kept by an
 * earlier process with the same command, arguments, cwd, environment and code,
 * when nothing it read has changed (`hit`); otherwise the log that lets this
 * run be kept for the next one.
 */
export class RunReplay {
  readonly #key: string;
  readonly hit?: Replay;
  #log?: ReadLog;
  #results: FileResult[] = [];
  /** About how many characters of JSON the results so far make (a run's memory stays bounded by its window). */
  #chars = 0;

  /** About how many characters of results a run collects before it gives up being kept (replay.ts `MAX_CHARS`). */
  readonly #budget: number;

  private constructor(key: string, hit: Replay | undefined, budget: number) {
    this.#key = key;
    this.#budget = budget;
    if (hit) this.hit = hit;
  }

  /**
   * Looks the run up; undefined for a run that is never replayed: one that
   * writes (`fix`), `--no-cache`, or a run inside a resident process (`poly mcp`,
   * `poly daemon`: its own memo knows more).
   */
  static async open(
    kind: "lint" | "fmt",
    mode: string,
    value: RunOptionValues,
    io: CommandIO,
    shard: RunRequest["shard"],
  ): Promise<RunReplay | undefined> {
    if (mode === "fix" || value.noCache || io.memo) return undefined;
    const looked = span("replay lookup");
    const [{ findReplay, MAX_CHARS, replayKey }, { relevantEnv }] = await Promise.all([
      import("../../cache/replay.ts"),
      import("../../daemon/wire.ts"),
    ]);
    const key = await replayKey({
      kind,
      mode,
      cwd: io.cwd,
      paths: value.paths,
      exclude: value.exclude,
      config: value.config ?? null,
      shard: shard ?? null,
      env: relevantEnv(),
    });
    const replay = new RunReplay(key, findReplay(key), MAX_CHARS);
    looked();
    if (replay.hit) span("replay hit")();
    return replay;
  }

  /** Starts logging what the run reads (on a miss); what the run itself adds goes to the returned log. */
  async start(): Promise<RunReads> {
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
  result(result: FileResult): void {
    if (!this.#log) return;
    this.#chars += 100 + result.path.length + 300 * (result.diagnostics?.length ?? 0) + (result.diff?.length ?? 0);
    if (this.#chars > this.#budget) {
      this.#results = [];
      this.#log.refuse("the report is too large to keep");
      return;
    }
    this.#results.push(result);
  }

  /** Stops logging (idempotent; a run that failed midway is not kept). */
  close(): void {
    this.#log?.close();
  }

  /** Stops logging and keeps the run for the next process when it can be replayed; why not, when it was not. */
  async keep(report: Report, noWorkspaceJobs: boolean): Promise<string | undefined> {
    const log = this.#log;
    if (!log) return "no log was kept";
    log.close();
    const kept = span("replay keep");
    const { keepReplay } = await import("../../cache/replay.ts");
    const why = await keepReplay(this.#key, log, {
      results: this.#results,
      report,
      ...(noWorkspaceJobs ? { noWorkspaceJobs } : {}),
    });
    kept();
    if (why) span(`replay not kept: ${why}`)();
    return why;
  }
}

/**
 * Runs a `poly lint` or `poly fmt` body with its `--shard` parsed and its replay
 * looked up ({@link RunReplay}); the replay's log of reads is closed however the
 * body ends, so a run that fails midway (in process) leaves none open.
 */
export async function withReplay(
  kind: "lint" | "fmt",
  mode: string,
  value: RunOptionValues,
  io: CommandIO,
  body: (shard: RunRequest["shard"], replay: RunReplay | undefined) => Promise<number>,
): Promise<number> {
  const shard = await shardOption(value.shard);
  // A run an earlier process kept, when nothing it read has changed: no configuration, discovery or engine.
  const replay = await RunReplay.open(kind, mode, value, io, shard);
  try {
    return await body(shard, replay);
  } finally {
    replay?.close();
  }
}
