/**
 * Raw JSON-RPC over a real `poly mcp` process's stdio: for what the SDK client
 * would never send (malformed requests, task requests to tools without task
 * support) and for exact timing of stdin's end.
 *
 * @module
 */
import { polyCommand } from "../_helpers/cli.ts";
import { serverEnv } from "./_client.ts";

/** One JSON-RPC message as parsed from the server's stdout. */
// deno-lint-ignore no-explicit-any
export type Message = Record<string, any>;

/** What a raw session saw. */
export interface RawRun {
  /** Every message the server wrote, in order. */
  messages: Message[];
  /** The response to request `id`, if any. */
  response(id: number | string): Message | undefined;
  code: number;
  /** Milliseconds from closing stdin to the process's exit. */
  exitAfterMs: number;
  stderr: string;
}

/** The initialize request and the initialized notification (a client's first two messages). */
export function handshake(capabilities: Record<string, unknown> = {}): Message[] {
  return [
    {
      jsonrpc: "2.0",
      id: "init",
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "raw", version: "1" } },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
  ];
}

/** A `tools/call` request. */
export function call(id: number, name: unknown, args?: unknown, extra: Record<string, unknown> = {}): Message {
  return {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, ...(args === undefined ? {} : { arguments: args }), ...extra },
  };
}

/** Options of {@link rawSession}. */
export interface RawOptions {
  cwd: string;
  /** Argv of poly (default: this repository's). */
  command?: string[];
  args?: string[];
  env?: Record<string, string>;
  /** Wait for this many responses before closing stdin (default: close at once). */
  awaitResponses?: number;
  /** Kill the server after this long (ms, default 60 000): a missing answer fails the test instead of hanging it. */
  timeoutMs?: number;
}

/** Starts `poly mcp`, writes `lines` (objects are JSON-encoded, strings sent as they are), closes stdin, reads to exit. */
export async function rawSession(lines: (Message | string)[], options: RawOptions): Promise<RawRun> {
  const [exe, ...rest] = options.command ?? polyCommand();
  const child = new Deno.Command(exe, {
    args: [...rest, "mcp", ...(options.args ?? [])],
    cwd: options.cwd,
    env: options.env ?? await serverEnv(),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const text = lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l)) + "\n").join("");
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  const messages: Message[] = [];
  const responses = () => messages.filter((m) => "id" in m && ("result" in m || "error" in m)).length;
  let writerClosed = options.awaitResponses === undefined;
  let closedAt = Date.now();
  const reading = (async () => {
    let buffer = "";
    const decoder = new TextDecoder();
    for await (const chunk of child.stdout) {
      buffer += decoder.decode(chunk, { stream: true });
      let at: number;
      while ((at = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 1);
        if (line.trim()) messages.push(JSON.parse(line));
      }
      if (options.awaitResponses !== undefined && responses() >= options.awaitResponses && !writerClosed) {
        writerClosed = true;
        closedAt = Date.now();
        await writer.close();
      }
    }
  })();
  if (writerClosed) {
    closedAt = Date.now();
    await writer.close();
  }
  const stderr = new Response(child.stderr).text();
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  }, options.timeoutMs ?? 60_000);
  const status = await child.status;
  clearTimeout(timer);
  await reading;
  return {
    messages,
    response: (id) => messages.find((m) => m.id === id && ("result" in m || "error" in m)),
    code: status.code,
    exitAfterMs: Date.now() - closedAt,
    stderr: await stderr,
  };
}
