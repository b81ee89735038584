/**
 * The workspace a real `poly mcp` process serves: the MCP roots its client
 * offers (refreshed on `notifications/roots/list_changed`), else `--root DIR`,
 * else the directory it starts in; a path outside every root is refused.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { copyFixture } from "../_helpers/cli.ts";
import { startServer } from "./_client.ts";
import { sharedSnapshot } from "./_snapshot.ts";
import { tempDir } from "../_helpers/temp.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

interface ReportLike {
  results: { path: string; diagnostics?: { code?: string }[]; error?: string }[];
  errors: { path: string; message: string }[];
  summary: { checked: number };
}

/** A project with one lint finding in `src/<name>.py` (F401, an unused import). */
async function project(name: string): Promise<string> {
  const dir = await copyFixture("workspace/mcp");
  await Deno.writeTextFile(join(dir, "src", `${name}.py`), "import sys\n");
  return await Deno.realPath(dir);
}

function flagged(report: ReportLike): string[] {
  return report.results.filter((r) => r.diagnostics?.some((d) => d.code === "F401")).map((r) => r.path).sort();
}

Deno.test("poly mcp uses the client's roots as the workspace and follows roots/list_changed", opts, async () => {
  const snap = await sharedSnapshot();
  // Started elsewhere, as a host starts a server registered from poly's checkout.
  const elsewhere = await Deno.realPath(await tempDir({ prefix: "poly-elsewhere-" }));
  const first = await project("first");
  const second = await project("second");
  let roots: { uri: string; name?: string }[] = [{ uri: pathToFileURL(first).href, name: "first" }];
  const server = await startServer({ cwd: elsewhere, command: snap.command, tasks: false, roots: () => roots });
  const lint = async (args: Record<string, unknown>) =>
    (await server.client.callTool({ name: "lint", arguments: args })) as unknown as {
      structuredContent: ReportLike;
      isError?: boolean;
    };
  try {
    const r1 = await lint({ paths: ["src"] });
    assert.ok(flagged(r1.structuredContent).includes("src/first.py"), JSON.stringify(r1.structuredContent.errors));
    assert.ok(r1.structuredContent.summary.checked > 0);

    // A path outside every root — the directory the server started in among them — is refused.
    await Deno.writeTextFile(join(elsewhere, "x.py"), "import os\n");
    const outside = await lint({ paths: [join(elsewhere, "x.py")] });
    assert.equal(outside.isError, true);
    assert.match(outside.structuredContent.errors[0].message, /is outside the workspace root/);

    roots = [{ uri: pathToFileURL(second).href, name: "second" }];
    await server.client.sendRootsListChanged();
    // The refresh is asynchronous; the next call waits for a pending roots/list.
    let r2 = await lint({ paths: ["src"] });
    for (let i = 0; i < 20 && !flagged(r2.structuredContent).includes("src/second.py"); i++) {
      await new Promise((r) => setTimeout(r, 100));
      r2 = await lint({ paths: ["src"] });
    }
    assert.deepEqual(flagged(r2.structuredContent).filter((p) => /first|second/.test(p)), ["src/second.py"]);
    const old = await lint({ paths: [join(first, "src", "first.py")] });
    assert.equal(old.isError, true, "the old root is no longer served");

    // Two roots: a relative path is in the first, an absolute one may be in either.
    roots = [{ uri: pathToFileURL(second).href }, { uri: pathToFileURL(first).href }];
    await server.client.sendRootsListChanged();
    await new Promise((r) => setTimeout(r, 300));
    const both = await lint({ paths: [join(first, "src", "first.py")] });
    assert.equal(both.isError, false, JSON.stringify(both.structuredContent.errors));
    assert.deepEqual(flagged(both.structuredContent), ["src/first.py"]);
  } finally {
    await server.close();
  }
});

Deno.test("poly mcp --root DIR serves DIR to a client without roots; the cwd stays the default", opts, async () => {
  const snap = await sharedSnapshot();
  const elsewhere = await Deno.realPath(await tempDir({ prefix: "poly-elsewhere-" }));
  const served = await project("served");
  const server = await startServer({ cwd: elsewhere, command: snap.command, tasks: false, args: ["--root", served] });
  try {
    const r = (await server.client.callTool({ name: "lint", arguments: { paths: ["src"] } })) as unknown as {
      structuredContent: ReportLike;
    };
    assert.ok(flagged(r.structuredContent).includes("src/served.py"), JSON.stringify(r.structuredContent.errors));
  } finally {
    await server.close();
  }
  const plain = await startServer({ cwd: served, command: snap.command, tasks: false });
  try {
    const r = (await plain.client.callTool({ name: "lint", arguments: { paths: ["src"] } })) as unknown as {
      structuredContent: ReportLike;
    };
    assert.ok(flagged(r.structuredContent).includes("src/served.py"));
  } finally {
    await plain.close();
  }
});
