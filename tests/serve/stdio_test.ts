/**
 * `poly mcp` as a real process, spoken to by the SDK's own client over stdio:
 * the tool list, every tool's normal path (the whole-project phase over real
 * cargo clippy and go vet runs when those are installed), bad arguments, the
 * workspace-root guard, the three per-file outcomes and isError, TOON, and the
 * CLI/MCP equality.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyFixture } from "../_helpers/cli.ts";
import { TOOLS } from "../../tools/mod.ts";
import { Report } from "../../lib/report/schema.ts";
import { decode as decodeToon } from "@toon-format/toon";
import { serverEnv, startServer } from "./_client.ts";
import { sharedSnapshot } from "./_snapshot.ts";
import { which } from "../../lib/workspace/which.ts";
import { tempDir } from "../_helpers/temp.ts";

const OURS = [
  "lint",
  "format_check",
  "lint_fix",
  "format_write",
  "cache_stats",
  "cache_clean",
  "rules",
  "config_show",
  "version",
  "workspace_lint",
  "workspace_lint_fix",
];

const opts = { sanitizeOps: false, sanitizeResources: false };

interface ToolResult {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** Asserts the shape every poly tool result has, and returns it typed. */
function checkResult(name: string, raw: unknown): ToolResult {
  const result = raw as ToolResult;
  assert.equal(result.content.length, 1, `${name}: exactly one content block`);
  assert.equal(result.content[0].type, "text");
  assert.ok(result.structuredContent, `${name}: structuredContent`);
  const def = TOOLS.find((t) => t.name === name)!;
  const parsed = def.outputSchema.safeParse(result.structuredContent);
  assert.ok(
    parsed.success,
    `${name}: structuredContent fits the output schema: ${JSON.stringify(parsed.error?.issues)}`,
  );
  const poly = result.structuredContent.poly as { pid: number; version: string };
  assert.ok(poly && typeof poly.pid === "number", `${name}: identity block in structuredContent`);
  assert.deepEqual(result._meta?.poly, poly, `${name}: identity block in _meta`);
  return result;
}

async function project(): Promise<string> {
  return await copyFixture("workspace/mcp");
}

