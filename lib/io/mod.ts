/**
 * The streams one run of a command writes to: the command line's (lib/cli),
 * a `poly daemon`'s client's (lib/daemon) and the git hook's (lib/hooks) alike.
 * The operations that write output take one of these instead of touching
 * `Deno.stdout`, so tests pass their own and the daemon forwards it over its socket.
 *
 * @module
 */
import type { RunMemo } from "../run/types.ts";

/** The streams a command writes to; tests pass their own. */
export interface CommandIO {
  /** Writes a document or text to stdout (no newline added). */
  stdout(text: string): Promise<void>;
  /** Writes a message for a person to stderr (no newline added). */
  stderr(text: string): Promise<void>;
  /**
   * Writes text already encoded as UTF-8, as it is (a `poly daemon`'s output passed on by its client,
   * whole frames only): the real process's streams have it, so those bytes are neither decoded nor
   * encoded again; without it, callers decode and use {@link stdout} or {@link stderr}.
   */
  writeBytes?(stream: "stdout" | "stderr", bytes: Uint8Array): Promise<void>;
  /** Whether stdout and stderr are terminals (colour, progress). */
  stdoutIsTerminal: boolean;
  stderrIsTerminal: boolean;
  /** The working directory the command was run from. */
  cwd: string;
  /** Set by a resident `poly daemon` only: what its earlier runs know (lint and fmt pass it on). */
  memo?: RunMemo;
  /** Set by a resident `poly daemon` only: aborted when the client goes away, which cancels the run (lint and fmt). */
  signal?: AbortSignal;
  /**
   * Set by main.ts for a one-shot `poly lint` or `poly fmt`: the key its run is
   * kept under for the next process to replay (lib/cache/replay.ts), looked up
   * from the command line before parsing it, and found not to replay.
   */
  replayKey?: string;
}

const decoder = new TextDecoder();

/** Writes `text`, or text's UTF-8 bytes, to one of `io`'s streams: bytes as they are where it takes them. */
export async function writeTo(io: CommandIO, stream: "stdout" | "stderr", text: string | Uint8Array): Promise<void> {
  if (typeof text === "string") await io[stream](text);
  else if (io.writeBytes) await io.writeBytes(stream, text);
  else await io[stream](decoder.decode(text));
}
