/**
 * The shape of one MCP tool. Each tool is one file in `tools/` exporting a
 * {@link ToolDef}; `tools/mod.ts` lists them and `tools/serve/` registers them.
 * The handler calls the same library function the CLI calls.
 *
 * @module
 */
import type { SchemaWindow } from "../lib/gateway/schema_window.ts";
import type { z } from "zod";
import type { ToolLevel } from "../lib/access/levels.ts";

/** Access level a caller needs (lib/access/levels.ts: the HTTP server's tokens). */
export type { ToolLevel };

/** MCP tool annotations (hints for hosts). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** What a handler gets besides its arguments. */
export interface ToolContext {
  /** The server's workspace root (the first of {@link roots}): relative paths resolve against it. */
  root: string;
  /**
   * Every workspace root (real paths): the MCP roots the client offers, else
   * `--root` or the server's working directory. Paths outside all of them are refused.
   */
  roots?: readonly string[];
  /** `poly mcp --config PATH`: fallback config for requests that name none. */
  defaultConfig?: string;
  /** Reports progress (0..total) to the client when it asked for it. */
  progress(done: number, total?: number, message?: string): Promise<void>;
  /** Aborted when the client cancels the request or task. */
  signal: AbortSignal;
  /** The caller's identity when served over HTTP with tokens; undefined over stdio (the owner). */
  caller?: { member: string; role: string; access: ToolLevel; approvals: boolean; token?: string };
  /** The MCP session this call belongs to (an HTTP session id; undefined over stdio: the process). */
  session?: string;
  /** The session's upstream-schema window (`mcp_describe`); owned by the session's server, gone with it. */
  schemas?: SchemaWindow;
  /** Set when this call runs an approved proposal (lib/access/approve.ts): which one, who decided, its preview. */
  approval?: { proposal: string; by: string; preview: Record<string, unknown> };
}

/** What a handler returns: the structured document, the text block's format, and whether it is a tool error. */
export interface ToolOutput<O> {
  structured: O;
  /** "json" (default) or "toon": the encoding of the single text block. */
  format?: "json" | "toon";
  /** Sets CallToolResult.isError (e.g. a report whose `errors` is non-empty). */
  isError?: boolean;
}

/** One MCP tool. */
export interface ToolDef<I extends z.ZodRawShape = z.ZodRawShape, O extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  level: ToolLevel;
  annotations: ToolAnnotations;
  inputSchema: I;
  outputSchema: O;
  /** Long-running: registered as an MCP Task (with a blocking fallback for clients without tasks). */
  task?: boolean;
  handler(args: z.infer<z.ZodObject<I>>, ctx: ToolContext): Promise<ToolOutput<z.infer<O>>>;
}

/** Annotations for tools that only read. */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** Annotations for tools that write to the tree or the store. */
export const MUTATING: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
};

/** Declares a tool with its types checked. */
export function defineTool<I extends z.ZodRawShape, O extends z.ZodType>(def: ToolDef<I, O>): ToolDef {
  return def as unknown as ToolDef;
}
