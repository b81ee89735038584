/**
 * Runs one engine for one tool call: resolves its binary, builds its argument
 * vector, wraps it in the sandbox, runs it with stdin closed and a timeout,
 * parses its answer, classifies its failure, and records the run (health) and
 * the session in the store.
 *
 * @module
 */
import { type Needs, requireEngine } from "./availability.ts";
import { type FleetContext, realWorkingDir } from "./context.ts";
import { adapter } from "./engines/mod.ts";
import { FleetError } from "./errors.ts";
import { runProcess } from "./process.ts";
import { TERSE_STYLE } from "./prompts.ts";
import { quotaError, type QuotaSurface, rateLimitError } from "./quota.ts";
import { bwrapArgs, planSandbox, resolveBwrap } from "./sandbox.ts";
import { workspaceHoldsHome } from "../sandbox/mod.ts";
import { scrub } from "./scrub.ts";
import { MAX_OUTPUT_BYTES } from "./defaults.ts";
import { type EngineName, formatHandle, type Persona } from "./types.ts";

/** One engine run. */
export interface EngineRun {
  tool: string;
  /** Shapes the quota message (which parameter to suggest). */
  surface: QuotaSurface;
  engine: EngineName;
  model?: string;
  effort?: string;
  level?: number;
  prompt: string;
  /** The caller's own words, shown in the session list (default: the prompt; never poly's wrapping). */
  preview?: string;
  cwd: string;
  readOnly: boolean;
  web?: boolean;
  image?: boolean;
  images?: string[];
  persona?: Persona;
  /** The engine's own session id to resume, and the handle it came from. */
  resume?: { id: string; handle: string };
  /** Engines the quota message may suggest (fast_delegate: its cascade). */
  among?: readonly EngineName[];
}

/** A successful run. */
export interface EngineResult {
  engine: EngineName;
  model?: string;
  effort?: string;
  /** The answer: scrubbed, and cut to the answer limit. */
  text: string;
  /** The engine's session id and the `engine:id` handle. */
  sessionId?: string;
  handle?: string;
  /** Characters of raw engine output (what the caller was spared). */
  rawChars: number;
  truncated: boolean;
  latencyMs: number;
}

function tail(text: string, max: number): string {
  const t = text.trim();
  return t.length > max ? `…${t.slice(-max)}` : t;
}

/** Cuts `text` to `max` characters with a note saying how much was left out. */
export function capAnswer(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  return {
    text: `${text.slice(0, max)}\n\n[poly: answer cut at ${max} of ${text.length} characters]`,
    truncated: true,
  };
}

