/**
 * Golden pairs for the agent hook: every `fixtures/hooks/<case>/input.json` (a
 * host hook event; `${FIXTURE}` stands for the case's directory) is answered by
 * `runAgentHook` with the case's `env.json` as the whole environment and its
 * `seen.json` as the session's dedup state; the answer must equal
 * `tests/hooks/golden/<case>.json`. Regenerate with POLY_UPDATE_GOLDEN=1.
 */
import { equal } from "node:assert/strict";
import { join } from "node:path";
import { assertGolden, REPO } from "../_helpers/cli.ts";
import { runAgentHook, saveSeen, statePath } from "../../lib/hooks/mod.ts";
import { tempDir } from "../_helpers/temp.ts";

const FIXTURES = join(REPO, "fixtures", "hooks");
const GOLDEN = join(REPO, "tests", "hooks", "golden");

async function readJson<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await Deno.readTextFile(path)) as T;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

const cases: string[] = [];
for await (const entry of Deno.readDir(FIXTURES)) {
  if (entry.isDirectory && !entry.name.startsWith("claude-md")) cases.push(entry.name);
}
cases.sort();

Deno.test("agent hook fixtures cover every event and mode", () => {
  for (const prefix of ["pretooluse-", "sessionstart", "subagentstart-", "userpromptsubmit-", "malformed-"]) {
    equal(cases.some((c) => c.startsWith(prefix)), true, `no fixture case starts with ${prefix}`);
  }
  for (const mode of ["nudge", "off"]) equal(cases.some((c) => c.endsWith(`-${mode}`)), true, `no ${mode} case`);
});

for (const name of cases) {
  Deno.test(`runAgentHook() answers fixture ${name} as its golden file says`, async () => {
    const dir = join(FIXTURES, name);
    const input = (await Deno.readTextFile(join(dir, "input.json"))).replaceAll("${FIXTURE}", dir);
    const env = (await readJson<Record<string, string>>(join(dir, "env.json"))) ?? {};
    const seen = await readJson<string[]>(join(dir, "seen.json"));
    const stateDir = await tempDir({ prefix: "poly-hook-golden-" });
    try {
      if (seen) await saveSeen(statePath(stateDir, "golden-session"), new Set(seen));
      const result = await runAgentHook(input, { env: (k) => env[k], stateDir });
      const output = result.stdout === "" ? null : JSON.parse(result.stdout);
      if (result.stdout !== "") equal(result.stdout.endsWith("}\n"), true, "one JSON document and a newline");
      const text = JSON.stringify({ output }, null, 2).replaceAll(dir, "${FIXTURE}") + "\n";
      await assertGolden(join(GOLDEN, `${name}.json`), text);
    } finally {
      await Deno.remove(stateDir, { recursive: true });
    }
  });
}
