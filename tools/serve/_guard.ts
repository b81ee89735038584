/**
 * The JSON-RPC edge of the server, the same for every transport: a wrapper
 * around the SDK transport that
 *
 * - refuses malformed `tools/call` requests before the SDK sees them, with one
 *   line a client can act on: `name` not a string, `arguments` or `task` not an
 *   object, an unknown tool (-32602, as the 2025-11-25 tools specification
 *   says), and a task request to a tool whose `execution.taskSupport` is
 *   `"forbidden"` (-32601, as the 2025-11-25 Tasks specification says) — so
 *   nothing runs for a call that is refused;
 * - turns the SDK's schema dumps (a multi-line zod error as a -32603 Internal
 *   error) into a one-line -32602 Invalid params;
 * - puts the identity block on every answer: `_meta.poly` of a `tools/call` or
 *   `tasks/result` result that lacks it (the SDK's own input-validation
 *   errors), and `error.data._meta.poly` of every error response;
 * - counts the requests not answered yet, so the server can drain them before it
 *   exits ({@link GuardedTransport.drained}).
 *
 * @module
 */
import type { Identity } from "../../lib/report/schema.ts";
import type { JSONRPCMessage, MessageExtraInfo, RequestId, Transport, TransportSendOptions } from "./_sdk.ts";

/** JSON-RPC error codes used here. */
export const INVALID_REQUEST = -32600;
/** The method (here: a task-augmented call of a tool without task support) is not available. */
export const METHOD_NOT_FOUND = -32601;
/** Parameters do not fit the method. */
export const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

/** How a registered tool runs as a task; undefined for a tool the server does not have. */
export type TaskSupportOf = (name: string) => "optional" | "required" | "forbidden" | undefined;

/** What the guard needs from the server. */
export interface GuardOptions {
  taskSupport: TaskSupportOf;
  identity: () => Promise<Identity>;
  /** Filled with the ids of task-augmented `tools/call` requests while they are unanswered. */
  taskRequests?: Set<RequestId>;
}

/** A JSON-RPC error object. */
export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** Why a `tools/call` request is refused before it runs, or undefined when it may run. */
export function refuseToolCall(params: unknown, taskSupport: TaskSupportOf): RpcError | undefined {
  if (!isRecord(params)) {
    return {
      code: INVALID_PARAMS,
      message: `Invalid params: tools/call needs params {"name", "arguments"}, got ${kindOf(params)}`,
    };
  }
  const { name, arguments: args, task } = params;
  if (typeof name !== "string") {
    return {
      code: INVALID_PARAMS,
      message: `Invalid params: "name" must be a string (the tool to call), got ${kindOf(name)}`,
    };
  }
  if (args !== undefined && !isRecord(args)) {
    return {
      code: INVALID_PARAMS,
      message: `Invalid params: "arguments" of tool "${name}" must be an object of named parameters, got ${
        kindOf(args)
      }`,
    };
  }
  const support = taskSupport(name);
  if (support === undefined) {
    return { code: INVALID_PARAMS, message: `Unknown tool "${name}": tools/list names the tools this server has` };
  }
  if (task !== undefined && !isRecord(task)) {
    return {
      code: INVALID_PARAMS,
      message: `Invalid params: "task" must be an object such as {"ttl": 60000}, got ${kindOf(task)}`,
    };
  }
  if (task !== undefined && support === "forbidden") {
    return {
      code: METHOD_NOT_FOUND,
      message:
        `Tool "${name}" does not support task-augmented calls (execution.taskSupport is "forbidden"): call it without params.task`,
    };
  }
  return undefined;
}

/** A zod issue list as the SDK puts it in an error message (JSON text), or undefined. */
function zodIssues(message: string): { path?: unknown[]; message?: string }[] | undefined {
  if (!message.trimStart().startsWith("[")) return undefined;
  try {
    const parsed = JSON.parse(message);
    return Array.isArray(parsed) && parsed.every((i) => isRecord(i) && typeof i.message === "string")
      ? parsed
      : undefined;
  } catch {
    return undefined;
  }
}

