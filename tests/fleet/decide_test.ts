/**
 * decide against a fake OpenRouter on 127.0.0.1: the request it sends (strict
 * JSON schema, scrubbed text), strict parsing of the answer, HTTP failures, and
 * fan_out's consensus gate.
 */
import assert from "node:assert/strict";
import { decide, delegate, fanOut } from "../../lib/fleet/mod.ts";
import { parseDecision } from "../../lib/fleet/decide.ts";
import { fakeOpenRouter } from "./_openrouter.ts";
import { fleetContext, fleetError } from "./_helpers.ts";
import { secretCorpus } from "./_secrets.ts";
import { bwrapTest } from "../_helpers/bwrap.ts";
import { tempDir } from "../_helpers/temp.ts";

const answer = (o: unknown) => ({ content: JSON.stringify(o) });

Deno.test("decide sends a strict JSON-schema request and returns a typed choice with probabilities", async () => {
  const or = fakeOpenRouter([
    answer({ choice: "ship", probabilities: { ship: 0.8, hold: 0.2 }, rationale: "tests pass" }),
  ]);
  try {
    const ctx = await fleetContext({ env: { POLY_OPENROUTER_BASE_URL: or.url, OPENROUTER_API_KEY: "or-test-key" } });
    const d = await decide(ctx, { question: "Ship it?", options: ["ship", "hold"], context: "all green" });
    assert.deepEqual(d, {
      choice: "ship",
      confidence: 0.8,
      probabilities: [{ label: "ship", probability: 0.8 }, { label: "hold", probability: 0.2 }],
      rationale: "tests pass",
      model: "typesafe/jev",
    });
    const [req] = or.requests;
    assert.equal(req.auth, "Bearer or-test-key");
    const rf = req.body.response_format as {
      type: string;
      json_schema: { strict: boolean; schema: { properties: { choice: { enum: string[] } } } };
    };
    assert.equal(rf.type, "json_schema");
    assert.equal(rf.json_schema.strict, true);
    assert.deepEqual(rf.json_schema.schema.properties.choice.enum, ["ship", "hold"]);
    assert.equal(req.body.temperature, 0);
  } finally {
    await or.close();
  }
});

Deno.test("nothing secret reaches OpenRouter", async () => {
  const or = fakeOpenRouter([answer({ choice: "yes", probabilities: { yes: 0.6, no: 0.4 }, rationale: "" })]);
  try {
    const ctx = await fleetContext({ env: { POLY_OPENROUTER_BASE_URL: or.url, OPENROUTER_API_KEY: "k" } });
    const corpus = secretCorpus(99);
    await decide(ctx, { question: `Is ${corpus[0].value} valid?`, context: corpus.map((s) => s.line).join("\n") });
    const sent = JSON.stringify(or.requests[0].body);
    for (const s of corpus) assert.ok(!sent.includes(s.value), `${s.kind} was sent`);
  } finally {
    await or.close();
  }
});

Deno.test("parseDecision() is strict", () => {
  const labels = ["a", "b"];
  const ok = parseDecision(
    '```json\n{"choice":"a","probabilities":{"a":0.55,"b":0.5},"rationale":"r"}\n```',
    labels,
    "m",
  );
  assert.equal(ok.confidence, 0.5238); // normalised from a sum of 1.05
  const bad: [string, RegExp][] = [
    ["not json", /not JSON/],
    ['{"choice":"c","probabilities":{"a":0.5,"b":0.5}}', /not one of/],
    ['{"choice":"a","probabilities":{"a":1}}', /missing \["b"\]/],
    ['{"choice":"a","probabilities":{"a":0.5,"b":0.5,"c":0}}', /extra \["c"\]/],
    ['{"choice":"a","probabilities":{"a":0.2,"b":0.3}}', /sum to 0.500/],
    ['{"choice":"a","probabilities":{"a":0.3,"b":0.7}}', /not the most probable/],
    ['{"choice":"a","probabilities":{"a":1.5,"b":0}}', /probabilities/],
    ['{"choice":"a","probabilities":{"a":0.5,"b":0.5},"extra":1}', /Unrecognized key/i],
  ];
  for (const [content, re] of bad) {
    assert.throws(() => parseDecision(content, labels, "m"), (e: Error) => re.test(e.message), content);
  }
});

