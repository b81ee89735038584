/**
 * Who may do what over `poly mcp --http`: a member has a role, a token has an
 * access level (read or act) and a separate approvals switch, and every tool has
 * a level (read, act or approve). {@link allows} is the one place that decides.
 *
 * | tool level | allowed when |
 * |---|---|
 * | read | any valid token |
 * | act | the token's access is `act` and the member is not a viewer |
 * | approve | the token has the approvals switch and the member is not a viewer |
 *
 * A viewer can only read, whatever the token says. The role is read from the
 * store on every request, so a demotion takes effect on the next one.
 *
 * @example
 * ```ts
 * allows({ member: "ana", role: "viewer", access: "act", approvals: true }, "act"); // false
 * ```
 *
 * @module
 */
/** Member roles. `member` and `admin` act alike over HTTP; `viewer` only reads. */
export const ROLES = ["viewer", "member", "admin"] as const;
/** A member's role. */
export type Role = typeof ROLES[number];

/** Token access levels. */
export const ACCESS_LEVELS = ["read", "act"] as const;
/** A token's access level. */
export type Access = typeof ACCESS_LEVELS[number];

/** Tool levels, weakest first: every MCP tool declares one (`ToolDef.level` in tools/_tool.ts). */
export const TOOL_LEVELS = ["read", "act", "approve"] as const;
/** The access level a caller needs to use a tool. */
export type ToolLevel = typeof TOOL_LEVELS[number];

/** The identity a request carries once its token was checked. */
export interface Identity {
  member: string;
  role: Role | string;
  access: Access | string;
  approvals: boolean;
  /** The token's public id (`tok_…`); never the secret. */
  token?: string;
}

/** Whether `identity` may use a tool of `level`. */
export function allows(identity: Identity, level: ToolLevel): boolean {
  if (level === "read") return true;
  if (identity.role === "viewer" || !ROLES.includes(identity.role as Role)) return false;
  if (level === "act") return identity.access === "act";
  if (level === "approve") return identity.approvals === true;
  return false;
}

/** The levels `identity` may use, weakest first. */
export function allowedLevels(identity: Identity): ToolLevel[] {
  return TOOL_LEVELS.filter((level) => allows(identity, level));
}

/** Why `identity` may not use a tool of `level` (for the refusal message). */
export function refusalReason(identity: Identity, level: ToolLevel): string {
  if (identity.role === "viewer") return `member "${identity.member}" is a viewer, and viewers can only read`;
  if (level === "act") return `the token has ${identity.access} access; this tool needs act`;
  if (level === "approve") return "the token has no approvals switch; this tool needs it";
  return `level ${level} is not allowed`;
}
