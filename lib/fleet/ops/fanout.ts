/**
 * `fan_out`: several read-only workers in parallel (distinct engines first),
 * then an arbiter merges their answers. With the consensus gate on (call
 * parameter, `POLY_JEV_FANOUT`, or `[fleet.fan_out] consensus`), decide is asked
 * first whether two or more answers substantially agree; at or above the
 * threshold the first worker's answer is returned without the arbiter. A low
 * agreement, an invalid answer, a missing key, an error or a 5-second timeout
 * keeps the arbiter.
 *
 * @module
 */
import { fastCandidates, noCandidate, usableCandidates } from "../cascade.ts";
import { type FleetContext, requirePrompt, workspaceDir } from "../context.ts";
import { decideCall } from "../decide.ts";
import { FleetError } from "../errors.ts";
import { logJev } from "../jev.ts";
import { arbiterPrompt, workerPrompt } from "../prompts.ts";
import { type EngineResult, runEngine } from "../run.ts";
import { scrub } from "../scrub.ts";
import { type Candidate, LEVELS, type Tier } from "../types.ts";
import { recorded } from "./_call.ts";

/** A fan_out call. */
export interface FanOutInput {
  /** The task every worker gets (or the shared framing when `tasks` splits the work). */
  prompt: string;
  /** One sub-task per worker (split research); at most 5. */
  tasks?: string[];
  /** Workers when `tasks` is not given (1–5; default `[fleet.fan_out] workers`, 2). */
  workers?: number;
  /** Ask decide whether the workers agree before running the arbiter. */
  consensus?: boolean;
  cwd?: string;
}

/** One worker's outcome. */
export interface WorkerReport {
  engine: string;
  model?: string;
  session_id?: string;
  ok: boolean;
  chars?: number;
  error?: string;
}

/** What fan_out returns. */
export interface FanOutOutput {
  answer: string;
  /** The arbiter's session (or the first worker's when the arbiter was skipped). */
  session_id?: string;
  workers: WorkerReport[];
  arbiter?: { engine: string; model?: string; session_id?: string; skipped: boolean; error?: string };
  consensus?: { agreement: number | null; threshold: number; skipped_arbiter: boolean; error?: string };
  latency_ms: number;
}

/** The engines fan_out draws workers from: subscription cascade engines, then other level engines. */
export function workerPool(ctx: FleetContext): Candidate[] {
  const pool: Candidate[] = fastCandidates(ctx).filter((c) => !c.paid);
  for (const level of LEVELS) {
    const t = ctx.settings.levels[level];
    if (!pool.some((c) => c.engine === t.engine)) pool.push({ ...t });
  }
  return pool;
}

