/**
 * The [serve] section: strict, with defaults, read from the root's poly.toml.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { workspace } from "./_env.ts";
import { loadServeSection, ServeSection } from "../../lib/access/config.ts";

Deno.test("[serve] is strict and defaults to empty lists", () => {
  assert.deepEqual(ServeSection.parse({}), { require_approval: [], allowed_origins: [], allowed_hosts: [] });
  assert.equal(ServeSection.safeParse({ allowed_origin: [] }).success, false);
  assert.equal(ServeSection.safeParse({ allowed_origins: ["https://x.example/path"] }).success, false);
  assert.equal(ServeSection.safeParse({ allowed_hosts: ["x.example:8443", "[::1]"] }).success, true);
  assert.equal(ServeSection.safeParse({ require_approval: ["Lint Fix"] }).success, false);
});

Deno.test("loadServeSection() reads the root's poly.toml (and poly.local.toml over it)", async () => {
  const root = await workspace({
    "poly.toml": '[serve]\nrequire_approval = ["lint_fix"]\nallowed_hosts = ["a.example"]\n',
  });
  assert.deepEqual(await loadServeSection(root), {
    require_approval: ["lint_fix"],
    allowed_origins: [],
    allowed_hosts: ["a.example"],
  });
  await Deno.writeTextFile(join(root, "poly.local.toml"), '[serve]\nrequire_approval = ["lint_fix", "delegate"]\n');
  assert.deepEqual((await loadServeSection(root)).require_approval, ["lint_fix", "delegate"]);
  const bare = await workspace({});
  assert.deepEqual(await loadServeSection(bare), { require_approval: [], allowed_origins: [], allowed_hosts: [] });
});
