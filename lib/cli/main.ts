/**
 * The poly command line: parse argv, dispatch to a command, return its exit
 * code. `main.ts` runs it for the process; a `poly daemon` runs it for each
 * client. Every command lives in `lib/cli/commands/`.
 *
 * @module
 */
import type { CommandIO, CommandSpec } from "./command.ts";
import { versionLine } from "../identity/build.ts";
import { describeError, ExitCode, OutputClosed, PolyError } from "../errors/mod.ts";
import { commandLoader } from "./commands/table.ts";
import { mark, span } from "../debug/timing.ts";

const encoder = new TextEncoder();

/** Writes all of `bytes`; a reader that went away (EPIPE) becomes {@link OutputClosed}. */
async function writeAll(stream: typeof Deno.stdout | typeof Deno.stderr, bytes: Uint8Array): Promise<void> {
  let written = 0;
  try {
    while (written < bytes.length) written += await stream.write(bytes.subarray(written));
  } catch (error) {
    throw error instanceof Deno.errors.BrokenPipe ? new OutputClosed({ cause: error }) : error;
  }
}

/** The real process's streams. */
export function processIO(): CommandIO {
  return {
    stdout: (text) => writeAll(Deno.stdout, encoder.encode(text)),
    stderr: (text) => writeAll(Deno.stderr, encoder.encode(text)),
    writeBytes: (stream, bytes) => writeAll(stream === "stdout" ? Deno.stdout : Deno.stderr, bytes),
    stdoutIsTerminal: Deno.stdout.isTerminal(),
    stderrIsTerminal: Deno.stderr.isTerminal(),
    cwd: Deno.cwd(),
  };
}

/** How {@link main} runs beside its command. */
export interface MainOptions {
  /** The process's own run: an engine it will load may be warmed on another thread meanwhile (lib/engines/warm.ts). */
  warm?: boolean;
}

/** Parses `args` and runs the chosen command; returns the exit code. */
export async function main(args: string[], io: CommandIO = processIO(), options: MainOptions = {}): Promise<number> {
  mark("main");
  if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
    await io.stdout(versionLine() + "\n");
    return ExitCode.Clean;
  }
  if (args.length === 1 && args[0] === "mcp") {
    // A bare `poly mcp` is how MCP hosts start poly, and they wait for `initialize`: it means
    // exactly what the parser would make of it (MCP_DEFAULTS; tests/cli/lazy_test.ts checks
    // that), so it skips loading the parser and the command list (~0.2 s).
    return await runCommand(async () => {
      const { MCP_DEFAULTS, runMcp } = await import("./commands/_mcp_run.ts");
      return await runMcp(MCP_DEFAULTS, io);
    }, io);
  }
  // In a repository a `poly daemon` watches, `poly lint` and `poly fmt` run there (lib/daemon/client.ts),
  // unless it declines; then here. Inside the daemon (io.memo set) they run here.
  if ((args[0] === "lint" || args[0] === "fmt") && !io.memo) {
    const asked = span("daemon client");
    const { viaDaemon } = await import("../daemon/client.ts");
    const code = await viaDaemon(args, io);
    asked();
    if (code !== undefined) return code;
    // A run an earlier process kept under the same command line, when nothing it read has changed, is
    // printed without loading the parser, configuration, discovery or any engine (lib/cache/replay.ts);
    // on a miss the command keeps its run under the key looked up.
    const { RunReplay } = await import("./commands/_check_run.ts");
    const replay = await RunReplay.lookup(args, io);
    // A kept `poly lint` run whose only changes are some of its own files is brought up to date the same way.
    if (replay?.stale && options.warm) {
      (await import("../engines/warm.ts")).warmForChanged(args[0], replay.stale.stale!.changed);
    }
    if (replay?.hit || replay?.stale) return await runCommand(() => replay.play(io), io);
    if (replay) io = { ...io, replayKey: replay.key };
  }
  // A command parses with its own parser and optique's core alone (the fast path: what agents,
  // hooks and the plugin run load only their command); anything that does not parse there
  // (--help, a usage error, completion) goes through the full command line below.
  const parsed = span("command line");
  const fast = await fastPath(args);
  parsed();
  if (fast) return await runCommand(() => fast.spec.run(fast.value, io), io);
  // Loaded only now: with `lazy-dynamic-imports` (deno.json) `deno run` walks an import()'s
  // module graph when it runs, so `poly --version` pays for none of it.
  const [
    { map, message, or, text },
    { colorMode, helpLayout, run, usageErrorText, EXAMPLES, examplesMessage, TOP_EXAMPLES },
    { COMMANDS },
  ] = await Promise.all([
    import("./_optique.ts"),
    import("./_optique_run.ts"),
    import("./commands/mod.ts"),
  ]);
  const parser = or(...COMMANDS.map((spec) => map(spec.parser, (value) => ({ spec, value }))));
  // A bare `poly` shows the help page (as cargo and git do), exit 0.
  const argv = args.length === 0 ? ["--help"] : args;
  const topLevel = argv.length === 1 && ["--help", "-h", "help"].includes(argv[0]);
  // Examples go on help pages only: those of the command a page is about.
  const named = topLevel ? undefined : EXAMPLES[argv[0] === "help" ? argv[1] ?? "" : argv[0]];
  // optique writes help, completion scripts and errors through these; they reach io after it returns.
  const out: string[] = [];
  const err: string[] = [];
  let parseError: Parameters<typeof usageErrorText>[1]["error"] | undefined;
  let chosen: { spec: CommandSpec; value: unknown };
  try {
    chosen = run(parser, {
      programName: "poly",
      args: argv,
      help: { option: { names: ["--help", "-h"] }, command: true },
      completion: "command",
      errorExitCode: ExitCode.Incomplete,
      showChoices: true,
      // The top-level page lists each command once (`poly config` rather than its three
      // subcommands) under one usage line; `poly COMMAND --help` shows a command's own.
      commandList: "top-level",
      usageLine: [
        { type: "argument", metavar: "COMMAND" },
        { type: "multiple", terms: [{ type: "argument", metavar: "ARGS" }], min: 0 },
      ],
      showDefault: { prefix: " (default: ", suffix: ")" },
      // Help in colour as `--color auto` decides: FORCE_COLOR, NO_COLOR, then the terminal.
      colors: colorMode("auto", io.stdoutIsTerminal),
      maxWidth: io.stdoutIsTerminal ? terminalWidth() : undefined,
      aboveError: "none",
      stdout: (text) => void out.push(text + "\n"),
      stderr: (text) => void err.push(text + "\n"),
      examples: topLevel ? examplesMessage(TOP_EXAMPLES) : undefined,
      // A command's page ends with its examples (optique shows `examples` on the top-level page only).
      footer: topLevel ? [text(EXIT_CODES)] : named ? examplesMessage(named, "Examples:") : undefined,
      brief: topLevel
        ? message`poly: lint and format every language in a repository, delegate to agent CLIs, and reach MCP tools through reviewed grants.`
        : undefined,
      onExit: (code: number): never => {
        throw new ExitSignal(code);
      },
    }) as { spec: CommandSpec; value: unknown };
  } catch (error) {
    if (!(error instanceof ExitSignal)) throw error;
    if (error.code === ExitCode.Incomplete) {
      const failed = (await import("./_optique.ts")).parse(parser, argv);
      if (!failed.success) parseError = failed.error;
    }
    // Help (not a completion script, which is not a page) in one layout for every command.
    const page = out.join("");
    if (page !== "") await io.stdout(argv[0] === "completion" ? page : helpLayout(page));
    if (parseError) {
      const width = io.stderrIsTerminal ? terminalWidth() ?? 80 : 80;
      await io.stderr(usageErrorText(argv, { parser, commands: COMMANDS, error: parseError, width }));
    } else if (err.length > 0) await io.stderr(err.join(""));
    return error.code;
  }
  return await runCommand(() => chosen.spec.run(chosen.value, io), io);
}

