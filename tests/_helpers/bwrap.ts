/**
 * Whether bubblewrap can run here, probed once per test process: tests that need
 * the real sandbox are ignored (with the reason) where it cannot, instead of
 * failing on a machine without user namespaces.
 *
 * @module
 */

let probe: Promise<boolean> | undefined;

/**
 * Whether `bwrap` is on PATH and can start a sandbox with a private PID namespace.
 *
 * @example
 * ```ts
 * const noBwrap = !(await canBwrap());
 * Deno.test({ name: `…${needsBwrap(noBwrap)}`, ignore: noBwrap, fn: async () => {} });
 * ```
 */
export function canBwrap(): Promise<boolean> {
  probe ??= (async () => {
    try {
      const out = await new Deno.Command("bwrap", {
        args: ["--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--unshare-pid", "--die-with-parent", "true"],
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).output();
      return out.success;
    } catch {
      return false;
    }
  })();
  return probe;
}

/** A suffix for the name of a test ignored because bubblewrap cannot run: says why. */
export function needsBwrap(ignored: boolean): string {
  return ignored ? " (ignored: bubblewrap cannot run here)" : "";
}

const usable = await canBwrap();

/**
 * `Deno.test` for a test that needs the real sandbox: ignored, with the reason in its name, where
 * bubblewrap cannot run.
 */
export function bwrapTest(name: string, fn: (t: Deno.TestContext) => void | Promise<void>): void {
  Deno.test({ name: `${name}${needsBwrap(!usable)}`, ignore: !usable, fn });
}
