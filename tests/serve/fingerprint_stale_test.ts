/**
 * A long-lived server must not answer with superseded behaviour: once a module
 * it runs from is replaced on disk, every tool but `version` fails with a
 * message naming pid, version, build id and uptime and asking for a restart.
 * Done on a copy of the program, never on the repository itself.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyFixture } from "../_helpers/cli.ts";
import { writeFileAtomic } from "../../lib/fs/atomic.ts";
import { startServer } from "./_client.ts";
import { snapshotRepo } from "./_snapshot.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

const CALLS: [string, Record<string, unknown>][] = [
  ["lint", {}],
  ["format_check", {}],
  ["lint_fix", { paths: ["src/clean.py"] }],
  ["format_write", { paths: ["src/clean.py"] }],
  ["cache_stats", {}],
  ["cache_clean", {}],
  ["rules", {}],
  ["config_show", {}],
  ["workspace_lint", {}],
  ["workspace_lint_fix", {}],
];

Deno.test("replacing a module file underneath a running server makes every tool but version fail", opts, async () => {
  const snap = await snapshotRepo();
  const root = await copyFixture("workspace/mcp");
  const server = await startServer({ cwd: root, command: snap.command });
  try {
    const before = await server.client.callTool({ name: "config_show", arguments: {} });
    assert.equal(before.isError, false, "current before the change");
    const version0 = await server.client.callTool({ name: "version", arguments: {} });
    const pid = (version0.structuredContent as { pid: number }).pid;

    // An upgrade: a module the server loaded is replaced by a new file (new inode).
    const module = join(snap.dir, "lib", "run", "types.ts");
    await writeFileAtomic(module, (await Deno.readTextFile(module)) + "\n// upgraded\n");

    for (const [name, args] of CALLS) {
      const r = await server.client.callTool({ name, arguments: args }) as {
        isError?: boolean;
        content: { text: string }[];
        _meta?: { poly?: { pid: number } };
      };
      assert.equal(r.isError, true, `${name} refuses`);
      const text = r.content[0].text;
      assert.match(text, new RegExp(`pid ${pid}, version \\d+\\.\\d+\\.\\d+, build dev, up \\d+ s`), name);
      assert.match(text, /lib\/run\/types\.ts" was replaced/, name);
      assert.match(text, /Restart the MCP server/, name);
      assert.equal(r._meta?.poly?.pid, pid, `${name}: identity in _meta`);
    }
    assert.equal(await Deno.readTextFile(join(root, "src", "findings.py")), "import os\n\ndef f( x ):\n    return 1\n");

    const version = await server.client.callTool({ name: "version", arguments: {} });
    assert.equal(version.isError, false, "version still answers");
    const doc = version.structuredContent as {
      current: boolean;
      changed?: { path: string; change: string };
      pid: number;
    };
    assert.equal(doc.current, false);
    assert.deepEqual(doc.changed, { path: module, change: "replaced" });
    assert.equal(doc.pid, pid);
  } finally {
    await server.close();
  }
});
