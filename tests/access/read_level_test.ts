/**
 * A read-level call never writes in the workspace. Every tool declared `read`
 * (found from tools/mod.ts, so a new read tool must be added here) is called
 * through a real `poly mcp` process, the fleet's read tools with workers that try
 * to write, and the workspace is compared byte for byte, with modification times,
 * before and after.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { TOOLS } from "../../tools/mod.ts";
import { serverEnv, startServer } from "../serve/_client.ts";
import { sharedSnapshot } from "../serve/_snapshot.ts";
import { FAKE_PATH, makeHome } from "../fleet/_helpers.ts";
import { bwrapTest } from "../_helpers/bwrap.ts";
import { tempDir } from "../_helpers/temp.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

/** Arguments each read-level tool is called with (the fleet's ask the fake worker to write). */
const CALLS: Record<string, Record<string, unknown>> = {
  lint: { paths: ["a.py"] },
  format_check: { paths: ["a.py"] },
  cache_stats: {},
  rules: { test: true },
  config_show: {},
  version: {},
  explore: { question: "[[write]] where is x" },
  read_slice: { files: ["a.py"], want: "[[write]] x" },
  web_lookup: { query: "[[write]] deno" },
  bridge_stats: {},
  mcp_servers: {},
  mcp_describe: { target: "nowhere/tool" },
  mcp_read: { target: "nowhere/tool", schema_sha256: "0".repeat(64) },
  whoami: {},
  list_approvals: { status: "all" },
};

/** Every entry under `dir` with its kind, content and modification time. */
async function tree(dir: string, prefix = ""): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    const info = await Deno.lstat(path);
    const key = `${prefix}${e.name}`;
    if (e.isDirectory) {
      out[`${key}/`] = `dir ${info.mtime?.getTime()}`;
      Object.assign(out, await tree(path, `${key}/`));
    } else if (e.isSymlink) out[key] = `link ${await Deno.readLink(path)}`;
    else out[key] = `${info.mtime?.getTime()} ${await Deno.readTextFile(path)}`;
  }
  return out;
}

bwrapTest(
  "every read-level tool leaves the workspace untouched, even when its worker tries to write",
  opts,
  async () => {
    const reads = TOOLS.filter((t) => t.level === "read").map((t) => t.name);
    assert.deepEqual(reads.filter((n) => !(n in CALLS)), [], "a read-level tool has no arguments in CALLS");
    const root = await tempDir({ prefix: "poly-read-level-" });
    await Deno.mkdir(join(root, ".git"));
    await Deno.writeTextFile(join(root, ".git", "HEAD"), "ref: refs/heads/main\n");
    await Deno.writeTextFile(join(root, "poly.toml"), "[defaults]\nline_length = 100\n");
    await Deno.writeTextFile(join(root, "a.py"), "import os\nx = {  'a':1 }\n");
    const before = await tree(root);
    const env = await serverEnv({ HOME: await makeHome(), PATH: FAKE_PATH, POLY_TIMEOUT_MS: "60000" });
    const server = await startServer({ cwd: root, env, command: (await sharedSnapshot()).command });
    try {
      for (const name of reads) {
        const r = await server.client.callTool({ name, arguments: CALLS[name] });
        assert.ok(r.structuredContent || r.isError, `${name} answered`);
        assert.deepEqual(await tree(root), before, `${name} changed the workspace`);
      }
    } finally {
      await server.close();
    }
  },
);
