/**
 * docs/install-agents.md: its read-only allowlists are exactly the read-level tools,
 * and the README and the plugin's README link to it.
 */
import assert from "node:assert/strict";
import { TOOLS } from "../../tools/mod.ts";

const root = new URL("../../", import.meta.url);
const read = (path: string) => Deno.readTextFile(new URL(path, root));

Deno.test("install-agents.md lists exactly the read-level tools as the read-only set, for Claude Code too", async () => {
  const doc = await read("docs/install-agents.md");
  const readLevel = TOOLS.filter((t) => t.level === "read").map((t) => t.name).sort();
  for (const t of TOOLS.filter((x) => x.level === "read")) assert.equal(t.annotations.readOnlyHint, true, t.name);
  const block = /\*\*Read-only\*\*[^`]*```text\n([\s\S]*?)```/.exec(doc);
  assert.ok(block, "the read-only block is there");
  const listed = block[1].split(/[,\s]+/).filter(Boolean).sort();
  assert.deepEqual(listed, readLevel);
  const claude = [...doc.matchAll(/"mcp__poly__([a-z_]+)"/g)].map((m) => m[1]).sort();
  assert.deepEqual(claude, readLevel, "the Claude Code allow list names the same tools");
  // The "everything" set names every other tool.
  const others = TOOLS.filter((t) => t.level !== "read").map((t) => t.name);
  for (const name of others) assert.match(doc, new RegExp("`" + name + "`"), name);
});

Deno.test("README and the plugin's README link to docs/install-agents.md", async () => {
  assert.match(await read("README.md"), /\]\(docs\/install-agents\.md\)/);
  assert.match(await read("plugin/README.md"), /\]\(\.\.\/docs\/install-agents\.md\)/);
});
