/**
 * At most {@link MAX_MCP_SCHEMAS} upstream schemas in one session's context at once
 * (seed 002: the runtime keeps at most two, `MAX_MCP_SCHEMAS`). A session is the MCP
 * session (an HTTP session id; over stdio, the process). `mcp_describe` hands a schema
 * into the session's window; describing a schema the window does not hold when it is
 * full drops the least recently described one, and the answer names it so the agent
 * forgets it (and describes it again before it calls that tool).
 *
 * @module
 */

/** How many upstream schemas one session holds at once. */
export const MAX_MCP_SCHEMAS = 2;

/** What describing one target did to the session's window. */
export interface SchemaWindowState {
  /** {@link MAX_MCP_SCHEMAS}. */
  max: number;
  /** The targets whose schemas the session holds now, least recently described first. */
  held: string[];
  /** The target whose schema this call dropped from the window, when any. */
  dropped?: string;
}

const windows = new Map<string, string[]>();

/** The session key used when a transport has no session id (stdio: one session per process). */
export const PROCESS_SESSION = "process";

/** Records that `session` was handed `target`'s schema; returns the window. */
export function holdSchema(session: string | undefined, target: string, max = MAX_MCP_SCHEMAS): SchemaWindowState {
  const key = session ?? PROCESS_SESSION;
  const held = (windows.get(key) ?? []).filter((t) => t !== target);
  held.push(target);
  const dropped = held.length > max ? held.shift() : undefined;
  windows.set(key, held);
  return { max, held: [...held], ...(dropped ? { dropped } : {}) };
}

/** Forgets a session's window (its transport closed). */
export function forgetSession(session: string | undefined): void {
  windows.delete(session ?? PROCESS_SESSION);
}
