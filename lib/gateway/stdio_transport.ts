/**
 * An MCP client transport over a child process's stdin/stdout, built on `Deno.Command`
 * (newline-delimited JSON-RPC, as the MCP stdio transport specifies). The child gets
 * exactly the environment given (`clearEnv`); its stderr is handed to a callback.
 *
 * @module
 */
import { JSONRPCMessageSchema } from "./_sdk.ts";
import type { JSONRPCMessage, Transport } from "./_sdk.ts";
import type { Launch } from "./sandbox.ts";
import { sandboxMissing } from "./sandbox.ts";

/** Upper bound of one message line (10 MB, as the SDK's stdio transport). */
const MAX_LINE = 10 * 1024 * 1024;

/** Client transport to a spawned stdio MCP server. */
export class ChildProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  #launch: Launch;
  #onStderr: (text: string) => void;
  #child?: Deno.ChildProcess;
  #writer?: WritableStreamDefaultWriter<Uint8Array>;
  #closed = false;

  constructor(launch: Launch, onStderr: (text: string) => void = () => {}) {
    this.#launch = launch;
    this.#onStderr = onStderr;
  }

  start(): Promise<void> {
    if (this.#child) throw new Error("ChildProcessTransport already started");
    try {
      this.#child = new Deno.Command(this.#launch.command, {
        args: this.#launch.args,
        env: this.#launch.env,
        clearEnv: true,
        cwd: this.#launch.cwd,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) throw sandboxMissing(error);
      throw error;
    }
    this.#writer = this.#child.stdin.getWriter();
    this.#readLines(this.#child.stdout);
    this.#readStderr(this.#child.stderr);
    this.#child.status.then(() => this.#finish());
    return Promise.resolve();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.#writer || this.#closed) throw new Error("Not connected");
    await this.#writer.write(new TextEncoder().encode(JSON.stringify(message) + "\n"));
  }

  async close(): Promise<void> {
    const child = this.#child;
    if (!child || this.#closed) return;
    await this.#writer?.close().catch(() => {});
    // A well-behaved server exits when stdin ends; give it two seconds, then stop it.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const exited = await Promise.race([
      child.status.then(() => true),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 2000))),
    ]);
    clearTimeout(timer);
    if (!exited) {
      // SIGKILL on bwrap itself (ChildProcess.kill needs no run permission): its --die-with-parent and
      // private PID namespace take every process of the sandbox with it.
      try {
        child.kill("SIGKILL");
      } catch (error) {
        // A TypeError means the child exited meanwhile; anything else is reported.
        if (!(error instanceof TypeError)) {
          this.onerror?.(new Error(`Could not stop the upstream (process ${child.pid}): ${error}`));
        }
      }
      await child.status;
    }
    this.#finish();
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }

  async #readLines(stream: ReadableStream<Uint8Array>): Promise<void> {
    let buffer = "";
    try {
      for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
        buffer += chunk;
        if (buffer.length > MAX_LINE) throw new Error(`A message from the server exceeded ${MAX_LINE} bytes`);
        let nl: number;
        while ((nl = buffer.indexOf("\n")) >= 0) {
          const line = buffer.slice(0, nl).replace(/\r$/, "");
          buffer = buffer.slice(nl + 1);
          if (!line.trim()) continue;
          let message: JSONRPCMessage;
          try {
            message = JSONRPCMessageSchema.parse(JSON.parse(line)) as JSONRPCMessage;
          } catch (error) {
            this.onerror?.(new Error(`The server wrote a line that is not a JSON-RPC message: ${error}`));
            continue;
          }
          this.onmessage?.(message);
        }
      }
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  async #readStderr(stream: ReadableStream<Uint8Array>): Promise<void> {
    try {
      for await (const chunk of stream.pipeThrough(new TextDecoderStream())) this.#onStderr(chunk);
    } catch {
      // The child is gone.
    }
  }
}
