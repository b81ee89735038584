/**
 * `poly grants set|revoke|list`: which upstream tools the gateway may use, each pinned
 * to the fingerprint a person reviewed. docs/gateway.md.
 *
 * @module
 */
import {
  argument,
  choice,
  command,
  constant,
  integer,
  message,
  multiple,
  object,
  option,
  optional,
  or,
  string,
  withDefault,
} from "../_optique.ts";
import { defineCommand } from "../command.ts";
import { lazy } from "../../lazy/mod.ts";

const format = withDefault(
  option("--format", choice(["human", "json"] as const, { metavar: "FORMAT" }), {
    description: message`Output format`,
  }),
  "human" as const,
);
const server = argument(string({ metavar: "NAME" }), { description: message`Server name.` });
const tool = argument(string({ metavar: "TOOL" }), { description: message`Tool name or id.` });
const expected = optional(option("--expected-revision", integer({ min: 1 }), {
  description:
    message`Refuse unless the server is still at this revision (default: the revision read when the command starts).`,
}));

const set = command(
  "set",
  object({
    action: constant("set" as const),
    server,
    tool,
    mode: option("--mode", choice(["read", "write"] as const), { description: message`read or write.` }),
    fingerprint: option("--fingerprint", string({ metavar: "FP" }), {
      description: message`The fingerprint you reviewed (poly servers show NAME); it must be the current one.`,
    }),
    verifiers: multiple(option("--verifier", string({ metavar: "TOOL" }), {
      description:
        message`A read-granted tool that verifies this write (at least one for --mode write; none for read).`,
    })),
    expected,
    format,
  }),
  { brief: message`Grant one tool as read, or as write with read verifiers.` },
);

const revoke = command(
  "revoke",
  object({ action: constant("revoke" as const), server, tool, expected, format }),
  { brief: message`Remove a grant.` },
);

const list = command(
  "list",
  object({
    action: constant("list" as const),
    server: optional(argument(string({ metavar: "NAME" }), { description: message`Only this server.` })),
    format,
  }),
  { brief: message`List grants and whether each still applies (active, stale, missing, unverified).` },
);

type Format = "human" | "json";
type GrantsValue =
  | {
    action: "set";
    server: string;
    tool: string;
    mode: "read" | "write";
    fingerprint: string;
    verifiers: readonly string[];
    expected?: number;
    format: Format;
  }
  | { action: "revoke"; server: string; tool: string; expected?: number; format: Format }
  | { action: "list"; server?: string; format: Format };

/** `poly grants`. */
export const grantsCommand = defineCommand<GrantsValue>({
  parser: command("grants", or(set, revoke, list), {
    brief: message`Grant upstream MCP tools to the gateway, pinned to reviewed fingerprints.`,
  }),
  async run(value, io) {
    const gw = await lazy.gateway();
    const { renderGrants } = await lazy.gatewayRender();
    const { json, expectedRevision } = await lazy.gatewayCli();
    const db = gw.gatewayStore();
    const out = (doc: unknown, text: string) => io.stdout(value.format === "json" ? json(doc) : text);
    if (value.action === "list") {
      if (value.server !== undefined) gw.requireServer(db, value.server);
      const grants = gw.grantStates(db, value.server);
      await out({ grants }, renderGrants(grants));
      return 0;
    }
    const rev = expectedRevision(db, value.server, value.expected);
    const result = value.action === "set"
      ? gw.setGrant(db, {
        server: value.server,
        tool: value.tool,
        mode: value.mode,
        fingerprint: value.fingerprint,
        verifiers: value.verifiers,
        expectedRevision: rev,
      })
      : gw.revokeGrant(db, value.server, value.tool, rev);
    const what = value.action === "set"
      ? `Granted "${value.server}/${result.grant?.tool}" as ${value.mode}`
      : `Revoked the grant of "${value.server}/${value.tool}"`;
    const lines = [`${result.changed ? what : "Nothing changed"} (revision ${result.revision}).`];
    if (result.unverified.length) {
      lines.push(`These write grants no longer have an applying verifier: ${result.unverified.join(", ")}`);
    }
    await out(result, lines.join("\n") + "\n");
    return 0;
  },
});
