/**
 * allows(): the one decision of who may use which tool level.
 */
import assert from "node:assert/strict";
import { allowedLevels, allows, type Identity, refusalReason } from "../../lib/access/levels.ts";

const id = (role: string, access: string, approvals = false): Identity => ({ member: "m", role, access, approvals });

Deno.test("allows() follows the role, the token's access and its approvals switch", () => {
  const table: [Identity, string[]][] = [
    [id("member", "read"), ["read"]],
    [id("member", "act"), ["read", "act"]],
    [id("member", "read", true), ["read", "approve"]],
    [id("admin", "act", true), ["read", "act", "approve"]],
    [id("viewer", "act", true), ["read"]],
    [id("viewer", "read"), ["read"]],
    [id("owner?", "act", true), ["read"]],
  ];
  for (const [who, levels] of table) assert.deepEqual(allowedLevels(who), levels, JSON.stringify(who));
  assert.equal(allows(id("member", "approve" as string), "act"), false, "only act access acts");
});

Deno.test("refusalReason() names the reason a person can act on", () => {
  assert.match(refusalReason(id("viewer", "act"), "act"), /viewer/);
  assert.match(refusalReason(id("member", "read"), "act"), /read access; this tool needs act/);
  assert.match(refusalReason(id("member", "act"), "approve"), /approvals switch/);
});
