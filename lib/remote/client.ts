/**
 * `poly remote`: a client of a `poly mcp --http` server (the SDK's Streamable
 * HTTP client), so the command line can do exactly what its token allows. It
 * prints the tool's document and exits with the report's exit code for the
 * lint and format tools (0 clean, 1 findings, 2 incomplete), otherwise 1 when
 * the result is an error and 0 when not; a refused connection, a bad token or
 * a protocol error ends with 2.
 *
 * @module
 */
import { PolyError, UsageError } from "../errors/mod.ts";
import { exitCodeFor } from "../report/exit.ts";
import { Report } from "../report/schema.ts";
import { Client, StreamableHTTPClientTransport, StreamableHTTPError } from "./_sdk.ts";

/** A JSON Schema as tools/list gives it (only what argument coercion reads). */
export interface PropertySchema {
  type?: string | string[];
  items?: PropertySchema;
  anyOf?: PropertySchema[];
  enum?: unknown[];
}

/** A tool's input schema. */
export interface InputSchema {
  properties?: Record<string, PropertySchema>;
  required?: string[];
}

/** Reads the token from `name`; poly may read only `POLY_*` variables (and a few named ones). */
export function tokenFromEnv(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new UsageError(`"${name}" is not an environment variable name`);
  let value: string | undefined;
  try {
    value = Deno.env.get(name);
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
      const suggested = `POLY_${name.toUpperCase().replace(/^POLY_/, "")}`;
      throw new UsageError(
        `Variable "${name}" is not readable by poly, which may read only POLY_* variables: export the token as ${suggested} and pass --token-env ${suggested}`,
      );
    }
    throw error;
  }
  if (!value?.trim()) throw new UsageError(`Variable "${name}" is empty or unset: export the token there first`);
  return value.trim();
}

function typesOf(s: PropertySchema | undefined): string[] {
  if (!s) return [];
  const own = s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type];
  return [...own, ...(s.anyOf ?? []).flatMap(typesOf)];
}

