/**
 * The stdio transport of `poly mcp`: newline-delimited JSON-RPC on stdin and
 * stdout, like the SDK's `StdioServerTransport`, except that a line it cannot
 * take is answered instead of dropped: bad JSON gets -32700 Parse error (id
 * null) and a message with an `id` that is no valid request, notification or
 * response (e.g. no `method`) gets -32600 Invalid request, through
 * {@link PolyStdioTransport.oninvalid} (the guard adds the identity block).
 *
 * @module
 */
import process from "node:process";
import { Buffer } from "node:buffer";
import { JSONRPCMessageSchema } from "./_sdk.ts";
import type { JSONRPCMessage, RequestId, Transport } from "./_sdk.ts";
import type { RpcError } from "./_guard.ts";

/** Longest line kept in memory (as the SDK's transport). */
const MAX_BUFFER = 10 * 1024 * 1024;

/** Why a line is no JSON-RPC message: the id to answer (null when none can be told) and the error. */
export function invalidLine(line: string): { id: RequestId | null; error: RpcError } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { id: null, error: { code: -32700, message: `Parse error: ${(error as Error).message}` } };
  }
  if (JSONRPCMessageSchema.safeParse(value).success) return undefined;
  const raw = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const id = typeof raw.id === "string" || typeof raw.id === "number" ? raw.id : null;
  const reason = raw.jsonrpc !== "2.0"
    ? '"jsonrpc" must be "2.0"'
    : typeof raw.method !== "string" && !("result" in raw) && !("error" in raw)
    ? 'a request needs a string "method"'
    : "not a JSON-RPC 2.0 request, notification or response";
  return { id, error: { code: -32600, message: `Invalid request: ${reason}` } };
}

/** MCP over this process's stdin and stdout. */
export class PolyStdioTransport implements Transport {
  #buffer: Buffer | undefined;
  #started = false;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** A line that is no message: a request id (or null) and the error to answer it with. */
  oninvalid?: (id: RequestId | null, error: RpcError) => void;

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
  ) {}

  #ondata = (chunk: Buffer) => {
    const size = (this.#buffer?.length ?? 0) + chunk.length;
    if (size > MAX_BUFFER) {
      this.#buffer = undefined;
      this.onerror?.(new Error(`A message exceeded ${MAX_BUFFER} bytes`));
      return;
    }
    this.#buffer = this.#buffer ? Buffer.concat([this.#buffer, chunk]) : chunk;
    for (;;) {
      const at = this.#buffer.indexOf("\n");
      if (at < 0) break;
      const line = this.#buffer.toString("utf8", 0, at).replace(/\r$/, "");
      this.#buffer = this.#buffer.subarray(at + 1);
      if (line.trim() === "") continue;
      const invalid = invalidLine(line);
      if (!invalid) {
        this.onmessage?.(JSONRPCMessageSchema.parse(JSON.parse(line)) as JSONRPCMessage);
      } else if (invalid.id !== null || invalid.error.code === -32700) {
        this.oninvalid?.(invalid.id, invalid.error);
      } else {
        this.onerror?.(new Error(invalid.error.message));
      }
    }
  };

  #onerror = (error: Error) => this.onerror?.(error);

  start(): Promise<void> {
    if (this.#started) throw new Error("The stdio transport is already started");
    this.#started = true;
    this.stdin.on("data", this.#ondata);
    this.stdin.on("error", this.#onerror);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.stdin.off("data", this.#ondata);
    this.stdin.off("error", this.#onerror);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.#buffer = undefined;
    this.onclose?.();
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(JSON.stringify(message) + "\n")) resolve();
      else this.stdout.once("drain", resolve);
    });
  }
}
