/**
 * The tools' operations in-process: level overrides, personas, generate_image's
 * path rules, fan_out, follow_up, rate and bridge_stats.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  bridgeStats,
  delegate,
  exportStats,
  fanOut,
  fastDelegate,
  followUp,
  generateImage,
  rate,
  runFiltered,
} from "../../lib/fleet/mod.ts";
import { OutsideWorkspaceError } from "../../lib/errors/mod.ts";
import { fleetContext, fleetError, runs } from "./_helpers.ts";
import { bwrapTest } from "../_helpers/bwrap.ts";
import { z } from "zod";
import { fastDelegateTool } from "../../tools/fast_delegate.ts";
import { tempDir } from "../_helpers/temp.ts";

bwrapTest("delegate: [fleet.levels] replaces a level; engine, model and effort override per call", async () => {
  const ctx = await fleetContext({
    section: { levels: { "3": { engine: "grok", model: "grok-4.6", effort: "high" } } },
  });
  const three = await delegate(ctx, { prompt: "go", level: 3 });
  assert.match(three.answer, /^grok answer \(model grok-4.6, effort high\)/);
  const over = await delegate(ctx, { prompt: "go", level: 1, model: "gpt-x", effort: "low" });
  assert.match(over.answer, /^codex answer \(model gpt-x, effort low\)/);
  const other = await delegate(ctx, { prompt: "go", level: 1, engine: "claude" });
  assert.match(other.answer, /^claude answer \(model default, effort default\)/);
});

bwrapTest("fast_delegate takes optional model and effort overrides; the cascade still picks the engine", async () => {
  const ctx = await fleetContext();
  const plain = await fastDelegate(ctx, { prompt: "go" });
  assert.match(plain.answer, /^codex answer \(model gpt-6-luna, effort medium\)/);
  const over = await fastDelegate(ctx, { prompt: "go", model: "gpt-x", effort: "low" });
  assert.match(over.answer, /^codex answer \(model gpt-x, effort low\)/);
  assert.equal(over.model, "gpt-x");
  // The MCP tool accepts them (its input schema is strict).
  const input = z.strictObject(fastDelegateTool.inputSchema).parse({ prompt: "go", model: "gpt-x", effort: "high" });
  assert.deepEqual(input, { prompt: "go", model: "gpt-x", effort: "high" });
});

bwrapTest(
  "delegate's worker gets a time budget note; the persona reaches the system channel or the prompt",
  async () => {
    const ctx = await fleetContext();
    await Deno.mkdir(join(ctx.root, ".claude", "agents"), { recursive: true });
    await Deno.writeTextFile(
      join(ctx.root, ".claude", "agents", "reviewer.md"),
      "---\nname: reviewer\ndescription: strict\n---\nYou are a strict reviewer.\n",
    );
    const claude = await delegate(ctx, { prompt: "[[echo]] review", level: 4, agent: "reviewer" });
    assert.match(claude.answer, /^\[system\]\nYou are a strict reviewer\.\n\nReply tersely/);
    assert.match(claude.answer, /\[Time budget: about 1 min\./);
    const grok = await delegate(ctx, {
      prompt: "[[echo]] review",
      level: 1,
      engine: "grok",
      agent: { prompt: "Be brief." },
    });
    assert.match(grok.answer, /^Be brief\.\n\n---\n\n\[\[echo\]\] review/);
  },
);

bwrapTest("personas: traversal and unknown names are refused; POLY_AGENT_PATHS is searched first", async () => {
  const ctx = await fleetContext();
  for (const bad of ["../secret", "a/b", "..", ".hidden", "x\\y"]) {
    await fleetError(delegate(ctx, { prompt: "x", level: 1, agent: bad }), "invalid_request");
  }
  const missing = await fleetError(delegate(ctx, { prompt: "x", level: 1, agent: "ghost" }), "not_found");
  assert.match(missing.message, /ghost\.md/);
  const extra = await tempDir();
  await Deno.writeTextFile(join(extra, "ghost.md"), "Boo.");
  await Deno.mkdir(join(ctx.home, ".claude", "agents"), { recursive: true });
  await Deno.writeTextFile(join(ctx.home, ".claude", "agents", "ghost.md"), "From home.");
  const withPath = await fleetContext({ home: ctx.home, root: ctx.root, env: { POLY_AGENT_PATHS: extra } });
  const out = await delegate(withPath, { prompt: "[[echo]]", level: 1, engine: "grok", agent: "ghost" });
  assert.match(out.answer, /^Boo\./);
  const home = await delegate(ctx, { prompt: "[[echo]]", level: 1, engine: "grok", agent: "ghost" });
  assert.match(home.answer, /^From home\./);
  // A persona file that is a symlink out of its folder is refused.
  const outside = join(await tempDir(), "evil.md");
  await Deno.writeTextFile(outside, "stolen");
  await Deno.symlink(outside, join(ctx.home, ".claude", "agents", "evil.md"));
  const link = await fleetError(delegate(ctx, { prompt: "x", level: 1, agent: "evil" }), "invalid_request");
  assert.match(link.message, /resolves outside/);
  assert.deepEqual(runs(ctx).length, 1);
});

bwrapTest("personas: plugin-installed agents under ~/.claude/plugins are found after home .claude/agents", async () => {
  const ctx = await fleetContext();
  const plugins = join(ctx.home, ".claude", "plugins");
  // Claude Code's layout: installed copies in cache/<marketplace>/<plugin>/<version>/agents,
  // marketplace clones in marketplaces/<marketplace>/plugins/<plugin>/agents.
  const installed = join(plugins, "cache", "acme-market", "reviews", "1.2.0", "agents");
  const clone = join(plugins, "marketplaces", "acme-market", "plugins", "reviews", "agents");
  for (const d of [installed, clone]) await Deno.mkdir(d, { recursive: true });
  await Deno.writeTextFile(join(installed, "auditor.md"), "---\nname: auditor\n---\nInstalled auditor.\n");
  await Deno.writeTextFile(join(clone, "auditor.md"), "Marketplace auditor.");
  await Deno.writeTextFile(join(clone, "linter.md"), "Marketplace linter.");
  const out = await delegate(ctx, { prompt: "[[echo]]", level: 1, engine: "grok", agent: "auditor" });
  assert.match(out.answer, /^Installed auditor\./, "the installed copy comes before the marketplace clone");
  const clone2 = await delegate(ctx, { prompt: "[[echo]]", level: 1, engine: "grok", agent: "linter" });
  assert.match(clone2.answer, /^Marketplace linter\./);
  // Home .claude/agents comes before plugins.
  await Deno.mkdir(join(ctx.home, ".claude", "agents"), { recursive: true });
  await Deno.writeTextFile(join(ctx.home, ".claude", "agents", "auditor.md"), "Home auditor.");
  const home = await delegate(ctx, { prompt: "[[echo]]", level: 1, engine: "grok", agent: "auditor" });
  assert.match(home.answer, /^Home auditor\./);
  // The walk is bounded: an agents folder deeper than PLUGIN_SEARCH.depth is not found.
  const deep = join(plugins, "a", "b", "c", "d", "e", "f", "agents");
  await Deno.mkdir(deep, { recursive: true });
  await Deno.writeTextFile(join(deep, "deep.md"), "Too deep.");
  const missing = await fleetError(delegate(ctx, { prompt: "x", level: 1, agent: "deep" }), "not_found");
  assert.match(missing.message, /\.claude\/plugins\/\*\*\/agents/);
});

bwrapTest("generate_image saves inside cwd and refuses paths outside it", async () => {
  const ctx = await fleetContext();
  const out = await generateImage(ctx, { prompt: "a red square [[image]]", output: "art/square.png" });
  assert.equal(out.path, "art/square.png");
  assert.ok(out.bytes > 0);
  assert.deepEqual(
    (await Deno.readFile(join(ctx.root, "art/square.png"))).slice(1, 4),
    new TextEncoder().encode("PNG"),
  );
  for (const bad of ["../escape.png", "/tmp/escape.png"]) {
    await assert.rejects(generateImage(ctx, { prompt: "x [[image]]", output: bad }), OutsideWorkspaceError);
  }
  const target = await tempDir();
  await Deno.symlink(target, join(ctx.root, "link"));
  await assert.rejects(generateImage(ctx, { prompt: "x [[image]]", output: "link/escape.png" }), OutsideWorkspaceError);
  const exists = await fleetError(
    generateImage(ctx, { prompt: "x [[image]]", output: "art/square.png" }),
    "invalid_request",
  );
  assert.match(exists.message, /overwrite: true/);
  await Deno.writeTextFile(join(ctx.root, "poly.toml"), "# mine\n");
  for (
    const [output, why] of [
      ["poly.toml", /not an image file name/],
      ["art/poly.toml", /not an image file name/],
      [".git/hooks.png", /inside \.git\//],
      [".poly/x.png", /inside \.poly\//],
    ] as const
  ) {
    const refused = await fleetError(
      generateImage(ctx, { prompt: "x [[image]]", output, overwrite: true }),
      "invalid_request",
    );
    assert.match(refused.message, why, output);
  }
  assert.equal(await Deno.readTextFile(join(ctx.root, "poly.toml")), "# mine\n");
  const e = await fleetError(generateImage(ctx, { prompt: "x", output: "a.png" }), "engine_failed");
  assert.match(e.message, /no image was saved at a\.png/);
});

bwrapTest("generate_image's quota error names only the engines with an image tool", async () => {
  const ctx = await fleetContext();
  const e = await fleetError(generateImage(ctx, { prompt: "x [[quota]]", output: "q.png" }), "quota_exhausted");
  assert.deepEqual(e.usableEngines, ["grok"]);
  assert.match(e.message, /only codex and grok have an image tool/);
});

bwrapTest("fan_out runs distinct engines read-only in parallel, then the codex arbiter merges", async () => {
  const ctx = await fleetContext();
  const out = await fanOut(ctx, { prompt: "compare approaches" });
  assert.deepEqual(out.workers.map((w) => [w.engine, w.ok]), [["codex", true], ["claude", true]]);
  assert.equal(out.arbiter?.engine, "codex");
  assert.equal(out.arbiter?.skipped, false);
  assert.match(out.answer, /^codex answer \(model gpt-6-sol, effort high\)/);
  assert.equal(out.session_id, out.arbiter?.session_id);
  for (const w of out.workers) assert.equal(ctx.store.session(w.session_id!)?.read_only, true);
  const split = await fanOut(ctx, { prompt: "research [[write]]", tasks: ["part a", "part b", "part c"] });
  assert.equal(split.workers.length, 3);
  assert.deepEqual(split.workers.map((w) => w.engine), ["codex", "claude", "codex"]);
});

bwrapTest("fan_out keeps the surviving answers when a worker fails", async () => {
  const ctx = await fleetContext({
    env: { POLY_CLAUDE_BIN: "/nonexistent/claude" },
    section: { fan_out: { workers: 2 } },
  });
  const out = await fanOut(ctx, { prompt: "x" });
  assert.deepEqual(out.workers.map((w) => w.engine), ["codex", "codex"]);
  const bad = await fleetContext();
  const e = await fleetError(fanOut(bad, { prompt: "x [[crash]]" }), "engine_failed");
  assert.match(e.message, /Every fan_out worker failed/);
});

bwrapTest("follow_up needs a known handle; run_filtered runs with full access", async () => {
  const ctx = await fleetContext();
  await fleetError(followUp(ctx, { session_id: "nonsense", prompt: "x" }), "invalid_request");
  await fleetError(followUp(ctx, { session_id: "codex:unknown", prompt: "x" }), "not_found");
  const out = await runFiltered(ctx, { command: "npm test", want: "failures [[write]]" });
  assert.match(out.answer, /^write: ok/);
});

bwrapTest(
  "rate stores 1-5 per session; bridge_stats reports calls, chars and ratings, and exports Markdown",
  async () => {
    const ctx = await fleetContext();
    const a = await delegate(ctx, { prompt: "one", level: 1 });
    const b = await delegate(ctx, { prompt: "two", level: 4 });
    assert.deepEqual(await rate(ctx, { session_id: a.session_id!, score: 4 }), {
      session_id: a.session_id!,
      score: 4,
      tool: "delegate",
      engine: "codex",
    });
    assert.equal((await rate(ctx, { session_id: a.session_id!, score: 5, note: "great" })).replaced, 4);
    await rate(ctx, { session_id: b.session_id!, score: 2 });
    await fleetError(rate(ctx, { session_id: a.session_id!, score: 6 }), "invalid_request");
    await fleetError(rate(ctx, { session_id: "codex:nope", score: 3 }), "not_found");
    const s = await bridgeStats(ctx);
    const d = s.tools.find((t) => t.tool === "delegate")!;
    assert.equal(d.calls, 2);
    assert.deepEqual(d.ratings, { count: 2, mean: 3.5, distribution: { "1": 0, "2": 1, "3": 0, "4": 0, "5": 1 } });
    assert.ok(d.raw_chars > 0 && d.out_chars > 0);
    assert.equal(s.tools.find((t) => t.tool === "rate")?.failures, 2);
    const e = await exportStats(ctx);
    assert.match(e.export_path, /^research\/bench\/\d{4}-\d{2}-\d{2}-ratings\.md$/);
    const md = await Deno.readTextFile(join(ctx.root, e.export_path));
    assert.match(md, /\| delegate \| 2 \| 0 \|/);
    await assert.rejects(exportStats(ctx, { path: "../out.md" }), OutsideWorkspaceError);
  },
);

bwrapTest("POLY_LOG appends one JSON line per call", async () => {
  const log = join(await tempDir(), "calls.jsonl");
  const ctx = await fleetContext({ env: { POLY_LOG: log } });
  await delegate(ctx, { prompt: "x", level: 1 });
  await fleetError(delegate(ctx, { prompt: "x [[crash]]", level: 1 }), "engine_failed");
  const lines = (await Deno.readTextFile(log)).trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => [l.tool, l.engine, l.ok]), [["delegate", "codex", true], [
    "delegate",
    "codex",
    false,
  ]]);
  assert.ok(lines[0].outChars > 0);
});

bwrapTest("a cwd outside the workspace root is refused", async () => {
  const ctx = await fleetContext();
  await assert.rejects(delegate(ctx, { prompt: "x", level: 1, cwd: "../elsewhere" }), OutsideWorkspaceError);
  const sub = await delegate(ctx, { prompt: "[[probe]]", level: 1, cwd: "src" });
  assert.equal(JSON.parse(sub.answer).cwd, join(ctx.root, "src"));
});
