/**
 * What a proposed operation would do, computed without doing it:
 *
 * - `lint_fix` / `format_write`: the same run with `preview` (fixes computed,
 *   nothing written) and a unified diff of every file it would change; the
 *   digest of the full diff is the proposal's guard;
 * - delegation tools: the prompt, and for `delegate` its level and the engine,
 *   model and effort that level resolves to now;
 * - `mcp_call`: the upstream call, its verification, and whether the grants it
 *   needs apply now;
 * - anything else: the exact arguments.
 *
 * @module
 */
import { digestOf } from "../cache/digest.ts";
import { unifiedPatch } from "../report/diff.ts";
import { insideRoot } from "../fs/roots.ts";
import type { ProposedChange } from "../run/mod.ts";
import type { Preview } from "./proposals.ts";
import { AccessError } from "./errors.ts";

/** Longest diff text kept in a proposal (characters); the guard covers the whole diff. */
export const MAX_DIFF_CHARS = 200_000;

/** Where a preview runs. */
export interface PreviewContext {
  root: string;
  defaultConfig?: string;
  signal?: AbortSignal;
}

/** A preview and what approval must find unchanged. */
export interface Previewed {
  preview: Preview;
  guard?: string;
}

/** Tools whose preview is a diff, and which run they are. */
export const DIFF_TOOLS: Record<string, "lint" | "fmt"> = { lint_fix: "lint", format_write: "fmt" };

/** Tools that hand work to a coding agent (their preview shows the prompt). */
export const DELEGATION_TOOLS = new Set([
  "delegate",
  "fast_delegate",
  "fan_out",
  "follow_up",
  "run_filtered",
  "generate_image",
  "decide",
]);

/** Computes the preview of calling `tool` with `args`. */
export async function previewOf(tool: string, args: Record<string, unknown>, ctx: PreviewContext): Promise<Previewed> {
  const kind = DIFF_TOOLS[tool];
  if (kind) return await diffPreview(tool, kind, args, ctx);
  if (DELEGATION_TOOLS.has(tool)) return { preview: await delegationPreview(tool, args, ctx) };
  if (tool === "mcp_call") return { preview: await upstreamPreview(args) };
  return {
    preview: {
      kind: "call",
      summary: `Runs ${tool} with exactly these arguments (no other preview is available for this tool).`,
      arguments: args,
    },
  };
}

/** One file of a diff preview. */
export interface DiffFile {
  path: string;
  additions: number;
  deletions: number;
}

/**
 * Past this edit length (changed lines) a file's preview is one hunk over its differing middle rather than a
 * minimal diff: as complete, but computed in linear time (a minimal diff of a rewritten lock file takes seconds).
 */
const PREVIEW_EDIT_LENGTH = 5000;

/** The diff of a set of changes (sorted by path), with per-file counts. */
export function unifiedDiff(changes: readonly Pick<ProposedChange, "relPath" | "before" | "after">[]): {
  diff: string;
  files: DiffFile[];
} {
  const sorted = [...changes].sort((a, b) => a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0);
  const parts: string[] = [];
  const files: DiffFile[] = [];
  for (const c of sorted) {
    const patch = unifiedPatch(`a/${c.relPath}`, `b/${c.relPath}`, c.before, c.after, PREVIEW_EDIT_LENGTH);
    let additions = 0;
    let deletions = 0;
    // The two header lines first, then the hunks.
    for (const line of patch.split("\n").slice(2)) {
      if (line.startsWith("+")) additions++;
      else if (line.startsWith("-")) deletions++;
    }
    files.push({ path: c.relPath, additions, deletions });
    parts.push(patch);
  }
  return { diff: parts.join(""), files };
}

