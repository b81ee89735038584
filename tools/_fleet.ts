/**
 * What the fleet's MCP tools share: parameter and output schemas, and running a
 * fleet operation for a tool call (opening the context from the call's root,
 * cancellation and progress; a fleet failure becomes a tool error whose
 * structured content names its kind and the engines still usable).
 *
 * @module
 */
import { z } from "zod";
import type { DatabaseSync } from "node:sqlite";
import { describeError, PolyError } from "../lib/errors/mod.ts";
import type { FleetContext } from "../lib/fleet/context.ts";
import { FleetError } from "../lib/fleet/errors.ts";
import { ENGINES } from "../lib/fleet/types.ts";

/** The slice of the MCP tool context the fleet uses. */
export interface CallContext {
  root: string;
  signal: AbortSignal;
  progress(done: number, total?: number, message?: string): Promise<void>;
}

/** What a fleet tool handler returns (the shape of `ToolOutput`). */
export interface FleetToolOutput<T> {
  structured: T;
  isError?: boolean;
}

/** `engine` parameter. */
export const engineParam = z.enum(ENGINES).optional().describe(
  "Engine to use instead of the default: codex, claude, grok, opencode (needs a provider/model model), cursor (opt-in).",
);

/** `model` parameter. */
export const modelParam = z.string().min(1).optional().describe(
  "Model override for the selected engine (opencode: provider/model).",
);

/** `effort` parameter. */
export const effortParam = z.string().min(1).optional().describe(
  "Reasoning effort override (e.g. low, medium, high, max) for the selected engine.",
);

/** `cwd` parameter. */
export const cwdParam = z.string().min(1).optional().describe(
  "Working directory for the worker, relative to the workspace root (default: the root). Must be inside it.",
);

/** `agent` parameter: a named persona or an inline one. */
export const agentParam = z.union([
  z.string().min(1),
  z.object({ prompt: z.string().min(1), name: z.string().min(1).optional() }),
]).optional().describe(
  'Persona for the worker: a name ("reviewer" → reviewer.md from POLY_AGENT_PATHS, .claude/agents or ~/.claude/agents) or {prompt: "..."}.',
);

/** A skipped cascade candidate. */
export const SkipSchema = z.object({ engine: z.string(), reason: z.string() });

/** The structured error of a failed fleet tool call. */
export const ErrorSchema = z.object({
  kind: z.string(),
  message: z.string(),
  engine: z.string().optional(),
  usable_engines: z.array(z.string()).optional(),
});

/** The output of a worker tool (success fields optional: a failed call carries only `error`). */
export const WorkerOutputSchema = z.object({
  answer: z.string().optional().describe("The worker's answer (credentials scrubbed)."),
  session_id: z.string().optional().describe('Session handle "engine:id" for follow_up and rate.'),
  engine: z.string().optional(),
  model: z.string().optional(),
  effort: z.string().optional(),
  level: z.number().int().optional(),
  truncated: z.boolean().optional().describe("The answer was cut to the answer limit."),
  skipped: z.array(SkipSchema).optional().describe("Engines the cascade passed over, and why."),
  latency_ms: z.number().optional(),
  error: ErrorSchema.optional(),
});

let shared: DatabaseSync | undefined;

async function sharedDb(): Promise<DatabaseSync> {
  if (!shared) {
    const { openStore } = await import("../lib/store/mod.ts");
    shared = openStore();
  }
  return shared;
}

/** Turns any failure into the structured error of a tool result. */
export function errorInfo(e: unknown): z.infer<typeof ErrorSchema> {
  if (e instanceof FleetError) return e.info();
  if (e instanceof PolyError) {
    return { kind: e.name === "OutsideWorkspaceError" ? "invalid_request" : "error", message: describeError(e) };
  }
  return { kind: "internal", message: `poly: internal error: ${describeError(e)}` };
}

/** Runs a fleet operation for a tool call. */
export async function runFleetTool<T>(
  call: CallContext,
  op: (ctx: FleetContext) => Promise<T>,
): Promise<FleetToolOutput<T>> {
  try {
    // Loaded on the first fleet call: the tool definitions need only the schemas above.
    const { openFleet } = await import("../lib/fleet/context.ts");
    const ctx = await openFleet({
      root: call.root,
      db: await sharedDb(),
      signal: call.signal,
      progress: (message) => call.progress(0, undefined, message),
    });
    return { structured: await op(ctx) };
  } catch (e) {
    return { structured: { error: errorInfo(e) } as T, isError: true };
  }
}