Deno.test("decide maps OpenRouter failures: 402 quota, 429 rate limit, no key, unreachable", async () => {
  const or = fakeOpenRouter([
    { status: 402, body: { error: { message: "Insufficient credits" } } },
    { status: 429, body: { error: { message: "Rate limit exceeded" } } },
    { status: 500, body: { error: { message: "boom" } } },
  ]);
  try {
    const ctx = await fleetContext({ env: { POLY_OPENROUTER_BASE_URL: or.url, OPENROUTER_API_KEY: "k" } });
    assert.match(
      (await fleetError(decide(ctx, { question: "q" }), "quota_exhausted")).message,
      /402: Insufficient credits/,
    );
    assert.match((await fleetError(decide(ctx, { question: "q" }), "rate_limited")).message, /wait and retry/);
    assert.match((await fleetError(decide(ctx, { question: "q" }), "decide_failed")).message, /500: boom/);
  } finally {
    await or.close();
  }
  const nokey = await fleetContext({ env: { OPENROUTER_API_KEY: undefined } });
  assert.match((await fleetError(decide(nokey, { question: "q" }), "invalid_request")).message, /OPENROUTER_API_KEY/);
  const down = await fleetContext({
    env: { POLY_OPENROUTER_BASE_URL: "http://127.0.0.1:9/api/v1", OPENROUTER_API_KEY: "k" },
  });
  await fleetError(decide(down, { question: "q" }), "decide_failed");
  await fleetError(decide(down, { question: "q", options: ["only"] }), "invalid_request");
});

Deno.test("decide reads OpenCode's stored OpenRouter key when OPENROUTER_API_KEY is unset", async () => {
  const or = fakeOpenRouter([answer({ choice: "no", probabilities: { yes: 0.1, no: 0.9 }, rationale: "" })]);
  try {
    const ctx = await fleetContext({ env: { POLY_OPENROUTER_BASE_URL: or.url, OPENROUTER_API_KEY: undefined } });
    await Deno.mkdir(`${ctx.home}/.local/share/opencode`, { recursive: true });
    await Deno.writeTextFile(
      `${ctx.home}/.local/share/opencode/auth.json`,
      JSON.stringify({ openrouter: { type: "api", key: "from-opencode" } }),
    );
    await decide(ctx, { question: "q" });
    assert.equal(or.requests[0].auth, "Bearer from-opencode");
  } finally {
    await or.close();
  }
});

bwrapTest("fan_out's consensus gate skips the arbiter on high agreement and keeps it otherwise", async () => {
  const or = fakeOpenRouter([
    answer({ choice: "agree", probabilities: { agree: 0.93, disagree: 0.07 }, rationale: "same" }),
    answer({ choice: "agree", probabilities: { agree: 0.6, disagree: 0.4 }, rationale: "close" }),
    { delayMs: 6000, content: "{}" },
  ]);
  try {
    const ctx = await fleetContext({
      env: { POLY_OPENROUTER_BASE_URL: or.url, OPENROUTER_API_KEY: "k", POLY_JEV_FANOUT: "1" },
    });
    const high = await fanOut(ctx, { prompt: "is it safe" });
    assert.deepEqual(high.consensus, { agreement: 0.93, threshold: 0.85, skipped_arbiter: true });
    assert.equal(high.arbiter?.skipped, true);
    assert.equal(high.session_id, high.workers[0].session_id);
    const low = await fanOut(ctx, { prompt: "is it safe" });
    assert.equal(low.consensus?.skipped_arbiter, false);
    assert.equal(low.arbiter?.skipped, false);
    const slow = await fanOut(ctx, { prompt: "is it safe" });
    assert.equal(slow.consensus?.agreement, null);
    assert.match(slow.consensus?.error ?? "", /no answer within 5000 ms/);
    assert.equal(slow.arbiter?.skipped, false);
  } finally {
    await or.close();
  }
});

