/**
 * Argument vectors per engine and per level, as golden files (the bwrap vector:
 * tests/sandbox/bwrap_test.ts) (`POLY_UPDATE_GOLDEN=1` rewrites them; review the diff).
 */
import { join } from "node:path";
import { assertGolden } from "../_helpers/cli.ts";
import { ADAPTERS } from "../../lib/fleet/engines/mod.ts";
import type { BuildOptions } from "../../lib/fleet/engines/mod.ts";
import { DEFAULT_LEVELS } from "../../lib/fleet/defaults.ts";
import { ENGINES, LEVELS } from "../../lib/fleet/types.ts";
import { resolveDelegateTier } from "../../lib/fleet/ops/delegate.ts";
import { TERSE_STYLE } from "../../lib/fleet/prompts.ts";

const GOLDEN = join(import.meta.dirname!, "golden");

function render(cases: [string, string[]][]): string {
  return cases.map(([name, args]) => `## ${name}\n${args.map((a) => `  ${JSON.stringify(a)}`).join("\n")}\n`).join(
    "\n",
  );
}

const base: BuildOptions = {
  prompt: "Fix the failing test in src/app.ts",
  readOnly: false,
  web: false,
  sandboxed: true,
};

Deno.test("argv per level matches the golden file (sandboxed and not)", async () => {
  const cases: [string, string[]][] = [];
  for (const level of LEVELS) {
    const tier = resolveDelegateTier({ ...DEFAULT_LEVELS }, { level });
    for (const sandboxed of [true, false]) {
      const a = ADAPTERS[tier.engine];
      cases.push([
        `level ${level}: ${tier.engine} ${tier.model} ${tier.effort}${sandboxed ? "" : " (POLY_SANDBOX=off)"}`,
        a.buildArgs({ ...base, model: tier.model, effort: tier.effort, system: TERSE_STYLE, sandboxed }),
      ]);
    }
  }
  const explicit = resolveDelegateTier({ ...DEFAULT_LEVELS }, { level: 2, engine: "grok" });
  cases.push([
    "level 2 with engine grok (model and effort from the call only)",
    ADAPTERS.grok.buildArgs({ ...base, ...explicit }),
  ]);
  await assertGolden(join(GOLDEN, "argv", "levels.txt"), render(cases));
});

for (const engine of ENGINES) {
  Deno.test(`argv of ${engine} matches the golden file`, async () => {
    const a = ADAPTERS[engine];
    const model = engine === "opencode" ? "openrouter/inception/mercury-2" : "some-model";
    const cases: [string, string[]][] = [
      ["full access, sandboxed", a.buildArgs({ ...base, model, effort: "high" })],
      ["full access, sandbox off", a.buildArgs({ ...base, model, sandboxed: false })],
      ["read-only, sandboxed", a.buildArgs({ ...base, readOnly: true })],
      ["read-only, sandbox off", a.buildArgs({ ...base, readOnly: true, sandboxed: false })],
      ["web search, read-only", a.buildArgs({ ...base, readOnly: true, web: true })],
      [
        "resume",
        a.buildArgs({ ...base, resume: "0199a213-81c0-7800-8aa1-bbab2a035a53", prompt: "And the other test?" }),
      ],
      ["persona", a.buildArgs({ ...base, system: 'You are a strict "reviewer".\nCite lines.' })],
      ["prompt starting with a dash", a.buildArgs({ ...base, prompt: "--help is broken" })],
    ];
    if (engine === "codex") cases.push(["input images", a.buildArgs({ ...base, images: ["/ws/a.png", "/ws/b.png"] })]);
    await assertGolden(join(GOLDEN, "argv", `${engine}.txt`), render(cases));
  });
}
