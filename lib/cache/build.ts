/**
 * The build identity in every cache key: one value that changes whenever poly's
 * code or any in-process engine changes, so cache entries are never reused across
 * builds (a bug users of the original tool reported).
 *
 * It is SHA-256 over: the version, build id and channel; the code's digest; and
 * the engines digest (SHA-256 over each in-process/bundled engine's module bytes,
 * see `lib/identity/engines.ts`). The code's digest is over the bytes of the
 * files of the code stamp — for a compiled binary the executable, run from
 * source every source file of poly (`main.ts`, `deno.json`, `deno.lock`, `lib/`,
 * `tools/`, by path in the checkout) — each hashed once and then remembered by
 * its size and mtime (`codeDigest`): editing any of them starts a fresh cache,
 * and the same program on another machine, or in another folder, makes the same
 * keys (a remote cache, a cache home kept by CI, are shared by content).
 *
 * @module
 */
import { dirname, join } from "node:path";
import { BUILD_ID, CHANNEL, VERSION } from "../identity/build.ts";
import { cacheHome } from "../paths/mod.ts";
import { writeFileAtomic } from "../fs/atomic.ts";
import { codeStamp, sourceRoot } from "../identity/code.ts";
import { codeDigest } from "../identity/digests.ts";
import { digestOf } from "./digest.ts";

export { codeStamp, sourceStamp } from "../identity/code.ts";

let memo: Promise<string> | undefined;
let code: Promise<string> | undefined;

/**
 * SHA-256 over the version, build id, channel and the code's digest (computed
 * once per process): poly's own code, without the engines' module digests. Memos
 * of what poly derives from its own files (parsed rule files, the engines' module
 * lists, a configuration's validation) are keyed by it: by content, so a cache
 * home kept by CI serves another copy of the same program (a stamp's inodes would
 * not); it costs the code stamp and the digest memo's lookups, where
 * {@link buildIdentity} also stats every engine module.
 */
export function codeIdentity(): Promise<string> {
  code ??= codeContent().then((content) => digestOf([VERSION, BUILD_ID, CHANNEL, content].join("\n")));
  return code;
}

let content: Promise<string> | undefined;

/** The digest of poly's code by content ({@link codeDigest} of the code stamp; computed once per process). */
function codeContent(): Promise<string> {
  content ??= codeDigest(codeStamp(), Deno.build.standalone ? undefined : sourceRoot());
  return content;
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
    const { engineIdentities } = await import("../identity/engines.ts");
    const code = await codeContent();
    const engines = await engineIdentities();
    const enginesLine = Object.keys(engines).sort().map((id) => `${id}=${engines[id].version}#${engines[id].digest}`);
    const fields = [VERSION, BUILD_ID, CHANNEL, code, digestOf(enginesLine.join("\n"))];
    return digestOf(JSON.stringify(fields)).slice(0, 32);
  })();
  return memo;
}