/** The SDK's error made one line: a schema dump becomes -32602 naming the first offending field. */
export function oneLineError(error: RpcError, method: string | undefined): RpcError {
  const issues = error.code === INTERNAL_ERROR ? zodIssues(error.message) : undefined;
  if (issues && issues.length > 0) {
    const where = (issue: { path?: unknown[] }) =>
      (issue.path ?? []).filter((p) => p !== "params").join(".") || "params";
    const first = issues[0];
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
    return {
      code: INVALID_PARAMS,
      message: `Invalid params${method ? ` for ${method}` : ""}: "${where(first)}": ${first.message}${more}`,
      ...(error.data === undefined ? {} : { data: error.data }),
    };
  }
  const line = error.message.split("\n").map((l) => l.trim()).filter(Boolean).join(" ");
  return line === error.message ? error : { ...error, message: line };
}

/** `data` with the identity block added at `_meta.poly`. */
function withIdentity(data: unknown, poly: Identity): Json {
  if (isRecord(data)) return { ...data, _meta: { ...(isRecord(data._meta) ? data._meta : {}), poly } };
  return data === undefined ? { _meta: { poly } } : { value: data, _meta: { poly } };
}

/** A transport wrapper: see the module documentation. Connect the server to it instead of the transport. */
export class GuardedTransport implements Transport {
  readonly #inner: Transport;
  readonly #options: GuardOptions;
  /** Requests received and not answered yet: id → method. */
  readonly #pending = new Map<RequestId, string>();
  #wake: (() => void)[] = [];

  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(inner: Transport, options: GuardOptions) {
    this.#inner = inner;
    this.#options = options;
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => this.#receive(message, extra);
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.#inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  /** Requests received and not answered yet. */
  get inFlight(): number {
    return this.#pending.size;
  }

  /** Resolves once every request received so far has been answered (or cancelled by the client). */
  drained(): Promise<void> {
    return this.#pending.size === 0 ? Promise.resolve() : new Promise((resolve) => this.#wake.push(resolve));
  }

  #settle(id: RequestId): void {
    this.#options.taskRequests?.delete(id);
    if (!this.#pending.delete(id) || this.#pending.size > 0) return;
    const wake = this.#wake;
    this.#wake = [];
    for (const resolve of wake) resolve();
  }

  #receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const raw = message as Json;
    if (typeof raw.method === "string" && "id" in raw) {
      const id = raw.id as RequestId;
      this.#pending.set(id, raw.method);
      const refused = raw.method === "tools/call" ? refuseToolCall(raw.params, this.#options.taskSupport) : undefined;
      if (refused) {
        this.send({ jsonrpc: "2.0", id, error: refused }, { relatedRequestId: id }).catch((e) => this.onerror?.(e));
        return;
      }
      if (raw.method === "tools/call" && isRecord((raw.params as Json).task)) this.#options.taskRequests?.add(id);
    } else if (raw.method === "notifications/cancelled" && isRecord(raw.params)) {
      // The SDK sends no answer to a cancelled request.
      this.#settle(raw.params.requestId as RequestId);
    }
    this.onmessage?.(message, extra);
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const raw = message as Json;
    const isAnswer = "id" in raw && ("result" in raw || "error" in raw);
    const id = raw.id as RequestId;
    let out = message;
    if (isAnswer) {
      const method = this.#pending.get(id);
      if (isRecord(raw.error)) {
        const error = oneLineError(raw.error as unknown as RpcError, method);
        out = {
          ...raw,
          error: { ...error, data: withIdentity(error.data, await this.#options.identity()) },
        } as unknown as JSONRPCMessage;
      } else if ((method === "tools/call" || method === "tasks/result") && isRecord(raw.result)) {
        const result = raw.result;
        const meta = isRecord(result._meta) ? result._meta : {};
        if (Array.isArray(result.content) && meta.poly === undefined) {
          out = {
            ...raw,
            result: { ...result, _meta: { ...meta, poly: await this.#options.identity() } },
          } as unknown as JSONRPCMessage;
        }
      }
    }
    try {
      await this.#inner.send(out, options);
    } finally {
      if (isAnswer) this.#settle(id);
    }
  }

  /** Answers a request the inner transport could not parse (stdio): see `_stdio_transport.ts`. */
  async refuse(id: RequestId | null, error: RpcError): Promise<void> {
    const data = withIdentity(error.data, await this.#options.identity());
    await this.#inner.send({ jsonrpc: "2.0", id, error: { ...error, data } } as unknown as JSONRPCMessage);
  }
}
