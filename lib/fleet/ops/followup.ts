/**
 * `follow_up`: continues a session on the engine that owns it, in the directory
 * and with the access it was started with (a read-only explore stays
 * read-only).
 *
 * @module
 */
import { isAbsolute, relative } from "node:path";
import { OutsideWorkspaceError } from "../../errors/mod.ts";
import { type FleetContext, requirePrompt } from "../context.ts";
import { FleetError } from "../errors.ts";
import { budgetNote } from "../prompts.ts";
import { runEngine } from "../run.ts";
import { parseHandle } from "../types.ts";
import { recorded, type WorkerOutput, workerOutput } from "./_call.ts";

/** A follow_up call. */
export interface FollowUpInput {
  session_id: string;
  prompt: string;
}

/** Runs `follow_up`. */
export function followUp(ctx: FleetContext, input: FollowUpInput): Promise<WorkerOutput> {
  return recorded(ctx, "follow_up", async () => {
    requirePrompt(input.prompt);
    const parsed = parseHandle(input.session_id);
    if (!parsed) {
      throw new FleetError(
        "invalid_request",
        `"${input.session_id}" is not a session handle: expected "engine:id" as returned by a worker tool`,
      );
    }
    const rec = ctx.store.session(input.session_id);
    if (!rec) {
      throw new FleetError("not_found", `Unknown session "${input.session_id}": poly has no record of it`);
    }
    const rel = relative(ctx.root, rec.cwd);
    if (rel.startsWith("..") || isAbsolute(rel)) throw new OutsideWorkspaceError(rec.cwd, ctx.root);
    const r = await runEngine(ctx, {
      tool: "follow_up",
      surface: "follow_up",
      engine: rec.engine,
      model: rec.model ?? undefined,
      effort: rec.effort ?? undefined,
      level: rec.level ?? undefined,
      prompt: rec.read_only ? input.prompt : input.prompt + budgetNote(ctx.settings.timeoutMs),
      preview: input.prompt,
      cwd: rec.cwd,
      readOnly: rec.read_only,
      web: rec.web,
      resume: { id: rec.session_id, handle: rec.handle },
    });
    const output = workerOutput(r, { level: rec.level ?? undefined });
    // An engine that answers without a new id continues the same session.
    if (!output.session_id) output.session_id = rec.handle;
    return { output, rawChars: r.rawChars, engine: r.engine, handle: output.session_id };
  });
}
