/**
 * Engine output parsing and failure classification on the real CLIs' formats,
 * with the quota and rate-limit strings of REFERENCE.md.
 */
import assert from "node:assert/strict";
import { ADAPTERS } from "../../lib/fleet/engines/mod.ts";

const j = (...objs: unknown[]) => objs.map((o) => JSON.stringify(o)).join("\n") + "\n";

Deno.test("codex: answer is the last agent_message, session the thread_id; log noise is skipped", () => {
  const out = "2026-11-29T10:00:00Z WARN codex_core: something\n" + j(
    { type: "thread.started", thread_id: "0199a213-81c0-7800-8aa1-bbab2a035a53" },
    { type: "turn.started" },
    { type: "item.completed", item: { id: "item_0", type: "agent_message", text: "first" } },
    {
      type: "item.completed",
      item: { id: "item_1", type: "command_execution", command: "ls", aggregated_output: "x" },
    },
    { type: "item.completed", item: { id: "item_2", type: "agent_message", text: "final answer" } },
    { type: "turn.completed", usage: { input_tokens: 1, output_tokens: 2 } },
  );
  const p = ADAPTERS.codex.parse(out);
  assert.equal(p.text, "final answer");
  assert.equal(p.sessionId, "0199a213-81c0-7800-8aa1-bbab2a035a53");
  assert.equal(p.isError, false);
});

const codexFail = (message: string) =>
  j({ type: "thread.started", thread_id: "t" }, { type: "error", message }, {
    type: "turn.failed",
    error: { message },
  });

Deno.test("codex: quota strings classify as quota_exhausted", () => {
  for (
    const m of [
      "You've hit your usage limit. Upgrade to Pro or try again at Sep 14th, 2026 1:44 AM.",
      "You\u2019ve hit your usage limit.",
      "Your workspace is out of credits.",
      "You hit your spend cap for this month.",
      'unexpected status 429: {"error":{"code":"usage_limit_exceeded"}}',
      "error code: quota_exceeded",
    ]
  ) assert.equal(ADAPTERS.codex.classify({ stdout: codexFail(m), stderr: "", exitCode: 1 }), "quota_exhausted", m);
});

Deno.test("codex: rate limits classify as rate_limited, anything else passes through", () => {
  for (const m of ["exceeded retry limit, last status: 429, rate limit exceeded", "rate_limit_exceeded"]) {
    assert.equal(ADAPTERS.codex.classify({ stdout: codexFail(m), stderr: "", exitCode: 1 }), "rate_limited", m);
  }
  assert.equal(
    ADAPTERS.codex.classify({ stdout: codexFail("unexpected status 401 Unauthorized"), stderr: "", exitCode: 1 }),
    null,
  );
  assert.equal(ADAPTERS.codex.classify({ stdout: "", stderr: "Error: stream disconnected", exitCode: 1 }), null);
  // stderr alone (no JSON) still classifies.
  assert.equal(
    ADAPTERS.codex.classify({ stdout: "", stderr: "ERROR: You've hit your usage limit.", exitCode: 1 }),
    "quota_exhausted",
  );
});

Deno.test("a successful answer that mentions a quota is not a failure", () => {
  const ok = j(
    { type: "thread.started", thread_id: "t" },
    {
      type: "item.completed",
      item: { type: "agent_message", text: "The server says: usage limit reached, rate limit exceeded" },
    },
  );
  assert.equal(ADAPTERS.codex.classify({ stdout: ok, stderr: "", exitCode: 0 }), null);
  const claudeOk = j({ type: "result", is_error: false, result: "credit balance too low is handled in billing.ts" });
  assert.equal(ADAPTERS.claude.classify({ stdout: claudeOk, stderr: "", exitCode: 0 }), null);
});

const claudeResult = (o: Record<string, unknown>) =>
  j({ type: "result", subtype: "success", duration_ms: 10, num_turns: 1, session_id: "s-1", ...o });

Deno.test("claude: result and session_id; is_error marks a failure", () => {
  const p = ADAPTERS.claude.parse(claudeResult({ is_error: false, result: "done" }));
  assert.deepEqual([p.text, p.sessionId, p.isError], ["done", "s-1", false]);
  const f = ADAPTERS.claude.parse(claudeResult({ is_error: true, result: "Failed to authenticate" }));
  assert.deepEqual([f.text, f.isError, f.errors], [undefined, true, ["Failed to authenticate"]]);
});

