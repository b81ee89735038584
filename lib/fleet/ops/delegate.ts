/**
 * `delegate` (a level picks engine, model and effort; the call may override
 * each) and `fast_delegate` (the fastest healthy engine of the cascade). Both
 * give the worker full read/edit/shell access in the working directory.
 *
 * @module
 */
import { locateBinary } from "../availability.ts";
import { fastCandidates, pickCandidate } from "../cascade.ts";
import { type FleetContext, requirePrompt, workspaceDir } from "../context.ts";
import { FleetError } from "../errors.ts";
import { type PersonaInput, resolvePersona } from "../personas.ts";
import { budgetNote } from "../prompts.ts";
import { startShadow } from "../jev.ts";
import { runEngine } from "../run.ts";
import type { EngineName, Level, Tier } from "../types.ts";
import { recorded, type WorkerOutput, workerOutput } from "./_call.ts";

/** A delegate call. */
export interface DelegateInput {
  prompt: string;
  level: Level;
  engine?: EngineName;
  model?: string;
  effort?: string;
  cwd?: string;
  agent?: PersonaInput;
}

/**
 * The (engine, model, effort) of a delegate call: the level's tier, where an
 * explicit engine other than the tier's carries only the call's own model and
 * effort (each CLI otherwise uses its own default).
 */
export function resolveDelegateTier(
  levels: Record<Level, Tier>,
  input: Pick<DelegateInput, "level" | "engine" | "model" | "effort">,
): Tier {
  const tier = levels[input.level];
  if (!tier) throw new FleetError("invalid_request", `Invalid level ${input.level}: use 1 to 5`);
  if (input.engine && input.engine !== tier.engine) {
    return { engine: input.engine, model: input.model, effort: input.effort };
  }
  return { engine: tier.engine, model: input.model ?? tier.model, effort: input.effort ?? tier.effort };
}

/** Runs `delegate`. */
export function delegate(ctx: FleetContext, input: DelegateInput): Promise<WorkerOutput> {
  return recorded(ctx, "delegate", async () => {
    requirePrompt(input.prompt);
    const cwd = workspaceDir(ctx, input.cwd);
    let tier = resolveDelegateTier(ctx.settings.levels, input);
    if (
      !input.engine && ctx.settings.enableCursor && tier.engine !== "cursor" &&
      !(await locateBinary(ctx, tier.engine))
    ) {
      // The opt-in fallback: the level's CLI is missing, cursor-agent stands in.
      tier = { engine: "cursor", model: input.model ?? ctx.settings.cursorModel };
    }
    const persona = await resolvePersona(ctx, cwd, input.agent);
    // POLY_JEV_SHADOW: Jev is asked in parallel what it would have chosen; the requested level runs regardless.
    const shadow = startShadow(ctx, input.prompt, input.level);
    let r;
    try {
      r = await runEngine(ctx, {
        tool: "delegate",
        surface: "delegate",
        ...tier,
        level: input.level,
        prompt: input.prompt + budgetNote(ctx.settings.timeoutMs),
        preview: input.prompt,
        cwd,
        readOnly: false,
        persona,
      });
    } finally {
      await shadow?.settle();
    }
    return {
      output: workerOutput(r, { level: input.level }),
      rawChars: r.rawChars,
      engine: r.engine,
      handle: r.handle,
    };
  });
}

/** A fast_delegate call. */
export interface FastDelegateInput {
  prompt: string;
  /** Overrides the chosen engine's model (seed 003: worker tools take optional model and effort overrides). */
  model?: string;
  /** Overrides the chosen engine's effort. */
  effort?: string;
  cwd?: string;
  agent?: PersonaInput;
}

/** Runs `fast_delegate`: the first usable engine of the cascade. */
export function fastDelegate(ctx: FleetContext, input: FastDelegateInput): Promise<WorkerOutput> {
  return recorded(ctx, "fast_delegate", async () => {
    requirePrompt(input.prompt);
    const cwd = workspaceDir(ctx, input.cwd);
    const candidates = fastCandidates(ctx);
    const picked = await pickCandidate(ctx, "fast_delegate", candidates, {});
    const persona = await resolvePersona(ctx, cwd, input.agent);
    const r = await runEngine(ctx, {
      tool: "fast_delegate",
      surface: "fast_delegate",
      ...picked.tier,
      model: input.model ?? picked.tier.model,
      effort: input.effort ?? picked.tier.effort,
      prompt: input.prompt + budgetNote(ctx.settings.timeoutMs),
      preview: input.prompt,
      cwd,
      readOnly: false,
      persona,
      among: candidates.map((c) => c.engine),
    });
    return {
      output: workerOutput(r, { skipped: picked.skipped }),
      rawChars: r.rawChars,
      engine: r.engine,
      handle: r.handle,
    };
  });
}
