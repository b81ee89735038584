/**
 * The access tools over a server without tokens (stdio): the caller is the
 * owner, whoami says so, list_approvals reads, and approving is left to
 * people (poly approvals, poly dash).
 */
import assert from "node:assert/strict";
import { workspace } from "./_env.ts";
import { inProcess } from "../serve/_client.ts";

Deno.test("over stdio: whoami is the owner, approve_change and reject_change refuse", async () => {
  const root = await workspace({ "poly.toml": '[serve]\nrequire_approval = ["lint_fix"]\n' });
  const { client, close } = await inProcess({ root, fingerprint: false });
  try {
    const who = await client.callTool({ name: "whoami", arguments: {} });
    const { poly, ...whoDoc } = who.structuredContent as Record<string, unknown>;
    assert.deepEqual(poly, who._meta?.poly, "the identity block, as in _meta");
    assert.deepEqual(whoDoc, {
      transport: "stdio",
      member: null,
      role: "owner",
      access: "act",
      approvals: false,
      levels: ["read", "act"],
      require_approval: ["lint_fix"],
      root,
    });
    const list = await client.callTool({ name: "list_approvals", arguments: {} });
    assert.equal(list.isError, false);
    assert.deepEqual((list.structuredContent as { proposals: unknown[] }).proposals, []);
    for (const name of ["approve_change", "reject_change"]) {
      const r = await client.callTool({ name, arguments: { id: "prop_000000000000" } }) as {
        isError?: boolean;
        content: { text: string }[];
      };
      assert.equal(r.isError, true, name);
      assert.match(
        r.content[0].text,
        /for HTTP callers with an approvals token: the owner .* poly dash or with poly approvals/,
      );
    }
  } finally {
    await close();
  }
});
