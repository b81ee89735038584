/**
 * `poly hook agent`: the call-time agent hook. It reads one hook event from the
 * host (Claude Code, Codex) and answers with a nudge (`additionalContext`), a
 * one-shot redirect (`permissionDecision: "deny"`), or nothing at all.
 *
 * Guarantees, in order of importance:
 * - it never breaks the host: every failure ends in "no output", and the caller exits 0;
 * - a redirect fires at most once per key and session, and its key is saved
 *   BEFORE it is emitted — so the second identical call goes through (fail-open);
 *   if the key cannot be saved, the redirect is downgraded to a nudge;
 * - silence when nothing applies.
 *
 * @module
 */
import { decidePreToolUse, type MeasureFile, PRELOAD_KEY, promptRoute } from "./decide.ts";
import { FAIL_OPEN_SUFFIX, sessionStartText, subagentText, toolNamer } from "./_texts.ts";
import { loadSeen, saveSeen, statePath } from "./state.ts";

/** off: do nothing; nudge: only additionalContext; redirect: deny once where that is safe. */
export type HookMode = "off" | "nudge" | "redirect";

/** The default MCP tool prefix: a server registered as "poly" (`claude mcp add poly -- poly mcp`). */
export const DEFAULT_TOOL_PREFIX = "mcp__poly__";

/** Default of POLY_HOOK_MIN_LINES. */
export const DEFAULT_MIN_LINES = 300;

/** Options of {@link runAgentHook}; everything has a default from the environment. */
export interface AgentHookOptions {
  /** Reads an environment variable (tests pass their own). */
  env?: (name: string) => string | undefined;
  /** Directory of the dedup files: POLY_HOOK_STATE_DIR, else the OS temporary directory. */
  stateDir?: string;
  /** MCP tool name prefix: `--tool-prefix`, else POLY_HOOK_TOOL_PREFIX, else `mcp__poly__`. */
  toolPrefix?: string;
  /** Line counter for the Read rule. */
  measure?: MeasureFile;
}

/** What the hook printed, plus debug notes (shown on stderr only under POLY_DEBUG). */
export interface AgentHookResult {
  /** The JSON document for stdout, with a trailing newline, or "" for silence. */
  stdout: string;
  debug: string[];
}

function processEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/** Parses POLY_HOOK_MODE; unknown values fall back to redirect (noted in `debug`). */
export function hookMode(raw: string | undefined, debug: string[] = []): HookMode {
  const value = (raw ?? "").trim().toLowerCase();
  if (value === "") return "redirect";
  if (value === "off" || value === "nudge" || value === "redirect") return value;
  debug.push(`POLY_HOOK_MODE="${raw}" is not off, nudge or redirect: using redirect`);
  return "redirect";
}

function minLines(raw: string | undefined): number {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_MIN_LINES;
}

/**
 * The OS temporary directory, without node:os (whose tmpdir() reads TMP and TEMP,
 * variables poly is not permitted to read): TMPDIR, else /tmp; on Windows TEMP,
 * TMP or %LOCALAPPDATA%\\Temp.
 */
export function osTempDir(read: (name: string) => string | undefined = processEnv): string {
  const own = read("TMPDIR");
  if (own) return own;
  if (Deno.build.os !== "windows") return "/tmp";
  const local = read("LOCALAPPDATA");
  return read("TEMP") ?? read("TMP") ?? (local ? `${local}\\Temp` : "C:\\Windows\\Temp");
}

const VERY_LARGE_BYTES = 2 * 1024 * 1024;

/** Counts a file's lines; "very large" past 2 MiB (not read); undefined when it is not a readable file. */
export const measureFile: MeasureFile = (path) => {
  try {
    const info = Deno.statSync(path);
    if (!info.isFile) return undefined;
    if (info.size > VERY_LARGE_BYTES) return "very large";
    const bytes = Deno.readFileSync(path);
    let lines = 0;
    for (const b of bytes) if (b === 10) lines++;
    if (bytes.length > 0 && bytes[bytes.length - 1] !== 10) lines++;
    return lines;
  } catch {
    return undefined;
  }
};

function context(event: string, text: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } }) + "\n";
}

function deny(reason: string): string {
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason },
  }) + "\n";
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * Answers one hook event. Never throws.
 *
 * @example
 * ```ts
 * const { stdout } = await runAgentHook('{"hook_event_name":"PreToolUse","session_id":"s1","tool_name":"WebSearch","tool_input":{}}');
 * // stdout: a one-shot deny naming web_lookup; the same call again gets "" (allowed)
 * ```
 */
export async function runAgentHook(stdin: string, options: AgentHookOptions = {}): Promise<AgentHookResult> {
  const debug: string[] = [];
  try {
    return { stdout: await answer(stdin, options, debug), debug };
  } catch (error) {
    debug.push(`hook failed, staying silent: ${error instanceof Error ? error.message : String(error)}`);
    return { stdout: "", debug };
  }
}

async function answer(stdin: string, options: AgentHookOptions, debug: string[]): Promise<string> {
  const env = options.env ?? processEnv;
  const mode = hookMode(env("POLY_HOOK_MODE"), debug);
  if (mode === "off") return "";
  let event: Record<string, unknown>;
  try {
    const parsed = JSON.parse(stdin);
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not a JSON object");
    event = parsed;
  } catch (error) {
    debug.push(`malformed hook input: ${error instanceof Error ? error.message : String(error)}`);
    return "";
  }
  const namer = toolNamer(options.toolPrefix ?? text(env("POLY_HOOK_TOOL_PREFIX")) ?? DEFAULT_TOOL_PREFIX);
  const name = event.hook_event_name;
  const dir = options.stateDir ?? text(env("POLY_HOOK_STATE_DIR")) ?? osTempDir(env);
  const path = statePath(dir, text(event.session_id) ?? "default");

  switch (name) {
    case "SubagentStart":
      return context("SubagentStart", subagentText(namer, text(event.agent_type)));
    case "UserPromptSubmit": {
      const route = promptRoute(typeof event.prompt === "string" ? event.prompt : "", namer);
      return route ? context("UserPromptSubmit", route) : "";
    }
    case "SessionStart": {
      const seen = await loadSeen(path);
      seen.add(PRELOAD_KEY);
      await saveSeen(path, seen).catch((e) => debug.push(`could not save ${path}: ${e}`));
      return context("SessionStart", sessionStartText(namer));
    }
    case "PreToolUse": {
      const toolName = text(event.tool_name);
      if (!toolName) return "";
      const input = event.tool_input && typeof event.tool_input === "object" && !Array.isArray(event.tool_input)
        ? event.tool_input as Record<string, unknown>
        : {};
      const seen = await loadSeen(path);
      const decision = decidePreToolUse({ tool_name: toolName, tool_input: input, cwd: text(event.cwd) }, seen, {
        namer,
        minLines: minLines(env("POLY_HOOK_MIN_LINES")),
        measure: options.measure ?? measureFile,
      });
      if (!decision) return "";
      for (const key of decision.keys) seen.add(key);
      let saved = true;
      await saveSeen(path, seen).catch((e) => {
        saved = false;
        debug.push(`could not save ${path}, not redirecting: ${e}`);
      });
      // A deny that was not remembered would repeat forever: without the saved key, only nudge.
      if (mode === "redirect" && decision.redirect && saved) return deny(decision.text + FAIL_OPEN_SUFFIX);
      return context("PreToolUse", decision.text);
    }
    default:
      debug.push(`event ${JSON.stringify(name)} is not one the hook answers`);
      return "";
  }
}
