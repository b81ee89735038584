/**
 * The MCP tools that write (`format_write`, `lint_fix`) write inside the
 * workspace root only, after links are resolved: called with no paths on a root
 * that links to a folder (and a file) outside it, they leave the outside alone
 * and say so (`isError`, an errored record per file). Checked in-process and
 * once through a real `poly mcp` process. `workspace_lint_fix` finds no project
 * through a link.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Report } from "../../lib/report/schema.ts";
import { inProcess, startServer } from "../serve/_client.ts";
import { REPO } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/temp.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

const TOOLS = [
  { name: "format_write", before: "x = {'a':1}\n", after: 'x = {"a": 1}\n' },
  { name: "lint_fix", before: "import os\nimport sys\n\nprint(sys.argv)\n", after: "import sys\n\nprint(sys.argv)\n" },
];

async function tree(files: Record<string, string>): Promise<string> {
  const dir = await Deno.realPath(await tempDir({ prefix: "poly-tool-writes-" }));
  for (const [rel, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir, rel, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, rel), text);
  }
  return dir;
}

/** A root with its own file, a link to a folder outside it and a link to a file outside it. */
async function linkedRoot(before: string): Promise<{ root: string; outside: string }> {
  const outside = await tree({ "o.py": before, "lib/p.py": before });
  const root = await tree({ ".git/HEAD": "", "in.py": before });
  await Deno.symlink(join(outside, "lib"), join(root, "ext"));
  await Deno.symlink(join(outside, "o.py"), join(root, "f.py"));
  return { root, outside };
}

function assertRefusedOutside(report: Report, root: string, outside: string): void {
  const message = (path: string) => report.errors.find((e) => e.path === path)?.message ?? "";
  assert.match(message("ext/p.py"), /^not written: it resolves to ".*lib\/p\.py", outside "/);
  assert.ok(message("ext/p.py").includes(`outside "${root}"`), message("ext/p.py"));
  assert.ok(message("f.py").includes(`"${join(outside, "o.py")}", outside "${root}"`), message("f.py"));
  assert.equal(report.summary.errored, 2);
}

for (const tool of TOOLS) {
  Deno.test(
    `in-process: ${tool.name} with no paths never writes through a link to outside the root`,
    opts,
    async () => {
      const { root, outside } = await linkedRoot(tool.before);
      const { client, close } = await inProcess({ root, fingerprint: false });
      try {
        const result = await client.callTool({ name: tool.name, arguments: {} });
        assert.equal(result.isError, true);
        assertRefusedOutside(Report.parse(result.structuredContent), root, outside);
        assert.equal(await Deno.readTextFile(join(outside, "o.py")), tool.before);
        assert.equal(await Deno.readTextFile(join(outside, "lib", "p.py")), tool.before);
        assert.equal(await Deno.readTextFile(join(root, "in.py")), tool.after);
      } finally {
        await close();
      }
    },
  );
}

Deno.test("in-process: format_write refuses a named link that resolves outside the root", opts, async () => {
  const { root, outside } = await linkedRoot("x = {'a':1}\n");
  const { client, close } = await inProcess({ root, fingerprint: false });
  try {
    const result = await client.callTool({ name: "format_write", arguments: { paths: ["in.py"] } });
    assert.equal(result.isError, false);
    // A named path is checked against the root after its links are resolved, before anything runs.
    for (const path of ["ext", "f.py"]) {
      const named = await client.callTool({ name: "format_write", arguments: { paths: [path] } });
      assert.equal(named.isError, true, path);
      assert.equal(
        Report.parse(named.structuredContent).errors[0].message,
        `Path "${path}" is outside the workspace root "${root}": pass a path inside it`,
      );
    }
    assert.equal(await Deno.readTextFile(join(outside, "o.py")), "x = {'a':1}\n");
    assert.equal(await Deno.readTextFile(join(outside, "lib", "p.py")), "x = {'a':1}\n");
  } finally {
    await close();
  }
});

Deno.test("poly mcp: format_write with no paths never writes through a link to outside the root", opts, async () => {
  const { root, outside } = await linkedRoot("x = {'a':1}\n");
  const server = await startServer({ cwd: root });
  try {
    const result = await server.client.callTool({ name: "format_write", arguments: {} });
    assert.equal(result.isError, true);
    assertRefusedOutside(Report.parse(result.structuredContent), root, outside);
    assert.equal(await Deno.readTextFile(join(outside, "o.py")), "x = {'a':1}\n");
    assert.equal(await Deno.readTextFile(join(outside, "lib", "p.py")), "x = {'a':1}\n");
    assert.equal(await Deno.readTextFile(join(root, "in.py")), 'x = {"a": 1}\n');
  } finally {
    await server.close();
  }
});

Deno.test(
  "in-process: workspace_lint_fix does not enter a link to a Cargo project outside the root",
  opts,
  async () => {
    const outside = await tree({});
    await Deno.mkdir(join(outside, "rs", "src"), { recursive: true });
    for (const rel of ["Cargo.toml", "Cargo.lock", "src/main.rs"]) {
      await Deno.copyFile(join(REPO, "fixtures", "workspace", "mcp", "rs", rel), join(outside, "rs", rel));
    }
    const before = await Deno.readTextFile(join(outside, "rs", "src", "main.rs"));
    const root = await tree({ ".git/HEAD": "" });
    await Deno.symlink(join(outside, "rs"), join(root, "rs"));
    const { client, close } = await inProcess({ root, fingerprint: false });
    try {
      const result = await client.callTool({ name: "workspace_lint_fix", arguments: {} });
      const report = Report.parse(result.structuredContent);
      // The project walk does not follow directory links: no job runs (nor fixes) in the linked project.
      assert.deepEqual(report.workspace?.jobs, []);
      assert.equal(await Deno.readTextFile(join(outside, "rs", "src", "main.rs")), before);
    } finally {
      await close();
    }
  },
);