async function jevLines(path: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(path);
  return text.trim().split("\n").map((l) => JSON.parse(l)).filter((l) => l.engine === "jev");
}

bwrapTest("fan_out's Jev consensus calls are written to the POLY_LOG call log as decide/jev records", async () => {
  const or = fakeOpenRouter([
    answer({ choice: "agree", probabilities: { agree: 0.93, disagree: 0.07 }, rationale: "same" }),
    { status: 500, body: { error: { message: "down" } } },
  ]);
  const log = `${await tempDir()}/calls.jsonl`;
  try {
    const ctx = await fleetContext({
      env: { POLY_OPENROUTER_BASE_URL: or.url, OPENROUTER_API_KEY: "k", POLY_JEV_FANOUT: "1", POLY_LOG: log },
    });
    await fanOut(ctx, { prompt: "is it safe" });
    await fanOut(ctx, { prompt: "is it safe" });
    const [ok, failed] = await jevLines(log);
    assert.equal(ok.tool, "decide");
    assert.equal(ok.outChars, 0);
    const d = ok.decision as Record<string, unknown>;
    assert.equal(d.purpose, "fan_out_consensus");
    assert.equal(d.choice, "agree");
    assert.equal(d.confidence, 0.93);
    assert.equal(d.acceptance, true);
    assert.equal(d.fallback, null);
    assert.equal(typeof d.latency_ms, "number");
    const f = failed.decision as Record<string, unknown>;
    assert.equal(f.acceptance, false);
    assert.equal(typeof f.fallback, "string");
    assert.equal(failed.ok, false);
  } finally {
    await or.close();
  }
});

const shadowAnswer = (choice: string) =>
  answer({
    choice,
    probabilities: Object.fromEntries(
      ["1", "2", "3", "4", "5"].flatMap((l) => [`${l}-clear`, `${l}-unclear`]).map((
        x,
      ) => [x, x === choice ? 0.82 : 0.02]),
    ),
    rationale: "",
  });

bwrapTest("POLY_JEV_SHADOW records what Jev would have chosen for delegate without changing the level", async () => {
  const or = fakeOpenRouter([shadowAnswer("4-unclear"), { delayMs: 9000, content: "{}" }]);
  const log = `${await tempDir()}/calls.jsonl`;
  try {
    const ctx = await fleetContext({
      env: { POLY_OPENROUTER_BASE_URL: or.url, OPENROUTER_API_KEY: "k", POLY_JEV_SHADOW: "1", POLY_LOG: log },
    });
    const out = await delegate(ctx, { prompt: "fix it", level: 1 });
    assert.equal(out.level, 1, "the requested level runs whatever Jev suggests");
    assert.equal(out.engine, "codex");
    assert.equal(or.requests.length, 1);
    const [shadow] = await jevLines(log);
    assert.deepEqual(
      { ...(shadow.decision as Record<string, unknown>), latency_ms: 0 },
      {
        purpose: "delegate_shadow",
        choice: "4-unclear",
        confidence: 0.82,
        acceptance: false,
        fallback: null,
        latency_ms: 0,
        cost: null,
        requested_level: 1,
        suggested_level: 4,
        clear: false,
      },
    );
    // A pending Jev call adds at most 5 s after the worker ends, and is recorded as a fallback.
    const started = performance.now();
    await delegate(ctx, { prompt: "fix it", level: 2 });
    assert.ok(performance.now() - started < 8500, "the shadow did not hold the call for Jev's 9 s");
    const late = (await jevLines(log))[1].decision as Record<string, unknown>;
    assert.equal(late.requested_level, 2);
    assert.match(String(late.fallback), /no answer within 5000 ms after the worker ended/);
    // Off by default: no Jev call.
    const off = await fleetContext({ env: { POLY_OPENROUTER_BASE_URL: or.url, OPENROUTER_API_KEY: "k" } });
    const before = or.requests.length;
    await delegate(off, { prompt: "fix it", level: 1 });
    assert.equal(or.requests.length, before);
  } finally {
    await or.close();
  }
});
