/**
 * The agent hook's per-session memory: which nudges already fired. One small
 * JSON file per session in the OS temporary directory, written atomically and
 * without locks (a hook must never wait on a lock; two parallel tool calls racing
 * can at worst fire one nudge twice).
 *
 * @module
 */
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../../fs/atomic.ts";

/** File name prefix of the dedup files (`poly-hook-<session>.json`). */
export const STATE_PREFIX = "poly-hook-";

/** FNV-1a, 32 bits: keeps sanitised session ids that differ only in punctuation apart. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

/** The dedup file of a session inside `dir`. */
export function statePath(dir: string, sessionId: string): string {
  const safe = sessionId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 96);
  const suffix = safe === sessionId ? "" : `-${fnv1a(sessionId)}`;
  return join(dir, `${STATE_PREFIX}${safe}${suffix}.json`);
}

/** The keys already fired in a session; empty when the file is missing or unreadable. */
export async function loadSeen(path: string): Promise<Set<string>> {
  try {
    const parsed = JSON.parse(await Deno.readTextFile(path));
    const list = Array.isArray(parsed) ? parsed : parsed?.seen;
    return new Set(Array.isArray(list) ? list.filter((k): k is string => typeof k === "string") : []);
  } catch {
    return new Set();
  }
}

/** Saves the keys (mode 0600). Throws on failure; callers decide whether that matters. */
export async function saveSeen(path: string, seen: ReadonlySet<string>): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFileAtomic(path, JSON.stringify({ v: 1, seen: [...seen].sort() }) + "\n", { mode: 0o600 });
}
