/**
 * One engine run end to end, in-process, through the real sandbox and the fake
 * CLIs: answers and handles per engine, stdin closed, quota / rate limit /
 * unrecognised failures, huge output, secrets.
 */
import { bwrapTest } from "../_helpers/bwrap.ts";
import assert from "node:assert/strict";
import { delegate, fastDelegate, webLookup } from "../../lib/fleet/mod.ts";
import { fleetContext, fleetError, runs } from "./_helpers.ts";
import { tempDir } from "../_helpers/temp.ts";

bwrapTest("delegate runs every engine in the sandbox and returns its answer and an engine:id handle", async () => {
  const ctx = await fleetContext({ env: { POLY_ENABLE_CURSOR: "1" } });
  const cases = [
    { engine: undefined, level: 1, want: /^codex answer \(model gpt-6-luna, effort max\): say hello/ },
    { engine: undefined, level: 4, want: /^claude answer \(model claude-opus-5-5, effort high\): say hello/ },
    { engine: "grok" as const, level: 2, want: /^grok answer \(model default, effort default\): say hello/ },
    {
      engine: "opencode" as const,
      level: 2,
      model: "openrouter/x/y",
      want: /^opencode answer \(model openrouter\/x\/y/,
    },
    { engine: "cursor" as const, level: 1, model: undefined, want: /^cursor answer \(model composer-2\.5-fast,/ },
  ];
  for (const c of cases) {
    const out = await delegate(ctx, { prompt: "say hello", level: c.level as 1, engine: c.engine, model: c.model });
    assert.match(out.answer, c.want);
    const engine = c.engine ?? (c.level >= 4 ? "claude" : "codex");
    assert.equal(out.engine, engine);
    assert.match(out.session_id ?? "", new RegExp(`^${engine}:[\\w-]+$`));
    const rec = ctx.store.session(out.session_id!);
    assert.equal(rec?.tool, "delegate");
    assert.equal(rec?.read_only, false);
    assert.equal(rec?.answer, out.answer);
  }
});

bwrapTest("engines start with stdin closed", async () => {
  const ctx = await fleetContext();
  const out = await delegate(ctx, { prompt: "[[probe]]", level: 1 });
  assert.equal(JSON.parse(out.answer).stdin, "chardev"); // /dev/null, never an open pipe
});

bwrapTest("a quota failure is not retried elsewhere; the error names usable engines and how to switch", async () => {
  const ctx = await fleetContext();
  const e = await fleetError(delegate(ctx, { prompt: "work [[quota]]", level: 1 }), "quota_exhausted");
  assert.equal(e.engine, "codex");
  assert.ok(e.usableEngines?.includes("claude"));
  assert.match(e.message, /codex quota exhausted/);
  assert.match(e.message, /You've hit your usage limit/); // the engine's own reset hint survives
  assert.match(e.message, /level: 4/);
  assert.match(e.message, /engine: "claude"/);
  assert.deepEqual(runs(ctx), [{ engine: "codex", tool: "delegate", outcome: "quota_exhausted" }]);

  // fast_delegate now skips codex (recorded quota) and says so; its error would suggest no parameter.
  const fast = await fastDelegate(ctx, { prompt: "quick" });
  assert.equal(fast.engine, "claude");
  assert.match(fast.skipped?.[0].reason ?? "", /quota exhausted/);
});

bwrapTest("fast_delegate's quota error suggests no parameter", async () => {
  const ctx = await fleetContext();
  const e = await fleetError(fastDelegate(ctx, { prompt: "x [[quota]]" }), "quota_exhausted");
  assert.match(e.message, /picks its engine itself/);
  assert.doesNotMatch(e.message, /level:|engine: "/);
});

bwrapTest("a rate limit asks to wait and is not a quota", async () => {
  const ctx = await fleetContext();
  const e = await fleetError(delegate(ctx, { prompt: "x [[rate_limit]]", level: 4 }), "rate_limited");
  assert.match(e.message, /claude is rate limited.*Wait and retry/s);
  assert.equal(ctx.store.health("claude", { threshold: 0.3, cooldownMs: 3600_000 }).quotaExhausted, false);
});

bwrapTest("an unrecognised failure passes the engine's own message through", async () => {
  const ctx = await fleetContext();
  const e = await fleetError(delegate(ctx, { prompt: "x [[crash]]", level: 2 }), "engine_failed");
  assert.match(e.message, /^codex exited with code 1: Failed to authenticate: OAuth session expired/);
});

bwrapTest("an argument the CLI rejects surfaces as the CLI's own error", async () => {
  const ctx = await fleetContext();
  const e = await fleetError(delegate(ctx, { prompt: "x", level: 4, effort: "extreme" }), "engine_failed");
  assert.match(e.message, /--effort <level>' argument 'extreme' is invalid/);
});

bwrapTest("huge output is cut to the answer limit with a note; raw size is recorded", async () => {
  const ctx = await fleetContext({ env: { POLY_MAX_ANSWER_CHARS: "5000" } });
  const out = await delegate(ctx, { prompt: "[[huge]]", level: 1 });
  assert.equal(out.truncated, true);
  assert.ok(out.answer.length < 5200);
  assert.match(out.answer, /answer cut at 5000 of 3145728 characters/);
  const [call] = ctx.store.toolStats();
  assert.ok(call.raw_chars > 3_000_000);
  assert.ok(call.out_chars < 6000);
});

bwrapTest("worker output passes the credential scrubber", async () => {
  const ctx = await fleetContext();
  const out = await delegate(ctx, { prompt: "[[secret]]", level: 1 });
  assert.match(out.answer, /\[REDACTED:openai-key\]/);
  assert.match(out.answer, /\[REDACTED:github-token\]/);
  assert.match(out.answer, /\[REDACTED:aws-access-key-id\]/);
  assert.doesNotMatch(out.answer, /sk-proj-|ghp_|AKIA/);
  const stored = JSON.stringify(ctx.store.sessions());
  assert.doesNotMatch(stored, /sk-proj-|ghp_|AKIA/);
});

Deno.test("opencode without a provider/model is refused before anything runs", async () => {
  const ctx = await fleetContext();
  const e = await fleetError(delegate(ctx, { prompt: "x", level: 1, engine: "opencode" }), "invalid_request");
  assert.match(e.message, /provider\/model/);
  assert.deepEqual(runs(ctx), []);
});

Deno.test("cursor is refused unless enabled; a missing engine is named", async () => {
  const ctx = await fleetContext();
  const e = await fleetError(
    delegate(ctx, { prompt: "x", level: 1, engine: "cursor", model: "m" }),
    "engine_unavailable",
  );
  assert.match(e.message, /POLY_ENABLE_CURSOR=1/);
  const gone = await fleetContext({ env: { POLY_GROK_BIN: "/nonexistent/grok" } });
  const m = await fleetError(delegate(gone, { prompt: "x", level: 1, engine: "grok" }), "engine_unavailable");
  assert.match(m.message, /grok CLI \("\/nonexistent\/grok"\), which is not installed/);
});

bwrapTest("with cursor enabled, a level whose CLI is missing falls back to cursor-agent", async () => {
  const ctx = await fleetContext({ env: { POLY_ENABLE_CURSOR: "1", POLY_CODEX_BIN: "/nonexistent/codex" } });
  const out = await delegate(ctx, { prompt: "x", level: 1 });
  assert.equal(out.engine, "cursor");
  assert.equal(out.model, "composer-2.5-fast");
});

Deno.test("delegate refuses a cwd that is a link to a folder outside the root, before anything runs", async () => {
  const ctx = await fleetContext();
  const outside = await tempDir({ prefix: "poly-fleet-outside-" });
  await Deno.symlink(outside, `${ctx.root}/escape`);
  const e = await fleetError(delegate(ctx, { prompt: "[[write]]", level: 1, cwd: "escape" }), "invalid_request");
  assert.match(e.message, /^The working directory "escape" resolves to ".*poly-fleet-outside-[^"]*", outside the root/);
  await assert.rejects(Deno.stat(`${outside}/poly-write-probe.txt`));
  assert.deepEqual(runs(ctx), []);
});

bwrapTest("delegate runs in a linked folder that stays inside the root", async () => {
  const ctx = await fleetContext();
  await Deno.symlink(`${ctx.root}/src`, `${ctx.root}/here`);
  const out = await delegate(ctx, { prompt: "[[write]]", level: 1, cwd: "here" });
  assert.match(out.answer, /^write: ok /);
  assert.equal(await Deno.readTextFile(`${ctx.root}/src/poly-write-probe.txt`), "written by the engine\n");
});

Deno.test("a cwd that does not exist is named as a missing folder", async () => {
  const ctx = await fleetContext();
  const e = await fleetError(delegate(ctx, { prompt: "hi", level: 1, cwd: "nope" }), "invalid_request");
  assert.match(e.message, /^The working directory "nope" does not exist/);
  await Deno.writeTextFile(`${ctx.root}/file.txt`, "x");
  const f = await fleetError(fastDelegate(ctx, { prompt: "hi", cwd: "file.txt" }), "invalid_request");
  assert.match(f.message, /^The working directory "file\.txt" is not a folder/);
  assert.deepEqual(runs(ctx), []);
});

Deno.test("an empty or blank prompt is refused before anything runs", async () => {
  const ctx = await fleetContext();
  for (const prompt of ["", "  \n\t "]) {
    const e = await fleetError(delegate(ctx, { prompt, level: 1 }), "invalid_request");
    assert.match(e.message, /^The prompt is empty: /);
    await fleetError(fastDelegate(ctx, { prompt }), "invalid_request");
  }
  assert.deepEqual(runs(ctx), []);
});

bwrapTest("a saved session's preview is the caller's own words, not poly's wrapping of them", async () => {
  const ctx = await fleetContext();
  await delegate(ctx, { prompt: "rename the helper", level: 1 });
  await webLookup(ctx, { query: "deno lazy imports" });
  const previews = ctx.store.sessions().map((s) => s.preview).sort();
  assert.deepEqual(previews, ["deno lazy imports", "rename the helper"]);
});
