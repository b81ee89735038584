/**
 * `decide`: a typed choice with probabilities from an OpenRouter chat-completions
 * call (TypeSafe's Jev by default; base URL `POLY_OPENROUTER_BASE_URL`, key
 * `OPENROUTER_API_KEY` or OpenCode's stored OpenRouter key).
 *
 * The request asks for a strict JSON-schema response
 * `{choice, probabilities: {<label>: p}, rationale}` with `choice` constrained to
 * the labels; the answer is parsed strictly: every label present and no other,
 * probabilities in [0, 1] summing to 1 ± 0.1 (then normalised), and `choice` the
 * most probable label. Everything sent passes the credential scrubber first.
 *
 * @module
 */
import { join } from "node:path";
import { z } from "zod";
import type { FleetContext } from "./context.ts";
import { FleetError } from "./errors.ts";
import { scrub } from "./scrub.ts";

/** A decide request. */
export interface DecideRequest {
  question: string;
  /** Labels to choose from (2–20); default ["yes", "no"]. */
  options?: string[];
  /** Material the decision is about (scrubbed, cut to 24 000 characters). */
  context?: string;
  model?: string;
  /** Default 60 s (fan_out's consensus gate uses 5 s). */
  timeoutMs?: number;
}

/** A decision. */
export interface Decision {
  choice: string;
  /** The probability of `choice`. */
  confidence: number;
  /** Every label with its probability, most probable first. */
  probabilities: { label: string; probability: number }[];
  rationale?: string;
  model: string;
}

const MAX_CONTEXT = 24_000;

/** Reads the OpenRouter key: `OPENROUTER_API_KEY`, else OpenCode's auth file. */
export async function openRouterKey(ctx: FleetContext): Promise<string | undefined> {
  const fromEnv = ctx.env("OPENROUTER_API_KEY");
  if (fromEnv) return fromEnv;
  try {
    const auth = JSON.parse(
      await Deno.readTextFile(join(ctx.settings.home, ".local", "share", "opencode", "auth.json")),
    );
    const key = auth?.openrouter?.key;
    return typeof key === "string" && key ? key : undefined;
  } catch {
    return undefined;
  }
}

/** The labels of a request, validated. */
export function decideLabels(options: string[] | undefined): string[] {
  const labels = (options ?? ["yes", "no"]).map((o) => o.trim());
  if (labels.length < 2 || labels.length > 20) {
    throw new FleetError("invalid_request", `decide needs 2 to 20 options, got ${labels.length}`);
  }
  if (labels.some((l) => !l || l.length > 100)) {
    throw new FleetError("invalid_request", "decide options must be non-empty labels of at most 100 characters");
  }
  if (new Set(labels).size !== labels.length) {
    throw new FleetError("invalid_request", "decide options must be distinct");
  }
  return labels;
}

/** The chat-completions request body. */
export function decideBody(
  model: string,
  labels: string[],
  question: string,
  context?: string,
): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const l of labels) properties[l] = { type: "number", minimum: 0, maximum: 1 };
  const ctxText = context ? `\n\nContext:\n${scrub(context).slice(0, MAX_CONTEXT)}` : "";
  return {
    model,
    temperature: 0,
    max_tokens: 600,
    messages: [
      {
        role: "system",
        content: "You are a calibrated decision model. Estimate the probability of each label being the right " +
          "answer to the question, given the context. Probabilities must sum to 1. `choice` is the most probable " +
          "label. Answer with the JSON object only.",
      },
      {
        role: "user",
        content: `Question: ${scrub(question)}\nLabels: ${JSON.stringify(labels.map(scrub))}${ctxText}`,
      },
    ],
    response_format: {
      type: "json_schema",
      json_schema: {
        name: "decision",
        strict: true,
        schema: {
          type: "object",
          properties: {
            choice: { type: "string", enum: labels },
            probabilities: { type: "object", properties, required: labels, additionalProperties: false },
            rationale: { type: "string" },
          },
          required: ["choice", "probabilities", "rationale"],
          additionalProperties: false,
        },
      },
    },
  };
}