/** Runs one engine. Throws a FleetError for every failure; records the outcome either way. */
export async function runEngine(ctx: FleetContext, input: EngineRun): Promise<EngineResult> {
  // The engine works in the folder's real path, checked against the root's after resolving links.
  const cwd = await realWorkingDir(ctx.root, input.cwd);
  // cursor-agent needs a model: POLY_MODEL / [fleet] cursor_model when the call names none.
  const run = {
    ...input,
    cwd,
    ...(input.engine === "cursor" && !input.model ? { model: ctx.settings.cursorModel } : {}),
  };
  const a = adapter(run.engine);
  if (run.engine === "opencode") a.checkModel?.(run.model);
  const needs: Needs = { readOnly: run.readOnly, web: run.web, image: run.image };
  const binary = await requireEngine(ctx, run.engine, needs, run.tool);
  const { settings } = ctx;
  const system = [run.persona?.prompt, TERSE_STYLE].filter(Boolean).join("\n\n");
  const engineArgs = a.buildArgs({
    prompt: run.prompt,
    model: run.model,
    effort: run.effort,
    resume: run.resume?.id,
    readOnly: run.readOnly,
    web: run.web ?? false,
    images: run.images,
    system: a.capabilities.systemPrompt ? system : run.persona?.prompt,
    sandboxed: settings.sandbox,
  });

  let cmd: string;
  let args: string[];
  let env: Record<string, string> | undefined;
  let clearEnv = false;
  if (settings.sandbox) {
    if (workspaceHoldsHome(run.cwd, settings.home)) {
      // The workspace is bound last, over the empty HOME: a workspace holding HOME would expose all of it.
      throw new FleetError(
        "invalid_request",
        `The working directory ${run.cwd} contains the home directory ${settings.home}: binding it into the ` +
          `sandbox would expose every file in the home. Run poly from a project directory instead`,
      );
    }
    const bwrap = await resolveBwrap(settings.bwrapBin, ctx.env("PATH"));
    const spec = await planSandbox({
      adapter: a,
      binary,
      workspace: run.cwd,
      readOnly: run.readOnly,
      home: settings.home,
      toolchains: settings.toolchains,
      extra: settings.sandboxExtra,
      env: ctx.env,
    });
    cmd = bwrap;
    args = [...bwrapArgs(spec), "--", binary.path, ...engineArgs];
    env = { PATH: ctx.env("PATH") ?? "/usr/bin:/bin" };
    clearEnv = true;
  } else {
    // Deno's run permission allows a named program at the path it resolved on PATH at start: the same
    // lookup finds the same file here. Any other path is refused (NotCapable, explained by runProcess).
    cmd = binary.path;
    args = engineArgs;
    // Unconfined: the engine inherits poly's environment, with HOME and PATH as poly resolved them.
    env = { HOME: settings.home, PATH: ctx.env("PATH") ?? "/usr/bin:/bin" };
  }
  if (settings.debug) {
    console.error(`poly fleet: ${scrub([cmd, ...args].map((x) => JSON.stringify(x)).join(" "))}`);
  }
  await ctx.progress?.(`${run.tool}: running ${run.engine}${run.model ? ` (${run.model})` : ""}`);

  let result: Awaited<ReturnType<typeof runProcess>>;
  try {
    result = await runProcess({
      cmd,
      args,
      cwd: run.cwd,
      env,
      clearEnv,
      timeoutMs: settings.timeoutMs,
      signal: ctx.signal,
      maxStdoutBytes: MAX_OUTPUT_BYTES,
    });
  } catch (e) {
    // bwrap itself could not be started: the sandbox is unavailable, whatever the engine.
    if (settings.sandbox && e instanceof FleetError && e.kind === "engine_unavailable") {
      throw new FleetError(
        "sandbox_unavailable",
        `${e.message}. POLY_BWRAP_BIN must name the bwrap that poly's run permission allows (the one on PATH)`,
        { cause: e },
      );
    }
    throw e;
  }
  const record = (outcome: Parameters<typeof ctx.store.recordRun>[0]["outcome"]) =>
    ctx.store.recordRun({
      engine: run.engine,
      model: run.model,
      tool: run.tool,
      outcome,
      latencyMs: result.durationMs,
    });

  if (result.killFailure) {
    // A tree poly could not kill is said loudly: it may still be running.
    record(result.cancelled ? "cancelled" : "timeout");
    throw new FleetError(
      "engine_failed",
      `${run.engine} ${
        result.cancelled ? `was cancelled` : `ran longer than ${settings.timeoutMs} ms (POLY_TIMEOUT_MS)`
      }, and killing its process tree failed (${result.killFailure}): it may still be running`,
      { engine: run.engine },
    );
  }
  if (result.cancelled) {
    record("cancelled");
    throw new FleetError("cancelled", `${run.tool} was cancelled; the ${run.engine} process tree was killed`, {
      engine: run.engine,
    });
  }
  if (result.timedOut) {
    record("timeout");
    throw new FleetError(
      "timeout",
      `${run.engine} ran longer than ${settings.timeoutMs} ms (POLY_TIMEOUT_MS) and was killed with its process tree` +
        (result.stderr.trim() ? `; last stderr: ${scrub(tail(result.stderr, 500))}` : ""),
      { engine: run.engine },
    );
  }
  const parsed = a.parse(result.stdout);
  const failed = result.code !== 0 || parsed.isError || parsed.text === undefined;
  if (failed) {
    const kind = a.classify({ stdout: result.stdout, stderr: result.stderr, exitCode: result.code });
    const own = scrub(tail([...new Set(parsed.errors)].join("\n") || result.stderr || result.stdout, 2000));
    if (kind === "quota_exhausted") {
      record("quota_exhausted");
      throw await quotaError(ctx, {
        tool: run.tool,
        surface: run.surface,
        engine: run.engine,
        needs,
        among: run.among,
        engineMessage: tail(own, 400),
      });
    }
    if (kind === "rate_limited") {
      record("rate_limited");
      throw rateLimitError(run.engine, tail(own, 400));
    }
    record("error");
    const cut = result.stdoutTruncated ? ` (its output exceeded ${MAX_OUTPUT_BYTES} bytes and was cut)` : "";
    if (result.code === 0 && !parsed.isError) {
      throw new FleetError(
        "engine_failed",
        `${run.engine} exited with code 0 but its output holds no answer (${result.stdoutBytes} bytes)${cut}` +
          (result.stderr.trim() ? `; stderr: ${scrub(tail(result.stderr, 500))}` : ""),
        { engine: run.engine },
      );
    }
    const status = result.code === null ? `was killed by ${result.signal}` : `exited with code ${result.code}`;
    const why = result.code === 0 ? "reported a failure" : status;
    throw new FleetError("engine_failed", `${run.engine} ${why}${own ? `: ${own}` : " without output"}${cut}`, {
      engine: run.engine,
    });
  }
  record("ok");
  const answer = capAnswer(scrub(parsed.text ?? ""), settings.maxAnswerChars);
  const handle = parsed.sessionId ? formatHandle(run.engine, parsed.sessionId) : undefined;
  if (handle && parsed.sessionId) {
    ctx.store.saveSession({
      handle,
      engine: run.engine,
      sessionId: parsed.sessionId,
      tool: run.tool,
      model: run.model,
      effort: run.effort,
      level: run.level,
      // As the caller named it (a follow-up checks it against the root as given).
      cwd: input.cwd,
      readOnly: run.readOnly,
      web: run.web ?? false,
      parent: run.resume?.handle,
      preview: scrub(run.preview ?? run.prompt).slice(0, 200),
      answer: answer.text,
    });
  }
  return {
    engine: run.engine,
    model: run.model,
    effort: run.effort,
    text: answer.text,
    sessionId: parsed.sessionId,
    handle,
    rawChars: result.stdoutTruncated ? result.stdoutBytes : result.stdout.length,
    truncated: answer.truncated,
    latencyMs: result.durationMs,
  };
}
