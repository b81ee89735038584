/**
 * The client half of `poly daemon`: a `poly lint` or `poly fmt` run in a
 * directory a running daemon watches is sent to it, and its output and exit
 * code are passed on as if the command had run here. Anything else — no daemon,
 * one that does not answer, another build of poly, different environment
 * variables, paths outside its root, `POLY_DAEMON=0` — and the command runs in
 * this process as usual.
 *
 * @module
 */
import { type CommandIO, writeTo } from "../io/mod.ts";
import { OutputClosed } from "../errors/mod.ts";
import { programId } from "../identity/program.ts";
import { memoAllowed } from "./_allowed.ts";
import { daemonDir, entriesFor, listEntries } from "./registry.ts";
import { closeQuietly, type DaemonRequest, frame, frames, relevantEnv, writeAll } from "./wire.ts";

const decoder = new TextDecoder();

/**
 * Runs `args` through the daemon watching `io.cwd`, if there is one that takes
 * it: returns the exit code, or undefined when the caller should run the command itself.
 */
export async function viaDaemon(args: string[], io: CommandIO, dir: string = daemonDir()): Promise<number | undefined> {
  if (!memoAllowed()) return undefined;
  const candidates = entriesFor(io.cwd, listEntries(dir));
  if (candidates.length === 0) return undefined;
  const request: DaemonRequest = {
    v: 1,
    argv: args,
    cwd: io.cwd,
    env: relevantEnv(),
    program: programId(),
    stdoutIsTerminal: io.stdoutIsTerminal,
    stderrIsTerminal: io.stderrIsTerminal,
  };
  for (const entry of candidates) {
    let conn: Deno.Conn;
    try {
      conn = await Deno.connect({ transport: "unix", path: entry.socket });
    } catch {
      continue; // gone without cleaning up: `poly daemon status` says so
    }
    let wrote = false;
    try {
      await writeAll(conn, frame("q", JSON.stringify(request)));
      for await (const { type, body } of frames(conn)) {
        if (type === "o" || type === "e") {
          wrote = true;
          // Each frame is whole text (the daemon encodes one write at a time): passed on as bytes where it can be.
          await writeTo(io, type === "o" ? "stdout" : "stderr", body);
        } else if (type === "x") return (JSON.parse(decoder.decode(body)) as { code: number }).code;
        else if (type === "r") break;
      }
      if (wrote) {
        await io.stderr(`error: the poly daemon for ${entry.root} stopped before the run finished\n`);
        return 2;
      }
    } catch (error) {
      if (error instanceof OutputClosed) throw error; // the reader left: poly ends quietly (main.ts)
      if (wrote) {
        await io.stderr(`error: the poly daemon for ${entry.root} failed mid-run: ${String(error)}\n`);
        return 2;
      }
    } finally {
      closeQuietly(conn);
    }
  }
  return undefined;
}
