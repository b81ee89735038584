/**
 * How an approved proposal runs (lib/access/approve.ts): through the same tool
 * call as every other — the self-fingerprint check, the tool's handler with the
 * proposer as its caller, and the result every poly tool returns — turned into
 * the outcome the proposal records. `poly approvals approve`, the dashboard and
 * `approve_change` pass {@link approvedCalls} to `approveProposal()`.
 *
 * @module
 */
import type { ApprovedCalls } from "../../lib/access/approve.ts";
import type { ProposalResult } from "../../lib/access/proposals.ts";
import type { ToolContext, ToolDef } from "../_tool.ts";

/** Approved calls run with `tools` (default: every tool in tools/mod.ts, loaded on first use). */
export function approvedCalls(tools?: readonly ToolDef[]): ApprovedCalls {
  const all = async () => tools ?? (await import("../mod.ts")).TOOLS;
  const find = async (name: string) => (await all()).find((t) => t.name === name);
  return {
    has: async (name) => (await find(name)) !== undefined,
    async run(call) {
      const def = await find(call.tool);
      if (!def) throw new Error(`tool "${call.tool}" is not served`);
      const { callTool } = await import("./_call.ts");
      const env = { root: call.root, defaultConfig: call.defaultConfig, caller: call.caller };
      const ctx: ToolContext = {
        root: call.root,
        defaultConfig: call.defaultConfig,
        caller: call.caller,
        signal: call.signal,
        progress: call.progress,
        approval: call.approval,
      };
      const out = await callTool(def, call.arguments, env, ctx);
      const text = out.content?.find((c) => c.type === "text") as { text?: string } | undefined;
      return {
        isError: out.isError === true,
        ...(out.structuredContent ? { document: out.structuredContent as Record<string, unknown> } : {}),
        ...(out.structuredContent || text?.text === undefined ? {} : { text: text.text }),
      } satisfies ProposalResult;
    },
  };
}