function scalar(key: string, raw: string, schema: PropertySchema | undefined): unknown {
  const types = typesOf(schema);
  if (types.includes("integer") || types.includes("number")) {
    const n = Number(raw);
    if (raw.trim() !== "" && Number.isFinite(n)) return n;
    if (!types.includes("string")) throw new UsageError(`--arg ${key}=${raw}: expected a number`);
  }
  if (types.includes("boolean")) {
    if (/^(true|yes|1)$/i.test(raw)) return true;
    if (/^(false|no|0)$/i.test(raw)) return false;
    if (!types.includes("string")) throw new UsageError(`--arg ${key}=${raw}: expected true or false`);
  }
  if (types.includes("object") || (types.length === 0 && /^[[{"]/.test(raw))) {
    try {
      return JSON.parse(raw);
    } catch {
      if (types.includes("object")) throw new UsageError(`--arg ${key}=…: expected a JSON object`);
    }
  }
  return raw;
}

/**
 * Builds a call's arguments: `--json` first, then each `--arg k=v`, coerced by
 * the tool's input schema (numbers, booleans, JSON objects; an array parameter
 * collects repeated keys, or takes a JSON array).
 */
export function buildArguments(
  pairs: readonly string[],
  json: string | undefined,
  schema: InputSchema | undefined,
): Record<string, unknown> {
  let args: Record<string, unknown> = {};
  if (json !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch (e) {
      throw new UsageError(`--json is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw new UsageError("--json must be a JSON object");
    }
    args = { ...(parsed as Record<string, unknown>) };
  }
  const props = schema?.properties ?? {};
  const collected = new Set<string>();
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new UsageError(`--arg "${pair}": use KEY=VALUE`);
    const key = pair.slice(0, eq);
    const raw = pair.slice(eq + 1);
    const prop = props[key];
    if (schema?.properties && !prop) {
      const known = Object.keys(props);
      throw new UsageError(
        `--arg ${key}: the tool has no such parameter${known.length ? `; it takes ${known.join(", ")}` : ""}`,
      );
    }
    if (typesOf(prop).includes("array")) {
      if (raw.startsWith("[")) {
        try {
          args[key] = JSON.parse(raw);
          continue;
        } catch {
          // Not JSON: one item.
        }
      }
      const list = collected.has(key) && Array.isArray(args[key]) ? args[key] as unknown[] : [];
      list.push(scalar(key, raw, prop?.items));
      args[key] = list;
      collected.add(key);
    } else {
      args[key] = scalar(key, raw, prop);
    }
  }
  return args;
}

/** A call's outcome: what to print where, and the exit code. */
export interface RemoteOutcome {
  stdout: string;
  stderr: string;
  code: number;
}

/** Options of {@link remote}. */
export interface RemoteOptions {
  url: string;
  token: string;
  /** Undefined: list the tools. */
  tool?: string;
  args: readonly string[];
  json?: string;
  /** Time limit of the call (ms; reset by progress notifications). */
  timeoutMs: number;
}

function describeFailure(url: string, error: unknown): PolyError {
  if (error instanceof StreamableHTTPError) {
    const detail = (() => {
      try {
        return JSON.parse(error.message.replace(/^Streamable HTTP error: Error POSTing to endpoint: /, "")).error
          ?.message;
      } catch {
        return undefined;
      }
    })();
    return new PolyError(`The server at ${url} answered ${error.code}: ${detail ?? error.message}`);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new PolyError(`Could not use the server at ${url}: ${message}`);
}

/** The exit code of a tool result. */
export function exitCodeOf(result: { isError?: boolean; structuredContent?: unknown }): number {
  const report = Report.safeParse(result.structuredContent);
  if (report.success) return exitCodeFor(report.data);
  return result.isError ? 1 : 0;
}

/** Connects, calls one tool (or lists them) and disconnects. */
export async function remote(o: RemoteOptions): Promise<RemoteOutcome> {
  let url: URL;
  try {
    url = new URL(o.url);
  } catch {
    throw new UsageError(`Invalid --url "${o.url}": e.g. http://127.0.0.1:8765/mcp`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`--url must be http or https`);
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: { authorization: `Bearer ${o.token}` } },
  });
  const client = new Client({ name: "poly-remote", version: "1" });
  try {
    await client.connect(transport);
  } catch (error) {
    throw describeFailure(o.url, error);
  }
  try {
    const { tools } = await client.listTools();
    if (o.tool === undefined) {
      const width = Math.max(4, ...tools.map((t) => t.name.length));
      const lines = tools.map((t) => `${t.name.padEnd(width)}  ${t.title ?? t.description?.split(".")[0] ?? ""}`);
      return { stdout: lines.join("\n") + "\n", stderr: "", code: 0 };
    }
    const def = tools.find((t) => t.name === o.tool);
    if (!def) {
      throw new UsageError(`The server has no tool "${o.tool}": poly remote --url ${o.url} lists them`);
    }
    const args = buildArguments(o.args, o.json, def.inputSchema as InputSchema);
    let result: { content?: unknown; isError?: boolean; structuredContent?: unknown };
    try {
      result = (await client.callTool({ name: o.tool, arguments: args }, undefined, {
        timeout: o.timeoutMs,
        resetTimeoutOnProgress: true,
        onprogress: () => {},
      })) as typeof result;
    } catch (error) {
      throw error instanceof PolyError ? error : describeFailure(o.url, error);
    }
    const text = (result.content as { type: string; text?: string }[] | undefined)?.find((c) => c.type === "text")
      ?.text;
    const code = exitCodeOf(result);
    if (result.structuredContent !== undefined) {
      return { stdout: text ?? JSON.stringify(result.structuredContent, null, 2) + "\n", stderr: "", code };
    }
    if (result.isError) return { stdout: "", stderr: `error: ${text ?? "the tool failed"}\n`, code };
    return { stdout: text === undefined ? "" : text.endsWith("\n") ? text : text + "\n", stderr: "", code };
  } finally {
    await transport.terminateSession().catch(() => {});
    await client.close().catch(() => {});
  }
}
