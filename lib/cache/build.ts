/**
 * The build identity in every cache key: one value that changes whenever poly's
 * code or any in-process engine changes, so cache entries are never reused across
 * builds (a bug users of the original tool reported).
 *
 * It is SHA-256 over: the version, build id and channel; a code stamp; and the
 * engines digest (SHA-256 over each in-process/bundled engine's module bytes,
 * see `lib/identity/engines.ts`). The code stamp is, for a compiled binary, the
 * executable's inode, size and mtime (hashing an 80 MB binary per run costs
 * ~45 ms; a stat costs microseconds); run from source, the path, size and mtime
 * of every source file of poly (`main.ts`, `deno.json`, `deno.lock`, `lib/`,
 * `tools/`): editing any of them starts a fresh cache.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { BUILD_ID, CHANNEL, VERSION } from "../identity/build.ts";
import { cacheHome } from "../paths/mod.ts";
import { writeFileAtomic } from "../fs/atomic.ts";
import { codeStamp } from "../identity/code.ts";
import { digestOf } from "./digest.ts";

export { codeStamp, sourceStamp } from "../identity/code.ts";

let memo: Promise<string> | undefined;
let code: Promise<string> | undefined;

/**
 * SHA-256 over the version, build id, channel and code stamp (computed once per
 * process): poly's own code, without the engines' module digests. Memos of what
 * poly derives from its own files (parsed rule files, the engines' module lists)
 * are keyed by it: it costs the code stamp alone, where {@link buildIdentity}
 * also stats every engine module.
 */
export function codeIdentity(): Promise<string> {
  code ??= Promise.resolve(digestOf([VERSION, BUILD_ID, CHANNEL, ...codeStamp()].join("\n")));
  return code;
}

/**
 * A memo file of this build of poly's code: `<cache home>/<folder>/<prefix><code>.json`
 * ({@link codeIdentity}), for what poly derives from its own files.
 */
export async function codeMemoPath(folder: string, prefix: string): Promise<string> {
  return join(cacheHome(), folder, `${prefix}${(await codeIdentity()).slice(0, 16)}.json`);
}

/** A memo file's JSON, or undefined when it is absent, unreadable or damaged (then the memo starts empty). */
export function readMemoFile(path: string): unknown {
  try {
    return JSON.parse(Deno.readTextFileSync(path));
  } catch {
    return undefined;
  }
}

/**
 * Writes a memo file (atomically), then prunes other builds' files of the same
 * `prefix` ({@link pruneOtherBuilds}). Whether it was written: a failure (a
 * read-only cache home) only costs the next run the work again.
 */
export async function writeMemoFile(path: string, value: unknown, prefix: string, keep = 3): Promise<boolean> {
  try {
    await Deno.mkdir(dirname(path), { recursive: true });
    await writeFileAtomic(path, JSON.stringify(value));
  } catch {
    return false;
  }
  await pruneOtherBuilds(path, prefix, keep);
  return true;
}

/**
 * Removes the older of the per-build files beside `path` (named `<prefix><build>.json`
 * in the same folder): the `keep` most recently written other builds' files stay,
 * since two checkouts, or a binary and a source tree, may share one cache home.
 * With an empty prefix, every `.json` beside it (lib/cache/replay.ts's kept runs).
 * Failures are ignored.
 */
export async function pruneOtherBuilds(path: string, prefix: string, keep = 3): Promise<void> {
  const dir = dirname(path);
  const others: { path: string; at: number }[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      const other = join(dir, e.name);
      if (!e.name.startsWith(prefix) || !e.name.endsWith(".json") || other === path) continue;
      others.push({ path: other, at: (await Deno.stat(other).catch(() => undefined))?.mtime?.getTime() ?? 0 });
    }
  } catch {
    return;
  }
  others.sort((a, b) => b.at - a.at);
  for (const { path: old } of others.slice(keep)) await Deno.remove(old).catch(() => {});
}

/** The build identity (computed once per process). */
export function buildIdentity(): Promise<string> {
  memo ??= (async () => {
    const code = codeStamp();
    const { engineIdentities } = await import("../identity/engines.ts");
    const engines = await engineIdentities();
    const enginesLine = Object.keys(engines).sort().map((id) => `${id}=${engines[id].version}#${engines[id].digest}`);
    const fields = [VERSION, BUILD_ID, CHANNEL, digestOf(code.join("\n")), digestOf(enginesLine.join("\n"))];
    return digestOf(JSON.stringify(fields)).slice(0, 32);
  })();
  return memo;
}
