/**
 * The four auxiliary tools: `explore`, `read_slice`, `web_lookup` (read-only:
 * the workspace is bound read-only in the sandbox) and `run_filtered` (runs a
 * command with full access, returns only the relevant lines).
 *
 * @module
 */
import { resolveAux } from "../cascade.ts";
import { type FleetContext, workspaceDir } from "../context.ts";
import { FleetError } from "../errors.ts";
import { budgetNote, explorePrompt, readSlicePrompt, runFilteredPrompt, webLookupPrompt } from "../prompts.ts";
import { runEngine } from "../run.ts";
import type { AuxTool, EngineName } from "../types.ts";
import { recorded, type WorkerOutput, workerOutput } from "./_call.ts";
import { insideCwd, relToCwd } from "./_paths.ts";

/** Engine/model/effort a call may pin. */
export interface AuxChoice {
  engine?: EngineName;
  model?: string;
  effort?: string;
  cwd?: string;
}

function runAux(
  ctx: FleetContext,
  tool: AuxTool,
  call: AuxChoice,
  build: (cwd: string) => string,
  access: { readOnly: boolean; web?: boolean; preview: string },
): Promise<WorkerOutput> {
  return recorded(ctx, tool, async () => {
    const cwd = workspaceDir(ctx, call.cwd);
    const prompt = build(cwd);
    const sel = await resolveAux(ctx, tool, call);
    const r = await runEngine(ctx, {
      tool,
      surface: "aux",
      ...sel.tier,
      prompt,
      preview: access.preview,
      cwd,
      readOnly: access.readOnly,
      web: access.web,
    });
    return {
      output: workerOutput(r, { skipped: sel.skipped }),
      rawChars: r.rawChars,
      engine: r.engine,
      handle: r.handle,
    };
  });
}

function files(cwd: string, list: string[] | undefined): string[] | undefined {
  return list?.map((f) => relToCwd(cwd, insideCwd(cwd, f)));
}

/** An explore call: question alone, question + files, or neither (a project map). */
export interface ExploreInput extends AuxChoice {
  question?: string;
  files?: string[];
  breadth?: "normal" | "thorough";
}

/** Runs `explore` (read-only). */
export function explore(ctx: FleetContext, input: ExploreInput): Promise<WorkerOutput> {
  return runAux(
    ctx,
    "explore",
    input,
    (cwd) => explorePrompt({ question: input.question, files: files(cwd, input.files), breadth: input.breadth }),
    { readOnly: true, preview: input.question ?? `explore ${input.files?.join(", ") ?? "the project"}` },
  );
}

/** A read_slice call. */
export interface ReadSliceInput extends AuxChoice {
  files: string[];
  want: string;
}

/** Runs `read_slice` (read-only). */
export function readSlice(ctx: FleetContext, input: ReadSliceInput): Promise<WorkerOutput> {
  if (!input.files.length) throw new FleetError("invalid_request", "read_slice needs at least one file");
  return runAux(
    ctx,
    "read_slice",
    input,
    (cwd) => readSlicePrompt({ files: files(cwd, input.files)!, want: input.want }),
    { readOnly: true, preview: `${input.want} (${input.files.join(", ")})` },
  );
}

/** A run_filtered call. */
export interface RunFilteredInput extends AuxChoice {
  command: string;
  want: string;
}

/** Runs `run_filtered` (full access). */
export function runFiltered(ctx: FleetContext, input: RunFilteredInput): Promise<WorkerOutput> {
  return runAux(
    ctx,
    "run_filtered",
    input,
    () => runFilteredPrompt({ command: input.command, want: input.want }) + budgetNote(ctx.settings.timeoutMs),
    { readOnly: false, preview: `${input.command}: ${input.want}` },
  );
}

/** A web_lookup call. */
export interface WebLookupInput extends AuxChoice {
  query: string;
}

/** Runs `web_lookup` (read-only, web search on). */
export function webLookup(ctx: FleetContext, input: WebLookupInput): Promise<WorkerOutput> {
  return runAux(ctx, "web_lookup", input, () => webLookupPrompt({ query: input.query }), {
    readOnly: true,
    web: true,
    preview: input.query,
  });
}
