/**
 * The tools' handlers in-process (the server and an SDK client linked by an
 * in-memory transport pair): cheap checks of progress, the refusal when the
 * program changed, the --config fallback, exclude, and error reports.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyFixture } from "../_helpers/cli.ts";
import { Report } from "../../lib/report/schema.ts";
import { inProcess } from "../serve/_client.ts";
import { takeFingerprint } from "../../lib/identity/fingerprint.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test("in-process: lint reports progress, honours exclude and the server's --config", opts, async () => {
  const root = await copyFixture("workspace/mcp");
  await Deno.writeTextFile(join(root, "strict.toml"), "[defaults]\nline_length = 20\n");
  const { client, close } = await inProcess({ root, defaultConfig: join(root, "strict.toml"), fingerprint: false });
  try {
    const progress: number[] = [];
    const r = await client.callTool({ name: "lint", arguments: { paths: ["src"] } }, undefined, {
      onprogress: (p) => void progress.push(p.progress),
    });
    const report = Report.parse(r.structuredContent);
    assert.ok(progress.length > 0 && progress.at(-1) === 2, `progress ${progress}`);
    assert.ok(report.configs[0].sources?.some((s) => s.endsWith("strict.toml")), "the server's --config governs");

    const excluded = Report.parse(
      (await client.callTool({ name: "lint", arguments: { paths: ["src"], exclude: ["findings.py"] } }))
        .structuredContent,
    );
    assert.equal(excluded.summary.checked, 1);
    assert.ok(!excluded.results.some((x) => x.path === "src/findings.py"));

    const shown = await client.callTool({ name: "config_show", arguments: {} });
    assert.equal(
      (shown.structuredContent as { config: { defaults: { line_length: number } } }).config.defaults.line_length,
      20,
    );
  } finally {
    await close();
  }
});

Deno.test("in-process: a broken config is an error report, not a crash", opts, async () => {
  const root = await copyFixture("workspace/mcp");
  await Deno.writeTextFile(join(root, "poly.toml"), "[defaults]\nline_lenght = 3\n");
  const { client, close } = await inProcess({ root, fingerprint: false });
  try {
    for (const name of ["lint", "format_check", "workspace_lint"]) {
      const r = await client.callTool({ name, arguments: {} });
      assert.equal(r.isError, true, name);
      const report = Report.parse(r.structuredContent);
      assert.equal(report.errors.length, 1, name);
      assert.match(report.errors[0].message, /line_lenght/, name);
    }
    const shown = await client.callTool({ name: "config_show", arguments: {} });
    assert.equal(shown.isError, true);
    assert.match((shown.content as { text: string }[])[0].text, /line_lenght/);
  } finally {
    await close();
  }
});

Deno.test("in-process: a changed program refuses every call but version", opts, async () => {
  const root = await copyFixture("workspace/mcp");
  const main = join(root, "main.ts");
  await Deno.writeTextFile(main, "export {};\n");
  const print = takeFingerprint({ kind: "modules", main });
  const { client, close } = await inProcess({ root, fingerprint: print });
  try {
    assert.equal((await client.callTool({ name: "config_show", arguments: {} })).isError, false);
    await Deno.writeTextFile(main, "export const changed = true;\n");
    const refused = await client.callTool({ name: "config_show", arguments: {} });
    assert.equal(refused.isError, true);
    assert.match(
      (refused.content as { text: string }[])[0].text,
      /out of date: its source module ".*main\.ts" was modified/,
    );
    const task = await client.callTool({ name: "workspace_lint", arguments: {} });
    assert.equal(task.isError, true, "task tools refuse too");
    const version = await client.callTool({ name: "version", arguments: {} });
    assert.equal(version.isError, false);
    assert.equal((version.structuredContent as { current: boolean }).current, false);
  } finally {
    await close();
  }
});

Deno.test("in-process: repeated lint calls remember unchanged files and see every edit", opts, async () => {
  const root = await Deno.realPath(await copyFixture("workspace/mcp"));
  const { client, close } = await inProcess({ root, fingerprint: false });
  const { sharedWorkspace } = await import("../../lib/daemon/live.ts");
  const lint = async () => Report.parse((await client.callTool({ name: "lint", arguments: {} })).structuredContent);
  const findings = (report: Report, path: string) =>
    report.results.find((r) => r.path === path)?.diagnostics?.map((d) => d.code).sort() ?? [];
  try {
    const first = await lint();
    const live = await sharedWorkspace(root);
    assert.ok(live, "the server watches its root");
    assert.ok(live.stats().files > 0, "and remembers what the first call found");
    const stable = ({ summary: { cache: _cache, ...summary }, ...rest }: Report) => ({ ...rest, summary });
    assert.deepEqual(stable(await lint()), stable(first), "an unchanged tree: the same report");
    await Deno.writeTextFile(join(root, "src", "added.py"), "import os\n");
    const added = await lint();
    assert.deepEqual(findings(added, "src/added.py"), ["F401"]);
    await Deno.writeTextFile(join(root, "src", "added.py"), "import os\n\nprint(os.sep)\n");
    assert.deepEqual(
      findings(await lint(), "src/added.py"),
      ["py-print-in-library"],
      "the edit is seen on the next call",
    );
  } finally {
    await close();
  }
});
