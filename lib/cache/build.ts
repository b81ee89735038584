/**
 * The build identity in every cache key: one value that changes whenever poly's
 * code or any in-process engine changes, so cache entries are never reused across
 * builds (a bug users of the original tool reported).
 *
 * It is blake3 over: the version, build id and channel; a code stamp; and the
 * engines digest (blake3 over each in-process/bundled engine's module bytes,
 * see `lib/identity/engines.ts`). The code stamp is, for a compiled binary, the
 * executable's inode, size and mtime (hashing an 80 MB binary per run costs
 * ~45 ms; a stat costs microseconds); run from source, the path, size and mtime
 * of every source file of poly (`main.ts`, `deno.json`, `deno.lock`, `lib/`,
 * `tools/`): editing any of them starts a fresh cache.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BUILD_ID, CHANNEL, VERSION } from "../identity/build.ts";
import { blake3Hasher, digestWith } from "./key.ts";

const SOURCE_DIRS = ["lib", "tools"];
const SOURCE_FILES = ["main.ts", "deno.json", "deno.lock"];
const SOURCE_EXT = /\.(ts|tsx|js|mjs|json|yml|yaml|toml)$/;

async function statLine(path: string): Promise<string | undefined> {
  try {
    const info = await Deno.stat(path);
    return `${path}:${info.ino ?? ""}:${info.size}:${info.mtime?.getTime() ?? ""}`;
  } catch {
    return undefined;
  }
}

/** The stat lines of poly's own source files when run from source (sorted). */
export async function sourceStamp(root = fileURLToPath(new URL("../../", import.meta.url))): Promise<string[]> {
  const lines: string[] = [];
  for (const f of SOURCE_FILES) {
    const line = await statLine(join(root, f));
    if (line) lines.push(line);
  }
  const walk = async (dir: string) => {
    let entries: Deno.DirEntry[] = [];
    try {
      entries = await Array.fromAsync(Deno.readDir(dir));
    } catch {
      return;
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory) await walk(path);
      else if (SOURCE_EXT.test(e.name)) {
        const line = await statLine(path);
        if (line) lines.push(line);
      }
    }
  };
  for (const d of SOURCE_DIRS) await walk(join(root, d));
  return lines.sort();
}

let memo: Promise<string> | undefined;

/** The build identity (computed once per process). */
export function buildIdentity(): Promise<string> {
  memo ??= (async () => {
    const h = await blake3Hasher();
    const code = Deno.build.standalone
      ? [await statLine(Deno.execPath()) ?? "unknown-executable"]
      : await sourceStamp();
    const { engineIdentities } = await import("../identity/engines.ts");
    const engines = await engineIdentities();
    const enginesLine = Object.keys(engines).sort().map((id) => `${id}=${engines[id].version}#${engines[id].digest}`);
    const fields = [VERSION, BUILD_ID, CHANNEL, digestWith(h, code.join("\n")), digestWith(h, enginesLine.join("\n"))];
    return digestWith(h, JSON.stringify(fields)).slice(0, 32);
  })();
  return memo;
}
