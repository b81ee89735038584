/**
 * Argument vectors per engine and per level, and the bwrap vector, as golden
 * files (`POLY_UPDATE_GOLDEN=1` rewrites them; review the diff).
 */
import { join } from "node:path";
import { assertGolden } from "../_helpers/cli.ts";
import { ADAPTERS } from "../../lib/fleet/engines/mod.ts";
import type { BuildOptions } from "../../lib/fleet/engines/mod.ts";
import { DEFAULT_LEVELS } from "../../lib/fleet/defaults.ts";
import { bwrapArgs, type SandboxSpec } from "../../lib/fleet/sandbox.ts";
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

Deno.test("bwrap argv matches the golden file (read-only workspace, binds in order, workspace last)", async () => {
  const spec: SandboxSpec = {
    home: "/home/dev",
    workspace: "/home/dev/src/app",
    readOnly: true,
    system: [{ path: "/usr" }, { path: "/bin", symlink: "usr/bin" }, { path: "/lib", symlink: "usr/lib" }, {
      path: "/etc/ssl",
    }],
    homeBinds: [
      { path: "/home/dev/.cargo/bin", rw: false },
      { path: "/home/dev/.codex/auth.json", rw: true },
      { path: "/home/dev/.codex/sessions", rw: true },
    ],
    binaryDirs: ["/home/dev/.npm-global/lib/node_modules/@openai/codex"],
    extra: ["/srv/shared"],
    env: { PATH: "/usr/bin:/bin", HOME: "/home/dev", TERM: "dumb", OPENAI_API_KEY: "k" },
  };
  await assertGolden(join(GOLDEN, "bwrap", "read-only.txt"), render([["codex explore", bwrapArgs(spec)]]));
  await assertGolden(
    join(GOLDEN, "bwrap", "read-write.txt"),
    render([["codex delegate", bwrapArgs({ ...spec, readOnly: false, extra: [] })]]),
  );
});
