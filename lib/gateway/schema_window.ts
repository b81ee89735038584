/**
 * At most {@link MAX_MCP_SCHEMAS} upstream schemas in one session's context at once
 * (seed 002: the runtime keeps at most two, `MAX_MCP_SCHEMAS`). A session is the MCP
 * session (over HTTP, one per session id; over stdio, the process). `mcp_describe` hands a schema
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

/**
 * One MCP session's window: the server a session talks to owns one (over HTTP a
 * session has its own server; over stdio the process has one), so a window ends
 * with its session and nothing outlives it.
 */
export class SchemaWindow {
  readonly #held: string[] = [];

  constructor(readonly max: number = MAX_MCP_SCHEMAS) {}

  /** Records that the session was handed `target`'s schema; returns the window. */
  hold(target: string): SchemaWindowState {
    const at = this.#held.indexOf(target);
    if (at >= 0) this.#held.splice(at, 1);
    this.#held.push(target);
    const dropped = this.#held.length > this.max ? this.#held.shift() : undefined;
    return { max: this.max, held: [...this.#held], ...(dropped ? { dropped } : {}) };
  }
}
