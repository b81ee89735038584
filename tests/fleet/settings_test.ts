/**
 * Settings: defaults (the seed's ladder), `[fleet]` in poly.toml, environment
 * variables over both; the `[fleet]` schema is strict.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FleetSection } from "../../lib/fleet/config.ts";
import { envFrom } from "../../lib/fleet/env.ts";
import { resolveSettings } from "../../lib/fleet/settings.ts";
import { DEFAULT_LEVELS } from "../../lib/fleet/defaults.ts";
import { openFleet } from "../../lib/fleet/context.ts";
import { openStore } from "../../lib/store/mod.ts";
import { tempDir } from "../_helpers/temp.ts";

Deno.test("resolveSettings() defaults to the seed's ladder, bwrap on, 30 minutes", () => {
  const s = resolveSettings({ env: envFrom({ HOME: "/h" }) });
  assert.deepEqual(s.levels, DEFAULT_LEVELS);
  assert.equal(s.sandbox, true);
  assert.equal(s.timeoutMs, 1_800_000);
  assert.equal(s.enableCursor, false);
  assert.deepEqual(s.bins, {
    codex: "codex",
    claude: "claude",
    grok: "grok",
    opencode: "opencode",
    cursor: "cursor-agent",
  });
  assert.deepEqual(s.fast.map((c) => [c.engine, c.model, c.paid ?? false]), [
    ["codex", "gpt-6-luna", false],
    ["claude", "claude-haiku-5-5", false],
    ["opencode", "openrouter/inception/mercury-2", true],
  ]);
});

Deno.test("environment variables win over [fleet], which wins over defaults", () => {
  const section = FleetSection.parse({
    sandbox: "off",
    timeout_ms: 1000,
    enable_cursor: true,
    explore_model: "toml-explore",
    engines: { codex: { bin: "/opt/codex" } },
    openrouter_base_url: "https://example.test/v1/",
  });
  const fromToml = resolveSettings({ section, env: envFrom({ HOME: "/h" }) });
  assert.deepEqual(
    [fromToml.sandbox, fromToml.timeoutMs, fromToml.enableCursor, fromToml.exploreModel, fromToml.bins.codex],
    [false, 1000, true, "toml-explore", "/opt/codex"],
  );
  assert.equal(fromToml.openrouterBaseUrl, "https://example.test/v1");
  const env = envFrom({
    HOME: "/h",
    POLY_SANDBOX: "bwrap",
    POLY_TIMEOUT_MS: "2500",
    POLY_ENABLE_CURSOR: "0",
    POLY_EXPLORE_MODEL: "env-explore",
    POLY_CODEX_BIN: "/env/codex",
    POLY_AGENT_PATHS: "/a:/b",
  });
  const s = resolveSettings({ section, env });
  assert.deepEqual([s.sandbox, s.timeoutMs, s.enableCursor, s.exploreModel, s.bins.codex], [
    true,
    2500,
    false,
    "env-explore",
    "/env/codex",
  ]);
  assert.deepEqual(s.agentPaths, ["/a", "/b"]);
  for (const off of ["off", "0", "false", "no"]) {
    assert.equal(resolveSettings({ env: envFrom({ POLY_SANDBOX: off }) }).sandbox, false);
  }
  // Anything else keeps the sandbox on: turning it off is always explicit.
  assert.equal(resolveSettings({ env: envFrom({ POLY_SANDBOX: "maybe" }) }).sandbox, true);
});

Deno.test("the [fleet] schema rejects unknown keys and bad values", () => {
  assert.equal(FleetSection.safeParse({ sandbx: "off" }).success, false);
  assert.equal(FleetSection.safeParse({ levels: { "6": { engine: "codex" } } }).success, false);
  assert.equal(FleetSection.safeParse({ levels: { "1": { engine: "gemini" } } }).success, false);
  assert.equal(FleetSection.safeParse({ tools: { delegate: { engine: "codex" } } }).success, false);
  assert.equal(FleetSection.safeParse({ fast: [] }).success, false);
  assert.equal(
    FleetSection.safeParse({ levels: { "1": { engine: "codex", model: "m", effort: "max" } } }).success,
    true,
  );
});

Deno.test("openFleet() reads [fleet] from the poly.toml governing the root", async () => {
  const root = await tempDir();
  await Deno.writeTextFile(
    join(root, "poly.toml"),
    '[fleet]\ntimeout_ms = 4242\nagent_paths = ["personas"]\n\n[fleet.levels.2]\nengine = "grok"\nmodel = "grok-4.6"\n',
  );
  const ctx = await openFleet({ root, env: envFrom({ HOME: root }), db: openStore({ path: ":memory:" }) });
  assert.equal(ctx.settings.timeoutMs, 4242);
  assert.deepEqual(ctx.settings.levels[2], { engine: "grok", model: "grok-4.6" });
  assert.deepEqual(ctx.settings.agentPaths, [join(root, "personas")]);
});

Deno.test("an invalid [fleet] section is a config error naming the file", async () => {
  const root = await tempDir();
  await Deno.writeTextFile(join(root, "poly.toml"), '[fleet]\nsandbx = "off"\n');
  await assert.rejects(
    openFleet({ root, env: envFrom({ HOME: root }), db: openStore({ path: ":memory:" }) }),
    (e: Error) => e.message.includes("poly.toml") && e.message.includes("sandbx"),
  );
});
