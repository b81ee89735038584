/**
 * The agent hook's decisions, as pure functions of the event and the set of
 * nudges already fired in the session. No I/O here: reading a file's size is
 * passed in, so every rule is testable with plain values.
 *
 * @module
 */
import { directToolCall, writesArtifact } from "./_classify.ts";
import {
  artifactText,
  directToolText,
  editText,
  preloadText,
  promptCues,
  readText,
  type ToolNamer,
  webText,
} from "./_texts.ts";

/** What a PreToolUse event asks about. */
export interface ToolCall {
  tool_name: string;
  tool_input: Record<string, unknown>;
  /** The session's working directory, for relative paths. */
  cwd?: string;
}

/** A nudge or redirect to emit, and the dedup keys to mark before emitting it. */
export interface Decision {
  keys: string[];
  text: string;
  /** Safe to deny once (fail-open): in redirect mode this becomes `permissionDecision: "deny"`. */
  redirect: boolean;
}

/** A file's size for the Read rule: its line count, "very large", or undefined when unreadable. */
export type MeasureFile = (path: string) => number | "very large" | undefined;

/** Inputs of {@link decidePreToolUse} other than the call. */
export interface DecideOptions {
  namer: ToolNamer;
  /** A whole-file Read of more than this many lines is steered to read_slice. */
  minLines: number;
  measure: MeasureFile;
}

/**
 * Extensions of files Read shows as images or documents, or cannot show as text: never steered. (An SVG is
 * text to Read, and poly lints it: a large one is steered like any other text file.)
 */
const BINARY_EXT = /\.(png|jpe?g|gif|webp|bmp|ico|pdf|zip|gz|tgz|tar|xz|wasm|mp3|mp4|mov|woff2?|ttf|otf|ipynb)$/i;

/** Dedup key of the preload reminder (also marked by SessionStart). */
export const PRELOAD_KEY = "preload";

/**
 * Decides what to say about one tool call, or undefined to stay silent. The
 * first fire of a session also carries the preload reminder.
 *
 * @example
 * ```ts
 * const d = decidePreToolUse({ tool_name: "WebSearch", tool_input: {} }, new Set(), options);
 * // d.keys == ["web", "preload"], d.redirect == true
 * ```
 */
export function decidePreToolUse(
  call: ToolCall,
  seen: ReadonlySet<string>,
  options: DecideOptions,
): Decision | undefined {
  const base = baseDecision(call, seen, options);
  if (!base) return undefined;
  if (base.keys[0] !== PRELOAD_KEY && !seen.has(PRELOAD_KEY)) {
    return {
      keys: [...base.keys, PRELOAD_KEY],
      text: `${base.text}\n\n${preloadText(options.namer)}`,
      redirect: base.redirect,
    };
  }
  return base;
}

function once(seen: ReadonlySet<string>, key: string, text: () => string, redirect: boolean): Decision | undefined {
  return seen.has(key) ? undefined : { keys: [key], text: text(), redirect };
}

function commandOf(input: Record<string, unknown>): string {
  const command = input.command;
  if (typeof command === "string") return command;
  if (Array.isArray(command)) return command.filter((w) => typeof w === "string").join(" ");
  return "";
}

function baseDecision(call: ToolCall, seen: ReadonlySet<string>, options: DecideOptions): Decision | undefined {
  const t = options.namer;
  const input = call.tool_input;
  switch (call.tool_name) {
    case "WebSearch":
    case "WebFetch":
      return once(seen, "web", () => webText(t), true);
    case "Bash":
    case "shell": {
      const command = commandOf(input);
      const direct = directToolCall(command);
      if (direct) return once(seen, `cli:${direct.key}`, () => directToolText(t, direct), true);
      if (writesArtifact(command)) return once(seen, "artifact", () => artifactText(t), false);
      return undefined;
    }
    case "Edit":
    case "Write":
    case "MultiEdit":
    case "NotebookEdit":
      return once(seen, "edit", () => editText(t), false);
    case "Grep":
    case "Glob":
      return once(seen, PRELOAD_KEY, () => preloadText(t), false);
    case "Read":
      return readDecision(call, seen, options);
    default:
      return undefined;
  }
}

function readDecision(call: ToolCall, seen: ReadonlySet<string>, options: DecideOptions): Decision | undefined {
  const input = call.tool_input;
  const raw = input.file_path;
  if (typeof raw !== "string" || raw === "" || BINARY_EXT.test(raw)) return undefined;
  if (input.offset != null || input.limit != null || input.pages != null) return undefined;
  const file = raw.startsWith("/") || !call.cwd ? raw : `${call.cwd.replace(/\/$/, "")}/${raw}`;
  const key = `read:${file}`;
  if (seen.has(key)) return undefined;
  const lines = options.measure(file);
  if (lines === undefined) return undefined; // missing or unreadable: let the native Read report it
  if (lines !== "very large" && lines <= options.minLines) return undefined;
  return { keys: [key], text: readText(options.namer, file, lines), redirect: true };
}

/** UserPromptSubmit: routing cues found in the prompt, or undefined when none applies. Never deduplicated. */
export function promptRoute(prompt: string, namer: ToolNamer): string | undefined {
  const lines = promptCues(namer).filter((cue) => cue.pattern.test(prompt)).map((cue) => `- ${cue.line}`);
  if (lines.length === 0) return undefined;
  return `poly routing for this prompt:\n${lines.join("\n")}`;
}
