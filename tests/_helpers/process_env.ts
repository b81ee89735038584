/**
 * Tests that change the process's environment (`POLY_STATE_HOME`, `POLY_GATEWAY_PROFILE`, ...)
 * while calling code that reads it. `deno test --parallel` runs test modules side by side in
 * one process, so the environment is shared between them: such a test holds an exclusive lock
 * on one file for its whole body (`flock`, which separate opens in one process honour too), so
 * no other test holding it sees its variables, and restores them when done.
 *
 * @example
 * ```ts
 * await withProcessEnv({ POLY_GATEWAY_PROFILE: "reviewer" }, async () => {
 *   // ... calls that read the profile from the environment
 * });
 * ```
 *
 * @module
 */
import { join } from "node:path";

const LOCK = join(Deno.env.get("TMPDIR") ?? "/tmp", "poly-tests-process-env.lock");

/** Runs `body` holding the process-environment lock. */
async function holdingLock<T>(body: () => Promise<T> | T): Promise<T> {
  const file = await Deno.open(LOCK, { create: true, write: true });
  await file.lock(true);
  try {
    return await body();
  } finally {
    await file.unlock();
    file.close();
  }
}

/** Sets each of `vars` (undefined: removes it). */
function apply(vars: Record<string, string | undefined>): void {
  for (const [k, v] of Object.entries(vars)) v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
}

/** Runs `body` with `vars` set (undefined: removed), holding the process-environment lock; restores them after. */
export function withProcessEnv<T>(vars: Record<string, string | undefined>, body: () => Promise<T>): Promise<T> {
  return holdingLock(async () => {
    const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, Deno.env.get(k)]));
    try {
      apply(vars);
      return await body();
    } finally {
      apply(saved);
    }
  });
}

/**
 * Sets `vars` for the rest of the process (a test module's own homes, set as it loads), waiting
 * until no {@link withProcessEnv} body is running: a module loaded while another module's body
 * runs must not change the variables under it.
 */
export function setProcessEnv(vars: Record<string, string>): Promise<void> {
  return holdingLock(() => apply(vars));
}
