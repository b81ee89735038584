/**
 * Watching processes a test started (or that poly started for it) from outside: whether one still runs, waiting
 * for a condition, and making sure none outlives the test.
 */

/** Waits until `test` holds, checking every 50 ms; fails naming `what` after `ms`. */
export async function until(test: () => Promise<boolean>, what: string, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whether process `pid` exists (`kill -0`; Deno reads `/proc` only with every permission). */
export async function alive(pid: number): Promise<boolean> {
  return (await new Deno.Command("sh", { args: ["-c", `kill -0 ${pid} 2>/dev/null`] }).output()).code === 0;
}

/** SIGKILLs `pid` if it still runs (a test's last word: nothing it started goes on). */
export function killHard(pid: number): void {
  try {
    Deno.kill(pid, "SIGKILL");
  } catch {
    // ended already, as it should have
  }
}
