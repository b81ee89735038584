/**
 * The one bubblewrap argument builder, as golden files (`POLY_UPDATE_GOLDEN=1`
 * rewrites them; review the diff): a fleet engine's sandbox (read-only and
 * read-write workspace) and a gateway stdio upstream's, and which of poly's homes
 * get an empty tmpfs.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { assertGolden } from "../_helpers/cli.ts";
import { bwrapArgs, exposedHomes, type SandboxSpec, workspaceHoldsHome } from "../../lib/sandbox/mod.ts";

const GOLDEN = join(import.meta.dirname!, "golden");

function render(cases: [string, string[]][]): string {
  return cases.map(([name, args]) => `## ${name}\n${args.map((a) => `  ${JSON.stringify(a)}`).join("\n")}\n`).join(
    "\n",
  );
}

const SYSTEM = [{ path: "/usr" }, { path: "/bin", symlink: "usr/bin" }, { path: "/lib", symlink: "usr/lib" }, {
  path: "/etc/ssl",
}];

/** A fleet engine's spec: auth binds under HOME, the engine's package, an extra bind, poly's homes. */
const fleet: SandboxSpec = {
  home: "/home/dev",
  workspace: "/home/dev/src/app",
  readOnly: true,
  system: SYSTEM,
  binds: [
    { path: "/home/dev/.cargo/bin", rw: false },
    { path: "/home/dev/.codex/auth.json", rw: true },
    { path: "/home/dev/.codex/sessions", rw: true },
    { path: "/home/dev/.npm-global/lib/node_modules/@openai/codex", rw: false },
    { path: "/srv/shared", rw: true },
  ],
  // Under HOME only (hidden by the empty HOME), and one inside the extra bind (needs its own tmpfs).
  hide: ["/home/dev/.local/state/poly", "/srv/shared/poly-cache"],
  env: { PATH: "/usr/bin:/bin", HOME: "/home/dev", TERM: "dumb", OPENAI_API_KEY: "k" },
};

Deno.test("bwrapArgs() for an engine matches the golden files (binds in order, workspace last)", async () => {
  await assertGolden(join(GOLDEN, "fleet-read-only.txt"), render([["codex explore", bwrapArgs(fleet)]]));
  const rw = { ...fleet, readOnly: false, binds: fleet.binds.slice(0, 4), hide: [] };
  await assertGolden(join(GOLDEN, "fleet-read-write.txt"), render([["codex delegate", bwrapArgs(rw)]]));
});

Deno.test("bwrapArgs() for a stdio upstream matches the golden file (its own home bound after poly's state is hidden)", async () => {
  const upstream: SandboxSpec = {
    home: "/home/dev",
    workspace: "/home/dev/src/mcp",
    readOnly: false,
    system: SYSTEM,
    binds: [{ path: "/opt/mcp/server.mjs", rw: false }, { path: "/home/dev/.config/gh", rw: false }],
    hide: ["/home/dev/.local/state/poly", "/home/dev/.cache/poly"],
    own: ["/home/dev/.local/state/poly/gateway/stdio/gh"],
    env: { PATH: "/usr/bin:/bin", HOME: "/home/dev/.local/state/poly/gateway/stdio/gh", GH_TOKEN: "t" },
  };
  await assertGolden(join(GOLDEN, "gateway-stdio.txt"), render([["stdio upstream gh", bwrapArgs(upstream)]]));
});

Deno.test("exposedHomes() covers a home under a bind, a bind inside a home, and the workspace; not one under HOME alone", () => {
  const spec: SandboxSpec = { ...fleet, binds: [{ path: "/srv", rw: true }, { path: "/var/poly/state/x", rw: false }] };
  assert.deepEqual(
    exposedHomes({
      ...spec,
      hide: ["/srv/poly", "/var/poly/state", "/home/dev/.cache/poly", "/home/dev/src/app/.poly"],
    }),
    ["/srv/poly", "/var/poly/state", "/home/dev/src/app/.poly"],
  );
  assert.deepEqual(exposedHomes({ ...spec, hide: ["/usr/local/poly"] }), ["/usr/local/poly"]);
});

Deno.test("workspaceHoldsHome() is true for the home and its parents only", () => {
  assert.equal(workspaceHoldsHome("/home/dev", "/home/dev"), true);
  assert.equal(workspaceHoldsHome("/home", "/home/dev"), true);
  assert.equal(workspaceHoldsHome("/home/dev/src", "/home/dev"), false);
  assert.equal(workspaceHoldsHome("/home/developer", "/home/dev"), false);
});