Deno.test("poly mcp over stdio: tools, results, arguments, root guard and outcomes", opts, async (t) => {
  const snap = await sharedSnapshot();
  const root = await project();
  const outside = await tempDir({ prefix: "poly-outside-" });
  await Deno.writeTextFile(join(outside, "x.py"), "import os\n");
  await Deno.symlink(outside, join(root, "escape"));
  // Without the tasks capability, so the workspace tools answer blocking.
  const server = await startServer({ cwd: root, command: snap.command, tasks: false });
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    checkResult(name, await server.client.callTool({ name, arguments: args }));
  try {
    await t.step("poly mcp lists its tools with schemas, annotations and task support", async () => {
      const instructions = server.client.getInstructions() ?? "";
      assert.match(instructions, /isError/);
      assert.match(instructions, /summary\.checked/);
      const { tools } = await server.client.listTools();
      const byName = new Map(tools.map((t) => [t.name, t]));
      for (const name of OURS) {
        const tool = byName.get(name);
        assert.ok(tool, `tool ${name} is listed`);
        assert.ok(tool.outputSchema, `${name} declares an output schema`);
        assert.equal((tool.inputSchema as { additionalProperties?: boolean }).additionalProperties, false);
      }
      for (const name of ["lint", "format_check", "cache_stats", "rules", "config_show", "version"]) {
        assert.deepEqual(
          { ...byName.get(name)!.annotations, title: undefined },
          { title: undefined, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
          `${name} is read-only`,
        );
      }
      for (const name of ["lint_fix", "format_write", "cache_clean", "workspace_lint_fix"]) {
        const a = byName.get(name)!.annotations!;
        assert.equal(a.readOnlyHint, false, name);
        assert.equal(a.destructiveHint, true, name);
      }
      assert.equal(byName.get("workspace_lint")!.annotations!.readOnlyHint, false, "workspace_lint is not read-only");
      assert.equal(byName.get("workspace_lint")!.execution?.taskSupport, "optional");
      assert.equal(byName.get("workspace_lint_fix")!.execution?.taskSupport, "optional");
      assert.equal(byName.get("lint")!.execution?.taskSupport, "forbidden");
      const params = (name: string) =>
        Object.keys((byName.get(name)!.inputSchema as { properties: object }).properties).sort();
      for (const name of ["lint", "format_check"]) {
        assert.deepEqual(params(name), ["config", "exclude", "format", "paths", "shard"]);
      }
      for (const name of ["lint_fix", "format_write"]) {
        assert.deepEqual(params(name), ["config", "exclude", "format", "paths"]);
      }
      assert.deepEqual(params("rules"), ["config", "dirs", "format", "test"]);
      assert.deepEqual(params("config_show"), ["config", "format"]);
      for (const name of ["cache_stats", "cache_clean", "version"]) assert.deepEqual(params(name), ["format"]);
      for (const name of ["workspace_lint", "workspace_lint_fix"]) {
        assert.deepEqual(params(name), ["config", "format", "jobs", "no_cache"]);
      }
    });
    await t.step("version", async () => {
      const r = await call("version");
      const doc = r.structuredContent!;
      assert.equal(doc.current, true);
      assert.equal(doc.pid, (doc.poly as { pid: number }).pid);
      assert.equal(doc.executable, join(snap.dir, "main.ts"));
      assert.equal((doc.running_from as { kind: string }).kind, "modules");
      assert.ok(Object.keys(doc.engines as object).length > 0, "engine map");
      assert.equal(r.isError, false);
    });
    await t.step("lint", async () => {
      const r = await call("lint", { paths: ["src"] });
      const report = Report.parse(r.structuredContent);
      assert.equal(r.isError, false);
      assert.equal(report.kind, "lint");
      assert.equal(report.summary.checked, 2);
      const findings = report.results.find((x) => x.path === "src/findings.py");
      assert.ok(findings?.diagnostics?.some((d) => d.code === "F401"), "unused import reported");
      assert.deepEqual(JSON.parse(r.content[0].text!), r.structuredContent, "text block is the JSON document");
    });
    await t.step("format_check", async () => {
      const r = await call("format_check", { paths: ["src"] });
      const report = Report.parse(r.structuredContent);
      assert.equal(report.kind, "fmt");
      assert.equal(report.mode, "check");
      const drift = report.results.find((x) => x.path === "src/findings.py" && x.changed === true);
      assert.ok(drift, "src/findings.py would be reformatted");
      assert.equal(
        drift.diff,
        "--- a/src/findings.py\n+++ b/src/findings.py\n@@ -1,4 +1,5 @@\n import os\n \n-def f( x ):\n+\n+def f(x):\n     return 1\n",
        "the unified diff of the change",
      );
      assert.equal(await Deno.readTextFile(join(root, "src/findings.py")), "import os\n\ndef f( x ):\n    return 1\n");
    });
    await t.step("config_show", async () => {
      const r = await call("config_show");
      assert.match(String(r.structuredContent!.hash), /^1\/[0-9a-f]{16}$/);
      assert.deepEqual(r.structuredContent!.sources, ["poly.toml"]);
      assert.equal((r.structuredContent!.config as { defaults: { line_length: number } }).defaults.line_length, 100);
    });
    await t.step("rules (with tests)", async () => {
      const r = await call("rules", { test: true });
      const doc = r.structuredContent as { rules: { source: string }[]; tests?: unknown };
      assert.ok(doc.rules.some((x) => x.source === "builtin"), "built-in pack listed");
      assert.ok(doc.tests, "tests ran");
      assert.equal(r.isError, false);
    });
    await t.step("cache_stats and cache_clean", async () => {
      const stats = await call("cache_stats");
      assert.equal(typeof stats.structuredContent!.enabled, "boolean");
      const clean = await call("cache_clean");
      assert.equal(typeof clean.structuredContent!.removed, "number");
      const after = await call("cache_stats");
      assert.equal((after.structuredContent!.total as { entries: number }).entries, 0);
    });
    await t.step("lint_fix writes fixes and reports them", async () => {
      const r = await call("lint_fix", { paths: ["src/findings.py"] });
      const report = Report.parse(r.structuredContent);
      assert.equal(report.mode, "fix");
      assert.ok((report.summary.fixed ?? 0) > 0, "fixes counted");
      assert.doesNotMatch(await Deno.readTextFile(join(root, "src/findings.py")), /import os/);
    });
    await t.step("format_write rewrites the file", async () => {
      const r = await call("format_write", { paths: ["src/findings.py"] });
      const report = Report.parse(r.structuredContent);
      assert.equal(report.mode, "fix");
      const written = report.results.find((x) => x.path === "src/findings.py");
      assert.match(
        written?.diff ?? "",
        /^--- a\/src\/findings\.py\n\+\+\+ b\/src\/findings\.py\n@@ .*\n(.*\n)*\+def f\(x\):\n/,
      );
      assert.match(await Deno.readTextFile(join(root, "src/findings.py")), /def f\(x\):/);
      const again = Report.parse((await call("format_check", { paths: ["src/findings.py"] })).structuredContent);
      assert.ok(!again.results.some((x) => x.changed), "no drift after format_write");
    });
    await t.step("workspace_lint without the tasks capability answers blocking, over real projects", async () => {
      const progress: number[] = [];
      const raw = await server.client.callTool(
        { name: "workspace_lint", arguments: { jobs: 2 } },
        undefined,
        { onprogress: (p) => void progress.push(p.progress), timeout: 300_000 },
      );
      const report = Report.parse(raw.structuredContent);
      assert.equal(report.kind, "workspace");
      assert.equal(report.mode, "check");
      const jobs = new Map(report.workspace!.jobs.map((j) => [j.name, j]));
      assert.equal(jobs.get("greet")?.status, "passed");
      assert.equal(jobs.get("broken")?.status, "failed");
      assert.match(jobs.get("broken")?.output ?? "", /this job fails/);
      assert.equal(raw.isError, false, "failed jobs are findings, not errors");
      if (which("cargo") && which("cargo-clippy")) {
        const clippy = jobs.get("clippy:rs")!;
        assert.equal(clippy.status, "passed", JSON.stringify(clippy));
        assert.ok(clippy.diagnostics?.some((d) => d.code === "clippy::len_zero" && d.path === "rs/src/main.rs"));
        const file = report.results.find((r) => r.path === "rs/src/main.rs");
        assert.ok(file?.diagnostics?.some((d) => d.engine === "clippy" && d.span?.start_line === 3));
      } else {
        assert.equal(jobs.get("clippy:rs")?.status, "skipped");
      }
      if (which("go")) {
        const vet = jobs.get("go-vet:go")!;
        assert.equal(vet.status, "failed");
        assert.ok(
          vet.diagnostics?.some((d) => d.code === "printf" && d.path === "go/main.go" && d.span?.start_line === 7),
        );
      } else {
        assert.equal(jobs.get("go-vet:go")?.status, "skipped");
      }
      for (const tool of ["cargo-sort", "cargo-machete", "cargo-deny"]) {
        const job = jobs.get(`${tool}:rs`)!;
        if (!which(tool)) {
          assert.equal(job.status, "skipped");
          assert.equal(job.reason, `${tool} not found on PATH`);
          assert.ok(report.skipped.some((s) => s.reason === `${tool}:rs: ${tool} not found on PATH`));
        }
      }
      assert.ok(progress.length >= 2, "progress was reported");
    });
    await t.step("format toon encodes the text block in TOON", async () => {
      const r = await call("lint", { paths: ["src"], format: "toon" });
      const text = r.content[0].text!;
      assert.doesNotMatch(text.trimStart(), /^\{/, "not JSON");
      assert.deepEqual(decodeToon(text), r.structuredContent);
    });
    await t.step("bad arguments fail input validation and never run the tool", async () => {
      for (
        const [name, args] of [
          ["lint", { paths: "src" }],
          ["lint", { path: ["src"] }],
          ["format_check", { format: "xml" }],
          ["rules", { test: "yes" }],
          ["workspace_lint", { jobs: 0 }],
          ["version", { verbose: true }],
        ] as const
      ) {
        // SDK 1.32 follows MCP 2025-11-25: input validation errors are tool errors
        // (isError, "Input validation error") so a model can correct itself.
        const r = await server.client.callTool({ name, arguments: args }) as ToolResult;
        assert.equal(r.isError, true, `${name} ${JSON.stringify(args)}`);
        assert.match(r.content[0].text!, /Input validation error/);
        assert.equal(r.structuredContent, undefined);
      }
      // An unknown tool is a protocol error in the 2025-11-25 tools specification (-32602).
      await assert.rejects(
        server.client.callTool({ name: "no_such_tool", arguments: {} }),
        (e: { code?: number; message?: string }) => e.code === -32602 && /Unknown tool "no_such_tool"/.test(e.message!),
      );
    });
    await t.step("a path outside the workspace root is refused with a tool error", async () => {
      for (
        const [name, args, refused] of [
          ["lint", { paths: ["../"] }, "../"],
          ["lint", { paths: ["src", join(outside, "x.py")] }, join(outside, "x.py")],
          ["format_write", { paths: ["escape/x.py"] }, "escape/x.py"],
          ["lint", { paths: ["src/../../.."] }, "src/../../.."],
          ["config_show", { config: join(outside, "poly.toml") }, undefined],
          ["rules", { dirs: ["escape"] }, undefined],
          ["workspace_lint", { config: "../poly.toml" }, "../poly.toml"],
        ] as const
      ) {
        const r = await server.client.callTool({ name, arguments: args }) as ToolResult;
        assert.equal(r.isError, true, `${name} ${JSON.stringify(args)} is refused`);
        assert.match(r.content[0].text!, /outside the workspace root/);
        if (refused !== undefined) {
          const report = Report.parse(r.structuredContent);
          assert.deepEqual(report.errors.map((e) => e.path), [refused]);
          assert.match(report.errors[0].message, /outside the workspace root .*: pass a path inside it/);
        }
      }
      assert.equal(await Deno.readTextFile(join(outside, "x.py")), "import os\n", "nothing outside was touched");
    });
    await t.step(
      "an errored file sets isError; skips and syntax errors never do; all-skipped has summary.checked 0",
      async () => {
        const errored = checkResult(
          "lint",
          await server.client.callTool({ name: "lint", arguments: { paths: ["broken", "broken/missing.py", "src"] } }),
        );
        const report = Report.parse(errored.structuredContent);
        assert.equal(errored.isError, true);
        assert.deepEqual(report.errors.map((e) => e.path), ["broken/missing.py"]);
        assert.ok(report.results.some((x) => x.path === "broken/missing.py" && x.error));
        assert.equal(report.summary.errored, 1);
        // A syntax error in the user's file is a finding (ruff's invalid-syntax), not a failure of poly's.
        const syntax = checkResult(
          "lint",
          await server.client.callTool({ name: "lint", arguments: { paths: ["broken"] } }),
        );
        assert.equal(syntax.isError, false);
        const found = Report.parse(syntax.structuredContent);
        assert.ok(
          found.results.some((x) => x.path === "broken/syntax.py" && x.diagnostics?.[0].code === "invalid-syntax"),
        );

        const skipped = checkResult(
          "lint",
          await server.client.callTool({ name: "lint", arguments: { paths: ["other/notes.zig"] } }),
        );
        const skip = Report.parse(skipped.structuredContent);
        assert.equal(skipped.isError, false, "a skip is not an error");
        assert.equal(skip.summary.checked, 0);
        assert.equal(skip.skipped.length, 1);
        assert.equal(skip.errors.length, 0);

        const fmt = checkResult(
          "format_check",
          await server.client.callTool({ name: "format_check", arguments: { paths: ["broken/missing.py"] } }),
        );
        assert.equal(fmt.isError, true);
      },
    );
  } finally {
    await server.close();
  }
});

Deno.test("the CLI's --format json document equals the lint tool's structuredContent", opts, async () => {
  const snap = await sharedSnapshot();
  const root = await project();
  // Separate cache homes: both runs start cold, so even cache counters agree.
  const server = await startServer({ cwd: root, command: snap.command, env: await serverEnv() });
  try {
    const r = checkResult(
      "lint",
      await server.client.callTool({ name: "lint", arguments: { paths: ["src", "other"] } }),
    );
    // The CLI from the same snapshot of the program, in the same directory, with its own cold cache.
    const [exe, ...rest] = snap.command;
    const out = await new Deno.Command(exe, {
      args: [...rest, "lint", "--format", "json", "--no-workspace", "src", "other"],
      cwd: root,
      env: await serverEnv(),
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 1, new TextDecoder().decode(out.stderr));
    const fromCli = JSON.parse(new TextDecoder().decode(out.stdout));
    const fromMcp = structuredClone(r.structuredContent!) as { poly: { pid?: number } };
    assert.notEqual(fromCli.poly.pid, fromMcp.poly.pid);
    for (const doc of [fromCli, fromMcp]) delete doc.poly.pid;
    assert.deepEqual(fromMcp, fromCli);
  } finally {
    await server.close();
  }
});

Deno.test("poly mcp exits when stdin ends", opts, async () => {
  const snap = await sharedSnapshot();
  const [exe, ...args] = snap.command;
  const child = new Deno.Command(exe, {
    args: [...args, "mcp"],
    cwd: await project(),
    env: await serverEnv(),
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }) + "\n",
  ));
  await writer.close();
  const out = await child.output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const reply = JSON.parse(new TextDecoder().decode(out.stdout).split("\n")[0]);
  assert.equal(reply.result.serverInfo.name, "poly");
});
