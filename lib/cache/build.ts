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

function statLine(path: string): string | undefined {
  try {
    const info = Deno.statSync(path);
    return `${path}:${info.ino ?? ""}:${info.size}:${info.mtime?.getTime() ?? ""}`;
  } catch {
    return undefined;
  }
}

/**
 * The stat lines of poly's own source files when run from source (sorted).
 * Synchronous: ~500 stats, where a promise per call would cost more than the calls.
 */
export function sourceStamp(root = fileURLToPath(new URL("../../", import.meta.url))): string[] {
  const lines: string[] = [];
  for (const f of SOURCE_FILES) {
    const line = statLine(join(root, f));
    if (line) lines.push(line);
  }
  const walk = (dir: string) => {
    let entries: Deno.DirEntry[] = [];
    try {
      entries = [...Deno.readDirSync(dir)];
    } catch {
      return;
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory) walk(path);
      else if (SOURCE_EXT.test(e.name)) {
        const line = statLine(path);
        if (line) lines.push(line);
      }
    }
  };
  for (const d of SOURCE_DIRS) walk(join(root, d));
  return lines.sort();
}

let memo: Promise<string> | undefined;
let code: string[] | undefined;

/**
 * The code stamp (computed once per process): the executable's stat line when
 * compiled, else {@link sourceStamp}. Whatever poly's code or its lockfile
 * changes, this changes.
 */
export function codeStamp(): readonly string[] {
  code ??= Deno.build.standalone ? [statLine(Deno.execPath()) ?? "unknown-executable"] : sourceStamp();
  return code;
}

/** The build identity (computed once per process). */
export function buildIdentity(): Promise<string> {
  memo ??= (async () => {
    const h = await blake3Hasher();
    const code = codeStamp();
    const { engineIdentities } = await import("../identity/engines.ts");
    const engines = await engineIdentities();
    const enginesLine = Object.keys(engines).sort().map((id) => `${id}=${engines[id].version}#${engines[id].digest}`);
    const fields = [VERSION, BUILD_ID, CHANNEL, digestWith(h, code.join("\n")), digestWith(h, enginesLine.join("\n"))];
    return digestWith(h, JSON.stringify(fields)).slice(0, 32);
  })();
  return memo;
}
