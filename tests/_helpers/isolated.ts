/**
 * Runs a test body in its own Deno process with a changed environment. The test
 * runner's modules share one process (`deno test --parallel` runs them side by
 * side), so a test that empties `PATH` in its own process would make every other
 * module's concurrent tests fail to start their host tools. This runs `code` (a
 * module; `REPO` is defined in it, and it must print one JSON value on stdout)
 * with `env` on top of the current environment, and returns that value.
 *
 * @module
 */
import { join } from "node:path";
import { REPO } from "./cli.ts";
import { tempFile } from "./temp.ts";

/** Runs `code` in a fresh process with `env` set; returns the JSON it printed. */
export async function inProcessWith(env: Record<string, string>, code: string): Promise<unknown> {
  const file = await tempFile({ prefix: "poly-isolated-", suffix: ".ts" });
  try {
    await Deno.writeTextFile(file, `const REPO = ${JSON.stringify(REPO)};\n${code}\n`);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-q", "-P=test", "--no-prompt", "--config", join(REPO, "deno.json"), file],
      env,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    if (out.code !== 0) {
      throw new Error(`isolated test body failed (exit ${out.code}):\n${new TextDecoder().decode(out.stderr)}`);
    }
    return JSON.parse(stdout);
  } finally {
    await Deno.remove(file).catch(() => {});
  }
}