async function diffPreview(
  tool: string,
  kind: "lint" | "fmt",
  args: Record<string, unknown>,
  ctx: PreviewContext,
): Promise<Previewed> {
  const paths = (args.paths as string[] | undefined) ?? [];
  for (const p of paths) await insideRoot(ctx.root, p);
  const config = typeof args.config === "string" ? await insideRoot(ctx.root, args.config) : ctx.defaultConfig;
  const { runFmt, runLint } = await import("../run/mod.ts");
  const changes: ProposedChange[] = [];
  const report = await (kind === "lint" ? runLint : runFmt)({
    paths,
    cwd: ctx.root,
    exclude: (args.exclude as string[] | undefined) ?? [],
    config,
    fix: true,
    preview: true,
    onProposed: (c) => changes.push(c),
    signal: ctx.signal,
  });
  if (ctx.signal?.aborted) throw new AccessError("invalid", "The preview was cancelled: nothing was proposed");
  const { diff, files } = unifiedDiff(changes);
  const additions = files.reduce((n, f) => n + f.additions, 0);
  const deletions = files.reduce((n, f) => n + f.deletions, 0);
  const what = kind === "lint" ? "apply safe fixes to" : "rewrite";
  const summary = files.length === 0
    ? `Would change no file (${report.summary.checked} checked).`
    : `Would ${what} ${files.length} ${files.length === 1 ? "file" : "files"} (+${additions} −${deletions}).`;
  return {
    preview: {
      kind: "diff",
      summary,
      tool,
      files,
      diff: diff.length > MAX_DIFF_CHARS ? diff.slice(0, MAX_DIFF_CHARS) : diff,
      truncated: diff.length > MAX_DIFF_CHARS,
      checked: report.summary.checked,
      errors: report.errors,
    },
    guard: digestOf(diff),
  };
}

async function delegationPreview(tool: string, args: Record<string, unknown>, ctx: PreviewContext): Promise<Preview> {
  const prompt = String(args.prompt ?? args.question ?? args.command ?? "");
  const out: Preview = {
    kind: "delegation",
    summary: `Hands this ${tool === "run_filtered" ? "command" : "prompt"} to a coding agent via ${tool}${
      typeof args.level === "number" ? ` at level ${args.level}` : ""
    }.`,
    tool,
    prompt,
    arguments: args,
  };
  if (tool === "delegate" && typeof args.level === "number") {
    out.level = args.level;
    try {
      const { openFleet } = await import("../fleet/context.ts");
      const { resolveDelegateTier } = await import("../fleet/ops/delegate.ts");
      const fleet = await openFleet({ root: ctx.root });
      out.resolved = resolveDelegateTier(fleet.settings.levels, {
        level: args.level as 1,
        engine: args.engine as undefined,
        model: args.model as string | undefined,
        effort: args.effort as string | undefined,
      });
    } catch (e) {
      out.resolved_error = e instanceof Error ? e.message : String(e);
    }
  }
  return out;
}

async function upstreamPreview(args: Record<string, unknown>): Promise<Preview> {
  const target = String(args.target ?? "");
  const verification = args.verification as Record<string, unknown> | undefined;
  const out: Preview = {
    kind: "upstream_call",
    summary: `Calls the upstream tool ${target}, then checks ${verification?.tool ?? "?"} at ${
      verification?.result_path ?? "?"
    } expecting ${JSON.stringify(verification?.expected)}.`,
    target,
    schema_sha256: args.schema_sha256,
    arguments: args.arguments ?? {},
    verification,
  };
  try {
    const gw = await import("../gateway/mod.ts");
    // The gateway profile of the process that proposes (a worker's poly mcp has its own): approval runs under it.
    out.profile = gw.currentProfileName();
    const { grantStates } = await import("../gateway/grants.ts");
    const { server, tool } = gw.parseTarget(target);
    const grants = grantStates(gw.gatewayStore(), server);
    const find = (t: unknown) => grants.find((g) => g.tool === t || g.tool_id === t);
    const g = find(tool);
    const v = find(verification?.tool);
    out.grant = g
      ? {
        mode: g.mode,
        state: g.state,
        verifiers: g.verifiers,
        ...(g.preauthorization ? { preauthorization: g.preauthorization } : {}),
      }
      : null;
    out.verifier_grant = v ? { mode: v.mode, state: v.state } : null;
  } catch (e) {
    out.grant_error = e instanceof Error ? e.message : String(e);
  }
  return out;
}