const Completion = z.object({
  model: z.string().optional(),
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

/** Parses the model's JSON answer strictly against `labels`. */
export function parseDecision(content: string, labels: string[], model: string): Decision {
  const fail = (why: string) => new FleetError("decide_failed", `decide's answer did not parse: ${why}`);
  const unfenced = content.trim().replace(/^```(?:json)?\s*/i, "").replace(/\s*```$/, "");
  let value: unknown;
  try {
    value = JSON.parse(unfenced);
  } catch {
    throw fail(`not JSON: ${scrub(unfenced.slice(0, 200))}`);
  }
  const Answer = z.strictObject({
    choice: z.string(),
    probabilities: z.record(z.string(), z.number().finite().min(0).max(1)),
    rationale: z.string().optional(),
  });
  const parsed = Answer.safeParse(value);
  if (!parsed.success) throw fail(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  const { choice, probabilities, rationale } = parsed.data;
  if (!labels.includes(choice)) throw fail(`choice "${choice}" is not one of ${JSON.stringify(labels)}`);
  const keys = Object.keys(probabilities);
  const missing = labels.filter((l) => !(l in probabilities));
  const extra = keys.filter((k) => !labels.includes(k));
  if (missing.length || extra.length) {
    throw fail(
      `probabilities must name exactly the labels (missing ${JSON.stringify(missing)}, extra ${JSON.stringify(extra)})`,
    );
  }
  const sum = labels.reduce((acc, l) => acc + probabilities[l], 0);
  if (!(sum >= 0.9 && sum <= 1.1)) throw fail(`probabilities sum to ${sum.toFixed(3)}, not 1`);
  const probs = labels.map((label) => ({
    label,
    probability: Math.round((probabilities[label] / sum) * 10000) / 10000,
  }))
    .sort((a, b) => b.probability - a.probability);
  const top = probs[0].probability;
  const chosen = probs.find((p) => p.label === choice)!;
  if (chosen.probability + 1e-9 < top) {
    throw fail(`choice "${choice}" (${chosen.probability}) is not the most probable label (${probs[0].label}, ${top})`);
  }
  return { choice, confidence: chosen.probability, probabilities: probs, rationale: rationale || undefined, model };
}

/** Calls OpenRouter and returns a typed decision, plus the raw response size. */
export async function decideCall(
  ctx: FleetContext,
  req: DecideRequest,
): Promise<{ decision: Decision; rawChars: number }> {
  const question = req.question.trim();
  if (!question) throw new FleetError("invalid_request", "decide needs a question");
  const labels = decideLabels(req.options);
  const key = await openRouterKey(ctx);
  if (!key) {
    throw new FleetError(
      "invalid_request",
      "decide needs an OpenRouter key: set OPENROUTER_API_KEY (or log in to OpenRouter with opencode)",
    );
  }
  const model = req.model ?? ctx.settings.decideModel;
  const body = decideBody(model, labels, question, req.context);
  const timeout = AbortSignal.timeout(req.timeoutMs ?? 60_000);
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
  let res: Response;
  try {
    res = await fetch(`${ctx.settings.openrouterBaseUrl}/chat/completions`, {
      method: "POST",
      headers: {
        "Authorization": `Bearer ${key}`,
        "Content-Type": "application/json",
        "X-Title": "poly",
      },
      body: JSON.stringify(body),
      signal,
    });
  } catch (e) {
    if (ctx.signal?.aborted) throw new FleetError("cancelled", "decide was cancelled", { cause: e });
    const why = timeout.aborted ? `no answer within ${req.timeoutMs ?? 60_000} ms` : (e as Error).message;
    throw new FleetError("decide_failed", `decide could not reach OpenRouter: ${scrub(why)}`, { cause: e });
  }
  const text = await res.text();
  if (!res.ok) {
    let detail = text.slice(0, 500);
    try {
      detail = JSON.parse(text)?.error?.message ?? detail;
    } catch {
      // keep the body
    }
    const msg = `OpenRouter answered ${res.status}: ${scrub(String(detail))}`;
    if (res.status === 402) throw new FleetError("quota_exhausted", `decide: ${msg} (add OpenRouter credit)`);
    if (res.status === 429) throw new FleetError("rate_limited", `decide: ${msg}; wait and retry`);
    throw new FleetError("decide_failed", `decide: ${msg}`);
  }
  let completion: z.infer<typeof Completion>;
  try {
    completion = Completion.parse(JSON.parse(text));
  } catch {
    throw new FleetError(
      "decide_failed",
      `decide: OpenRouter's response is not a chat completion: ${scrub(text.slice(0, 200))}`,
    );
  }
  const content = completion.choices[0].message.content ?? "";
  return { decision: parseDecision(content, labels, completion.model ?? model), rawChars: text.length };
}
