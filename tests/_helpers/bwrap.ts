/**
 * Whether bubblewrap can run a sandbox on this machine, probed once per test
 * process: `bwrap` on PATH, and a trivial sandbox with the namespaces poly's
 * sandboxes use actually starting (`true` inside it exits 0). A machine without
 * bubblewrap, or whose kernel refuses its namespaces, ignores the tests that need
 * it, with the reason, instead of failing them; CI installs it, so they run there.
 *
 * `POLY_TEST_NO_BWRAP=1` makes the probe answer "cannot" (to check those tests
 * are ignored on a machine that has bubblewrap).
 *
 * ```ts
 * import { bwrapTest } from "../_helpers/bwrap.ts";
 * bwrapTest("delegate runs in the sandbox", async () => {});
 * ```
 *
 * @module
 */
import { delimiter, join } from "node:path";

/** The probe's sandbox: the namespaces and options lib/fleet/sandbox.ts and lib/gateway/sandbox.ts use. */
export const PROBE_ARGS: readonly string[] = [
  "--ro-bind",
  "/",
  "/",
  "--proc",
  "/proc",
  "--dev",
  "/dev",
  "--unshare-pid",
  "--unshare-ipc",
  "--unshare-uts",
  "--die-with-parent",
  "--new-session",
  "true",
];

/** Why bubblewrap cannot run a sandbox here (a sentence), or undefined when it can. */
export async function probeBwrap(env: (name: string) => string | undefined = (n) => Deno.env.get(n)): Promise<
  string | undefined
> {
  if (env("POLY_TEST_NO_BWRAP") === "1") return "POLY_TEST_NO_BWRAP=1 is set";
  const bwrap = await onPath("bwrap", env("PATH") ?? "");
  if (!bwrap) return "bubblewrap (bwrap) is not on PATH (Debian and Ubuntu: apt install bubblewrap)";
  try {
    const out = await new Deno.Command(bwrap, { args: [...PROBE_ARGS], stdin: "null", stdout: "null", stderr: "piped" })
      .output();
    if (out.success) return undefined;
    const why = new TextDecoder().decode(out.stderr).trim().split("\n")[0] || `exit code ${out.code}`;
    return `${bwrap} cannot start a sandbox here: ${why}`;
  } catch (error) {
    return `${bwrap} cannot be started: ${error instanceof Error ? error.message : String(error)}`;
  }
}

async function onPath(name: string, path: string): Promise<string | undefined> {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, name);
    try {
      const info = await Deno.stat(candidate);
      if (info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Why bubblewrap cannot run here, probed once when this module loads; undefined when it can. */
export const BWRAP_UNUSABLE: string | undefined = await probeBwrap();

/** `ignore:` for a test that needs bubblewrap: true when it cannot run here ({@link BWRAP_UNUSABLE} says why). */
export const NO_BWRAP: boolean = BWRAP_UNUSABLE !== undefined;

/** A suffix for the name of a test ignored because bubblewrap cannot run here: says why ("" when it is not ignored). */
export function needsBwrap(ignored: boolean): string {
  return ignored ? ` (ignored: ${BWRAP_UNUSABLE ?? "bubblewrap cannot run here"})` : "";
}

/** A test body. */
type TestFn = (t: Deno.TestContext) => void | Promise<void>;

/**
 * `Deno.test` for a test that needs bubblewrap: the same test where bubblewrap can
 * run; elsewhere it is reported as ignored, the reason in its name (what
 * `deno test -q` shows).
 */
export function bwrapTest(name: string, fn: TestFn): void;
export function bwrapTest(name: string, options: Omit<Deno.TestDefinition, "name" | "fn">, fn: TestFn): void;
export function bwrapTest(
  name: string,
  optionsOrFn: Omit<Deno.TestDefinition, "name" | "fn"> | TestFn,
  maybeFn?: TestFn,
): void {
  const [options, fn] = typeof optionsOrFn === "function" ? [{}, optionsOrFn] : [optionsOrFn, maybeFn!];
  Deno.test({
    ...options,
    name: `${name}${needsBwrap(NO_BWRAP)}`,
    ignore: NO_BWRAP || options.ignore,
    fn,
  });
}