/**
 * The command and value for `poly WORD ...` when the arguments parse with that
 * command's parser alone — exactly what the full parser would make of them
 * (tests/cli/fast_path_test.ts) — else undefined. Only the named command's module
 * is loaded (lib/cli/commands/table.ts), not the whole command list.
 */
export async function fastPath(args: string[]): Promise<{ spec: CommandSpec; value: unknown } | undefined> {
  const load = commandLoader(args[0]);
  if (!load || args.some((a) => a === "--help" || a === "-h" || a.startsWith("--completion"))) return undefined;
  const [{ parse }, spec] = await Promise.all([import("./_optique.ts"), load()]);
  const parsed = parse(spec.parser, args);
  return parsed.success ? { spec, value: parsed.value } : undefined;
}

/** Runs a parsed command; a failure becomes its message on stderr and its exit code. */
async function runCommand(command: () => Promise<number>, io: CommandIO): Promise<number> {
  try {
    return await command();
  } catch (error) {
    if (error instanceof ExitSignal) return error.code;
    if (error instanceof OutputClosed) return ExitCode.Clean;
    const code = error instanceof PolyError ? error.exitCode : ExitCode.Incomplete;
    const text = error instanceof PolyError
      ? describeError(error)
      : `poly: internal error: ${describeError(error)}\n${error instanceof Error ? error.stack ?? "" : ""}`;
    // A closed stderr leaves nowhere to say it: the exit code still does.
    await io.stderr(`error: ${text}\n`).catch(() => {});
    return code;
  }
}

const EXIT_CODES =
  "poly --version prints the version, build id and channel. Exit codes: 0 clean, 1 findings or drift, 2 the run verified less than it claims (or a usage error).";

/** The terminal's width, when it can be read. */
function terminalWidth(): number | undefined {
  try {
    return Deno.consoleSize().columns || undefined;
  } catch {
    return undefined;
  }
}

/** Thrown by the parser on --help, --version of a command or a usage error: the exit code to return. */
export class ExitSignal extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}
