/**
 * A read-level call never writes in the workspace: over `poly mcp --http`, a
 * viewer's read token cannot make `bridge_stats` write a file (it has no
 * `export` argument any more), nor call `bridge_stats_export`, which is
 * act-level; an act token writes a new report, refuses to replace a file unless
 * asked, and never touches `.git/` or poly's own config even when asked.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { connect, memberWithToken, startHttp } from "./_server.ts";
import { tempDir } from "../../_helpers/temp.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

interface Result {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

const text = (r: Result) => r.content.find((c) => c.type === "text")?.text ?? "";

/** The files of the workspace a hostile export went after, and their content now. */
const TARGETS = ["src/b.ts", "poly.toml", ".git/HEAD"];

const outside = await tempDir({ prefix: "poly-http-outside-" });

async function workspace(): Promise<string> {
  const root = await tempDir({ prefix: "poly-http-export-" });
  await Deno.symlink(outside, join(root, "out"));
  await Deno.mkdir(join(root, "src"));
  await Deno.mkdir(join(root, ".git"));
  await Deno.writeTextFile(join(root, "src", "b.ts"), "export const b = 1;\n");
  await Deno.writeTextFile(join(root, "poly.toml"), "[defaults]\nline_length = 100\n");
  await Deno.writeTextFile(join(root, ".git", "HEAD"), "ref: refs/heads/main\n");
  return root;
}

async function contents(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of TARGETS) out[path] = await Deno.readTextFile(join(root, path));
  return out;
}

/** Either a protocol error (the SDK rejects) or a tool error: refused either way, with its text. */
async function refused(call: Promise<unknown>): Promise<string> {
  let r: Result;
  try {
    r = await call as Result;
  } catch (e) {
    return (e as Error).message;
  }
  assert.equal(r.isError, true, `expected a refusal, got ${text(r)}`);
  const error = r.structuredContent?.error as { message?: string } | undefined;
  return error?.message ?? text(r);
}

Deno.test(
  "poly mcp --http: a read token cannot write through bridge_stats; bridge_stats_export is act-level",
  opts,
  async (t) => {
    const root = await workspace();
    const before = await contents(root);
    const server = await startHttp({ root });
    try {
      await t.step("a viewer's read token: bridge_stats with export is refused and nothing is written", async () => {
        const token = memberWithToken(server.access, "vera", "viewer", { access: "read" });
        const client = await connect(server.url, token);
        for (const path of TARGETS) {
          const why = await refused(client.callTool({ name: "bridge_stats", arguments: { export: path } }));
          assert.match(why, /export/, path);
        }
        const plain = await client.callTool({ name: "bridge_stats", arguments: {} }) as Result;
        assert.equal(plain.isError, false, text(plain));
        assert.equal(plain.structuredContent?.export_path, undefined);
        for (const path of TARGETS) {
          const why = await refused(
            client.callTool({ name: "bridge_stats_export", arguments: { path, overwrite: true } }),
          );
          assert.match(why, /"bridge_stats_export" needs act access/, path);
        }
        assert.deepEqual(await contents(root), before, "no file changed");
        await assert.rejects(Deno.stat(join(root, "research")), Deno.errors.NotFound);
        await client.close();
      });

      await t.step("a member's read token is refused the export too", async () => {
        const token = memberWithToken(server.access, "rob", "member", { access: "read" });
        const client = await connect(server.url, token);
        const why = await refused(client.callTool({ name: "bridge_stats_export", arguments: {} }));
        assert.match(why, /needs act access: the token has read access/);
        await assert.rejects(Deno.stat(join(root, "research")), Deno.errors.NotFound);
        await client.close();
      });

      await t.step(
        "an act token writes a new report, and refuses existing files, .git/ and poly's config",
        async () => {
          const token = memberWithToken(server.access, "ana", "member", { access: "act" });
          const client = await connect(server.url, token);
          const ok = await client.callTool({ name: "bridge_stats_export", arguments: {} }) as Result;
          assert.equal(ok.isError, false, text(ok));
          const path = String(ok.structuredContent?.export_path);
          assert.match(path, /^research\/bench\/\d{4}-\d{2}-\d{2}-ratings\.md$/);
          assert.match(await Deno.readTextFile(join(root, path)), /^# poly fleet statistics/);

          const again = await refused(client.callTool({ name: "bridge_stats_export", arguments: {} }));
          assert.match(again, /already exists.*overwrite: true/);
          const replaced = await client.callTool({
            name: "bridge_stats_export",
            arguments: { overwrite: true },
          }) as Result;
          assert.equal(replaced.isError, false, text(replaced));

          const existing = await refused(
            client.callTool({ name: "bridge_stats_export", arguments: { path: "src/b.ts" } }),
          );
          assert.match(existing, /"src\/b\.ts" already exists/);
          for (const path of ["poly.toml", ".git/HEAD", ".poly/x.md", "poly.local.toml", "src/poly-config.lock"]) {
            const why = await refused(
              client.callTool({ name: "bridge_stats_export", arguments: { path, overwrite: true } }),
            );
            assert.match(why, /never writes/, path);
          }
          for (const path of ["../escape.md", "out/report.md"]) {
            const why = await refused(
              client.callTool({ name: "bridge_stats_export", arguments: { path, overwrite: true } }),
            );
            assert.match(why, /outside the workspace root/, path);
          }
          await assert.rejects(Deno.stat(join(outside, "report.md")), Deno.errors.NotFound);
          assert.deepEqual(await contents(root), before, "no existing file changed");
          await client.close();
        },
      );
    } finally {
      await server.stop();
    }
  },
);