Deno.test("claude: quota strings, then rate limits, then pass-through", () => {
  const quota = [
    "Claude AI usage limit reached|1760000000",
    "You've reached your usage limit. Try again after your limit resets.",
    "You've hit your session limit \u00b7 resets 3pm",
    "You've hit your weekly limit",
    "You've hit your opus limit",
    "You've hit your sonnet limit",
    "Credit balance too low",
    "Your credit balance is too low to access the Anthropic API",
  ];
  for (const m of quota) {
    assert.equal(
      ADAPTERS.claude.classify({ stdout: claudeResult({ is_error: true, result: m }), stderr: "", exitCode: 1 }),
      "quota_exhausted",
      m,
    );
  }
  const rate = [
    claudeResult({ is_error: true, api_error_status: 429, result: "API Error: Request rejected (429)" }),
    claudeResult({
      is_error: true,
      result: "API Error: Server is temporarily limiting requests (not your usage limit)",
    }),
    claudeResult({ is_error: true, result: "error", error: { type: "rate_limit_error", message: "slow down" } }),
    claudeResult({ is_error: true, result: 'API Error: 429 {"type":"error"}' }),
  ];
  for (const out of rate) {
    assert.equal(ADAPTERS.claude.classify({ stdout: out, stderr: "", exitCode: 1 }), "rate_limited", out);
  }
  const other = claudeResult({
    is_error: true,
    result: "Failed to authenticate: OAuth session expired and could not be refreshed",
  });
  assert.equal(ADAPTERS.claude.classify({ stdout: other, stderr: "", exitCode: 1 }), null);
});

Deno.test("grok: {text, sessionId} on success; 402 nested in errors[] is quota; 429 is a rate limit", () => {
  const p = ADAPTERS.grok.parse(j({ text: "hi", sessionId: "g-1" }));
  assert.deepEqual([p.text, p.sessionId, p.isError], ["hi", "g-1", false]);
  const nested = j({
    type: "result",
    subtype: "error_during_execution",
    is_error: true,
    errors: [
      'Internal error: {\n  "message": "API error (status 402 Payment Required): Grok Build usage balance exhausted",\n  "http_status": 402\n}',
    ],
  });
  assert.equal(ADAPTERS.grok.classify({ stdout: nested, stderr: "", exitCode: 1 }), "quota_exhausted");
  const balance = j({ type: "error", message: "Grok Build usage balance exhausted" });
  assert.equal(ADAPTERS.grok.classify({ stdout: balance, stderr: "", exitCode: 1 }), "quota_exhausted");
  const rate = j({
    type: "error",
    message: "API error (status 429 Too Many Requests): You've hit the rate limit for your plan",
  });
  assert.equal(ADAPTERS.grok.classify({ stdout: rate, stderr: "", exitCode: 1 }), "rate_limited");
  const other = j({ type: "error", message: "not logged in: run grok login" });
  assert.equal(ADAPTERS.grok.classify({ stdout: other, stderr: "", exitCode: 1 }), null);
});

Deno.test("opencode: text parts are concatenated, sessionID kept; errors pass through unclassified", () => {
  const out = j(
    { type: "step_start", timestamp: 1, sessionID: "ses_abc", part: { type: "step-start" } },
    { type: "tool_use", timestamp: 2, sessionID: "ses_abc", part: { tool: "bash", state: { status: "completed" } } },
    { type: "text", timestamp: 3, sessionID: "ses_abc", part: { type: "text", text: "Hello, " } },
    { type: "text", timestamp: 4, sessionID: "ses_abc", part: { type: "text", text: "world" } },
    { type: "step_finish", timestamp: 5, sessionID: "ses_abc", part: { reason: "stop" } },
  );
  const p = ADAPTERS.opencode.parse(out);
  assert.deepEqual([p.text, p.sessionId, p.isError], ["Hello, world", "ses_abc", false]);
  const err = j({
    type: "error",
    sessionID: "ses_x",
    error: { name: "APIError", data: { message: "Insufficient credits" } },
  });
  assert.deepEqual(ADAPTERS.opencode.parse(err).errors, ["Insufficient credits"]);
  assert.equal(ADAPTERS.opencode.classify({ stdout: err, stderr: "", exitCode: 1 }), null);
});

Deno.test("cursor-agent: claude-style result object", () => {
  const p = ADAPTERS.cursor.parse(
    j({ type: "result", subtype: "success", is_error: false, result: "ok", session_id: "c-1" }),
  );
  assert.deepEqual([p.text, p.sessionId], ["ok", "c-1"]);
  assert.equal(ADAPTERS.cursor.classify({ stdout: "", stderr: "Error: Authentication required.", exitCode: 1 }), null);
});

Deno.test("opencode refuses a model without a provider", () => {
  assert.throws(() => ADAPTERS.opencode.checkModel!(undefined), /provider\/model/);
  assert.throws(() => ADAPTERS.opencode.checkModel!("mercury-2"), /provider\/model/);
  ADAPTERS.opencode.checkModel!("openrouter/inception/mercury-2");
});
