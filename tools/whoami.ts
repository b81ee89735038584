/**
 * `whoami` — who this server takes the caller to be: over HTTP the token's
 * member, role, access level, approvals switch and the levels that allows, and
 * which tools need approval here; over stdio, the owner.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, READ_ONLY } from "./_tool.ts";
import { TOOL_LEVELS } from "../lib/access/levels.ts";

const Level = z.enum(TOOL_LEVELS);

/** The `whoami` document. */
export const WhoamiDocument = z.object({
  transport: z.enum(["http", "stdio"]),
  /** The member (null over stdio: the owner who started the server). */
  member: z.string().nullable(),
  role: z.string(),
  access: z.string(),
  approvals: z.boolean(),
  token: z.object({ id: z.string(), name: z.string(), expires_at: z.string().nullable() }).optional(),
  /** The tool levels this caller may use. */
  levels: z.array(Level),
  /** Tools that become proposals when called over HTTP ([serve] require_approval). */
  require_approval: z.array(z.string()),
  root: z.string(),
});

/** The `whoami` tool. */
export const whoamiTool = defineTool({
  name: "whoami",
  title: "Who am I to this server",
  description:
    "Who this server takes you to be: over HTTP your token's member, role, access (read or act), approvals switch, the tool levels that allows, and which tools need approval here; over stdio, the owner. Call it before act tools to know what will run and what becomes a proposal.",
  level: "read",
  annotations: READ_ONLY,
  inputSchema: {},
  outputSchema: WhoamiDocument,
  async handler(_args, ctx) {
    const access = await import("../lib/access/mod.ts");
    const serve = await access.loadServeSection(ctx.root, ctx.defaultConfig).catch(() => access.SERVE_DEFAULTS);
    const who = ctx.caller;
    if (!who) {
      return {
        structured: {
          transport: "stdio" as const,
          member: null,
          role: "owner",
          access: "act",
          approvals: false,
          levels: ["read", "act"] as ("read" | "act")[],
          require_approval: serve.require_approval,
          root: ctx.root,
        },
      };
    }
    const token = who.token ? access.accessStores().access.getToken(who.token) : undefined;
    return {
      structured: {
        transport: "http" as const,
        member: who.member,
        role: who.role,
        access: who.access,
        approvals: who.approvals,
        ...(token ? { token: { id: token.id, name: token.name, expires_at: token.expires_at } } : {}),
        levels: access.allowedLevels(who),
        require_approval: serve.require_approval,
        root: ctx.root,
      },
    };
  },
});
