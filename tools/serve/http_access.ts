/**
 * The tools as `poly mcp --http` serves them: every call first checks the
 * caller's identity against the tool's level with {@link allows}; a tool named
 * in `[serve] require_approval` is replaced by its proposal form, which records
 * what the call would do and runs nothing.
 *
 * There is no second permission system: a call that passes runs the same
 * handler (the same library call as the CLI) with the caller in
 * `ToolContext.caller`.
 *
 * @module
 */
import type { ToolContext, ToolDef } from "../_tool.ts";
import { propose } from "../../lib/access/approve.ts";
import type { ApprovalStores } from "../../lib/access/approve.ts";
import { AccessError } from "../../lib/access/errors.ts";
import { allows, refusalReason } from "../../lib/access/levels.ts";
import { ProposalDocument, proposalView } from "../../lib/access/schemas.ts";
import { withIdentity } from "../_identity.ts";

/** Options of {@link guardTools}. */
export interface GuardOptions {
  /** Tools that become proposals (validated: act-level tools only). */
  requireApproval: ReadonlySet<string>;
  /** The stores proposals are recorded in. */
  stores: () => ApprovalStores;
}

/** The caller, or a refusal: over HTTP every call must carry one. */
export function requireLevel(
  def: Pick<ToolDef, "name" | "level">,
  ctx: ToolContext,
): NonNullable<ToolContext["caller"]> {
  const who = ctx.caller;
  if (!who) throw new AccessError("forbidden", `Tool "${def.name}" was called without an identity: refused`);
  if (!allows(who, def.level)) {
    throw new AccessError(
      "forbidden",
      `Tool "${def.name}" needs ${def.level} access: ${refusalReason(who, def.level)}`,
    );
  }
  return who;
}

/** Checks `require_approval` against the tools: each must exist and be an act-level tool. */
export function checkRequireApproval(names: readonly string[], tools: readonly ToolDef[]): void {
  for (const name of names) {
    const def = tools.find((t) => t.name === name);
    if (!def) {
      const acts = tools.filter((t) => t.level === "act").map((t) => t.name);
      throw new AccessError(
        "invalid",
        `[serve] require_approval names "${name}", which is not a tool: use some of ${acts.join(", ")}`,
      );
    }
    if (def.level !== "act") {
      throw new AccessError(
        "invalid",
        `[serve] require_approval names "${name}", ${
          def.level === "approve" ? "an" : "a"
        } ${def.level} tool: only act tools can need approval`,
      );
    }
  }
}

const APPROVAL_NOTE =
  "\n\nOn this server the call needs approval: it records a proposed operation showing what it would do " +
  "(the diff, the prompt and level, or the upstream call) and runs nothing. list_approvals shows it; " +
  "approve_change runs exactly those arguments.";

function proposalForm(def: ToolDef, o: GuardOptions): ToolDef {
  return {
    ...def,
    description: def.description + APPROVAL_NOTE,
    annotations: { ...def.annotations, readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    outputSchema: ProposalDocument,
    task: false,
    async handler(args, ctx) {
      const who = requireLevel(def, ctx);
      const p = await propose(o.stores(), def, args as Record<string, unknown>, ctx, who);
      return {
        structured: {
          proposal: proposalView(p),
          message: `${def.name} needs approval on this server: proposal ${p.id} records what it would do ` +
            `(${
              p.preview.summary.replace(/\.$/, "")
            }) and nothing ran. Someone with an approvals token calls approve_change ` +
            `{"id": "${p.id}"}, or the owner approves it in poly dash or with poly approvals approve ${p.id}.`,
        },
      };
    },
  };
}

/** The tools guarded for HTTP. */
export function guardTools(tools: readonly ToolDef[], o: GuardOptions): ToolDef[] {
  checkRequireApproval([...o.requireApproval], tools);
  return tools.map((def) => {
    if (o.requireApproval.has(def.name)) return withIdentity(proposalForm(def, o));
    return {
      ...def,
      async handler(args, ctx) {
        requireLevel(def, ctx);
        return await def.handler(args, ctx);
      },
    };
  });
}
