/**
 * Test helpers for the fleet: a fake HOME with auth and non-auth files, a
 * workspace, and a fleet context over an in-memory store whose engines are the
 * fake CLIs in `fixtures/fleet/bin`.
 *
 * @module
 */
import { join } from "node:path";
import { REPO } from "../_helpers/cli.ts";
import { openStore } from "../../lib/store/mod.ts";
import { envFrom } from "../../lib/fleet/env.ts";
import { resolveSettings } from "../../lib/fleet/settings.ts";
import { FleetStore } from "../../lib/fleet/store.ts";
import type { FleetContext } from "../../lib/fleet/context.ts";
import type { FleetSectionValue } from "../../lib/fleet/config.ts";
import { tempDir } from "../_helpers/temp.ts";

/** The fake engine CLIs. */
export const FAKE_BIN = join(REPO, "fixtures", "fleet", "bin");

/** A PATH with the fakes first, then the system. */
export const FAKE_PATH = `${FAKE_BIN}:/usr/local/bin:/usr/bin:/bin`;

/** A fake HOME: engine auth files, plus files no engine may see. */
export async function makeHome(): Promise<string> {
  const home = await tempDir({ prefix: "poly-fleet-home-" });
  const files: Record<string, string> = {
    ".codex/auth.json": '{"tokens":{"access_token":"fake"}}',
    ".codex/config.toml": '[mcp_servers.leak]\ncommand = "leak"\n',
    ".claude.json": '{"oauthAccount":{"emailAddress":"fake@example.com"}}',
    ".claude/.credentials.json": '{"claudeAiOauth":{"accessToken":"fake"}}',
    ".claude/settings.json": '{"hooks":{}}',
    ".grok/user-settings.json": '{"apiKey":"fake"}',
    ".ssh/id_ed25519": "not a real key",
    "secret-notes.txt": "private",
  };
  for (const [rel, text] of Object.entries(files)) {
    await Deno.mkdir(join(home, rel, ".."), { recursive: true });
    await Deno.writeTextFile(join(home, rel), text);
  }
  return home;
}

/** A workspace with a couple of files. */
export async function makeWorkspace(): Promise<string> {
  const dir = await tempDir({ prefix: "poly-fleet-ws-" });
  await Deno.writeTextFile(join(dir, "README.md"), "# demo\n");
  await Deno.mkdir(join(dir, "src"));
  await Deno.writeTextFile(join(dir, "src", "main.ts"), "export const answer = 42;\n");
  return dir;
}

/** Options for {@link fleetContext}. */
export interface ContextOptions {
  env?: Record<string, string | undefined>;
  section?: FleetSectionValue;
  home?: string;
  root?: string;
  sandbox?: boolean;
}

/** A fleet context over an in-memory store, the fakes, a fake HOME and a fresh workspace. */
export async function fleetContext(o: ContextOptions = {}): Promise<FleetContext & { home: string }> {
  const home = o.home ?? await makeHome();
  const root = o.root ?? await makeWorkspace();
  const env = envFrom({
    HOME: home,
    PATH: FAKE_PATH,
    USER: "tester",
    POLY_SANDBOX: o.sandbox === false ? "off" : "bwrap",
    POLY_TIMEOUT_MS: "20000",
    ...o.env,
  });
  const settings = resolveSettings({ section: o.section, configDir: root, env });
  return {
    settings,
    store: new FleetStore(openStore({ path: ":memory:" })),
    env,
    root,
    home,
  };
}

/** Awaits `p`, expecting a FleetError of `kind`; returns it. */
export async function fleetError(
  p: Promise<unknown>,
  kind: string,
): Promise<import("../../lib/fleet/errors.ts").FleetError> {
  const { FleetError } = await import("../../lib/fleet/errors.ts");
  try {
    await p;
  } catch (e) {
    if (e instanceof FleetError && e.kind === kind) return e;
    throw new Error(
      `expected a FleetError "${kind}", got ${e instanceof FleetError ? `"${e.kind}": ${e.message}` : e}`,
    );
  }
  throw new Error(`expected a FleetError "${kind}", but the call succeeded`);
}

/** Engine runs recorded in the store, oldest first. */
export function runs(ctx: FleetContext): { engine: string; tool: string; outcome: string }[] {
  return ctx.store.db.prepare("SELECT engine, tool, outcome FROM fleet_runs ORDER BY id").all().map((r) => ({
    engine: String(r.engine),
    tool: String(r.tool),
    outcome: String(r.outcome),
  }));
}
