/**
 * `poly tokens create|list|revoke`: access tokens for `poly mcp --http`. A
 * token has an access level (read or act) and an approvals switch; `create`
 * prints it once and only its SHA-256 is stored. A revoked or expired token is
 * refused from the next request on. docs/http.md.
 *
 * @module
 */
import { argument, choice, command, constant, message, object, option, optional, or, string } from "../_optique.ts";
import { defineCommand } from "../command.ts";
import { formatOption, writeDocument } from "../output.ts";

type Format = "human" | "json";
const format = formatOption(["human", "json"]);

const create = command(
  "create",
  object({
    action: constant("create" as const),
    member: option("--member", string({ metavar: "NAME" }), { description: message`The member the token acts as.` }),
    access: option("--access", choice(["read", "act"] as const), {
      description: message`read: read tools only; act: also the mutating tools (a viewer still only reads).`,
    }),
    approvals: option("--approvals", { description: message`May approve and reject proposed operations.` }),
    expires: optional(option("--expires", string({ metavar: "DURATION" }), {
      description: message`Lifetime such as 30d, 12h, 2w or never (default never).`,
    })),
    name: optional(option("--name", string({ metavar: "LABEL" }), {
      description: message`A label for listings (default MEMBER-N).`,
    })),
    format,
  }),
  { brief: message`Create a token and print it once.` },
);
const list = command(
  "list",
  object({
    action: constant("list" as const),
    member: optional(option("--member", string({ metavar: "NAME" }), { description: message`Only this member's.` })),
    all: option("--all", { description: message`Include revoked and expired tokens.` }),
    format,
  }),
  { brief: message`List tokens: names, levels, state and last use (never the secret).` },
);
const revoke = command(
  "revoke",
  object({
    action: constant("revoke" as const),
    id: argument(string({ metavar: "ID" }), { description: message`Token id (tok_...) or name.` }),
    format,
  }),
  { brief: message`Revoke a token (refused from the next request on).` },
);

type TokensValue =
  | {
    action: "create";
    member: string;
    access: "read" | "act";
    approvals: boolean;
    expires?: string;
    name?: string;
    format: Format;
  }
  | { action: "list"; member?: string; all: boolean; format: Format }
  | { action: "revoke"; id: string; format: Format };

/** `poly tokens`. */
export const tokensCommand = defineCommand<TokensValue>({
  parser: command("tokens", or(create, list, revoke), {
    brief: message`Create, list and revoke access tokens for poly mcp --http.`,
  }),
  async run(value, io) {
    const { accessStores, parseDuration } = await import("../../access/mod.ts");
    const { renderTokens } = await import("../../access/render.ts");
    const { access } = accessStores();
    const json = (doc: unknown) => writeDocument(io, doc, "json");
    if (value.action === "create") {
      const { token, record } = access.createToken({
        member: value.member,
        access: value.access,
        approvals: value.approvals,
        expiresInMs: value.expires === undefined ? undefined : parseDuration(value.expires),
        name: value.name,
      });
      if (value.format === "json") {
        await json({ token, record });
      } else {
        await io.stdout(token + "\n");
        const role = access.getMember(record.member)?.role;
        await io.stderr(
          `Created token ${record.id} ("${record.name}") for ${record.member}: ${record.access} access${
            record.approvals ? ", approvals" : ""
          }, ${record.expires_at ? `expires ${record.expires_at}` : "no expiry"}.${
            role === "viewer" ? ` ${record.member} is a viewer, so it can only read.` : ""
          }\nStore it now: it is not shown again (only its SHA-256 is kept).\n`,
        );
      }
      return 0;
    }
    if (value.action === "list") {
      if (value.member !== undefined) access.requireMember(value.member);
      const tokens = access.listTokens({ member: value.member, all: value.all });
      if (value.format === "json") await json({ tokens });
      else await io.stdout(renderTokens(tokens));
      return 0;
    }
    const { record, changed } = access.revokeToken(value.id);
    if (value.format === "json") await json({ token: record, changed });
    else {
      await io.stdout(
        changed
          ? `Revoked token ${record.id} ("${record.name}") of ${record.member}.\n`
          : `Token ${record.id} was already revoked.\n`,
      );
    }
    return 0;
  },
});