/** Runs `fan_out`. */
export function fanOut(ctx: FleetContext, input: FanOutInput): Promise<FanOutOutput> {
  return recorded<FanOutOutput>(ctx, "fan_out", async () => {
    requirePrompt(input.prompt);
    const started = performance.now();
    const cwd = workspaceDir(ctx, input.cwd);
    const tasks = input.tasks?.length ? input.tasks : undefined;
    if (tasks && tasks.length > 5) throw new FleetError("invalid_request", "fan_out takes at most 5 tasks");
    const count = tasks?.length ?? input.workers ?? ctx.settings.fanOut.workers;
    if (!Number.isInteger(count) || count < 1 || count > 5) {
      throw new FleetError("invalid_request", `fan_out runs 1 to 5 workers, not ${count}`);
    }
    const pool = workerPool(ctx);
    const { usable, skipped } = await usableCandidates(ctx, pool, { readOnly: true });
    if (!usable.length) throw noCandidate(ctx, "fan_out", pool, skipped);
    const among = pool.map((c) => c.engine);

    const jobs = Array.from({ length: count }, (_, i) => {
      const tier: Tier = usable[i % usable.length];
      const task = tasks ? `${input.prompt}\n\nYour part: ${tasks[i]}` : input.prompt;
      return runEngine(ctx, {
        tool: "fan_out",
        surface: "fan_out",
        engine: tier.engine,
        model: tier.model,
        effort: tier.effort,
        prompt: workerPrompt(task, i, count),
        preview: task,
        cwd,
        readOnly: true,
        among,
      }).then(async (r) => {
        await ctx.progress?.(`fan_out: worker ${i + 1}/${count} (${r.engine}) done`);
        return r;
      });
    });
    const settled = await Promise.allSettled(jobs);
    const workers: WorkerReport[] = [];
    const answers: EngineResult[] = [];
    let rawChars = 0;
    settled.forEach((s, i) => {
      const tier = usable[i % usable.length];
      if (s.status === "fulfilled") {
        answers.push(s.value);
        rawChars += s.value.rawChars;
        workers.push({
          engine: s.value.engine,
          ...(s.value.model ? { model: s.value.model } : {}),
          ...(s.value.handle ? { session_id: s.value.handle } : {}),
          ok: true,
          chars: s.value.text.length,
        });
      } else {
        const msg = s.reason instanceof Error ? s.reason.message : String(s.reason);
        workers.push({ engine: tier.engine, ...(tier.model ? { model: tier.model } : {}), ok: false, error: msg });
      }
    });
    if (!answers.length) {
      const quota = settled.find((s) =>
        s.status === "rejected" && s.reason instanceof FleetError && s.reason.kind === "quota_exhausted"
      );
      if (quota && quota.status === "rejected") throw quota.reason;
      throw new FleetError(
        "engine_failed",
        `Every fan_out worker failed: ${workers.map((w) => `${w.engine}: ${w.error}`).join("; ")}`,
      );
    }
    const elapsed = () => Math.round(performance.now() - started);
    if (answers.length === 1) {
      const only = answers[0];
      return {
        output: {
          answer: only.text,
          ...(only.handle ? { session_id: only.handle } : {}),
          workers,
          arbiter: { engine: ctx.settings.fanOut.arbiter.engine, skipped: true, error: "only one worker answered" },
          latency_ms: elapsed(),
        },
        rawChars,
        engine: only.engine,
        handle: only.handle,
      };
    }

    let consensus: FanOutOutput["consensus"];
    const wantConsensus = input.consensus ?? ctx.settings.fanOut.consensus;
    if (wantConsensus) {
      const threshold = ctx.settings.fanOut.consensusThreshold;
      const asked = performance.now();
      let said: { choice: string; confidence: number } | undefined;
      try {
        const { decision } = await decideCall(ctx, {
          question: "Do these independent answers to the same task substantially agree (same conclusions and facts)?",
          options: ["agree", "disagree"],
          context: answers.map((a, i) => `Answer ${i + 1}:\n${scrub(a.text).slice(0, 4000)}`).join("\n\n"),
          timeoutMs: 5000,
        });
        said = decision;
        const agreement = decision.probabilities.find((p) => p.label === "agree")?.probability ?? 0;
        consensus = { agreement, threshold, skipped_arbiter: agreement >= threshold };
      } catch (e) {
        consensus = { agreement: null, threshold, skipped_arbiter: false, error: (e as Error).message };
      }
      // The gate's Jev call goes to the POLY_LOG call log like the seed's own records.
      await logJev(ctx, {
        purpose: "fan_out_consensus",
        choice: said?.choice ?? null,
        confidence: consensus.agreement,
        acceptance: consensus.skipped_arbiter,
        fallback: consensus.error ?? null,
        latency_ms: Math.round(performance.now() - asked),
        cost: null,
      });
      if (consensus.skipped_arbiter) {
        const first = answers[0];
        return {
          output: {
            answer: first.text,
            ...(first.handle ? { session_id: first.handle } : {}),
            workers,
            arbiter: { engine: ctx.settings.fanOut.arbiter.engine, skipped: true },
            consensus,
            latency_ms: elapsed(),
          },
          rawChars,
          engine: first.engine,
          handle: first.handle,
        };
      }
    }

    const arbiterTier = ctx.settings.fanOut.arbiter;
    const arbiterUsable = (await usableCandidates(ctx, [arbiterTier], { readOnly: true })).usable.length > 0;
    const tier: Tier = arbiterUsable ? arbiterTier : usable[0];
    const task = tasks ? `${input.prompt}\n\nParts: ${tasks.map((t, i) => `(${i + 1}) ${t}`).join(" ")}` : input.prompt;
    try {
      const merged = await runEngine(ctx, {
        tool: "fan_out",
        surface: "fan_out",
        ...tier,
        prompt: arbiterPrompt({
          task,
          answers: answers.map((a, i) => ({ label: `Worker ${i + 1} (${a.engine})`, text: a.text })),
        }),
        preview: task,
        cwd,
        readOnly: true,
        among,
      });
      rawChars += merged.rawChars;
      return {
        output: {
          answer: merged.text,
          ...(merged.handle ? { session_id: merged.handle } : {}),
          workers,
          arbiter: {
            engine: merged.engine,
            ...(merged.model ? { model: merged.model } : {}),
            ...(merged.handle ? { session_id: merged.handle } : {}),
            skipped: false,
          },
          ...(consensus ? { consensus } : {}),
          latency_ms: elapsed(),
        },
        rawChars,
        engine: merged.engine,
        handle: merged.handle,
      };
    } catch (e) {
      // The workers' answers are still worth returning; say the merge failed.
      const joined = answers.map((a, i) => `## Worker ${i + 1} (${a.engine})\n${a.text}`).join("\n\n");
      return {
        output: {
          answer: joined,
          ...(answers[0].handle ? { session_id: answers[0].handle } : {}),
          workers,
          arbiter: { engine: tier.engine, skipped: true, error: (e as Error).message },
          ...(consensus ? { consensus } : {}),
          latency_ms: elapsed(),
        },
        rawChars,
        engine: answers[0].engine,
        handle: answers[0].handle,
      };
    }
  });
}
