/**
 * The identity block every report and every MCP result carries: which binary
 * answered (version, build id, channel, executable, pid) and the engines it ran.
 *
 * @module
 */
import { fileURLToPath as fromFileUrl } from "node:url";
import { digestOf } from "../cache/digest.ts";
import type { Identity } from "../report/schema.ts";
import { BUILD_ID, CHANNEL, VERSION } from "./build.ts";
import { engineIdentities } from "./engines.ts";
import { compareText } from "../report/sort.ts";

export { BUILD_ID, CHANNEL, VERSION, versionLine } from "./build.ts";

/** The executable a user would name: the compiled binary, or main.ts when run from source. */
export function executablePath(): string {
  const main = Deno.mainModule;
  if (main.startsWith("file:") && !Deno.build.standalone) return fromFileUrl(main);
  return Deno.execPath();
}

let memo: Promise<Identity> | undefined;

/** The identity block (computed once per process). */
export function identity(): Promise<Identity> {
  memo ??= (async () => {
    const engines = await engineIdentities();
    const sorted = Object.fromEntries(Object.entries(engines).sort(([a], [b]) => compareText(a, b)));
    return {
      version: VERSION,
      build_id: BUILD_ID,
      channel: CHANNEL,
      executable: executablePath(),
      pid: Deno.pid,
      engines_digest: digestOf(JSON.stringify(sorted)).slice(0, 16),
      engines: sorted,
    };
  })();
  return memo;
}
