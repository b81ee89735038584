/**
 * `poly grants set|revoke|preauthorize|list`: which upstream tools the gateway may use, each pinned
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
} from "../_optique.ts";
import { defineCommand } from "../command.ts";
import { formatOption, jsonText } from "../output.ts";

const format = formatOption(["human", "json"]);
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

const preauthorize = command(
  "preauthorize",
  object({
    action: constant("preauthorize" as const),
    server,
    tool,
    until: optional(option("--until", string({ metavar: "WHEN" }), {
      description:
        message`When it ends: a time (2027-01-31, 2027-01-31T12:00Z) or a duration from now (30m, 8h, 7d, 2w).`,
    })),
    by: optional(option("--by", string({ metavar: "WHO" }), {
      description: message`Who pre-authorizes, for the record (default: owner (cli)).`,
    })),
    where: multiple(option("--where", string({ metavar: "PATH=VALUE" }), {
      description:
        message`Only writes whose argument at PATH equals VALUE (JSON, else a string), e.g. --where repo='"poly"'. Repeatable; all must hold.`,
    })),
    clear: option("--clear", { description: message`Remove the pre-authorization: writes are proposed again.` }),
    expected,
    format,
  }),
  { brief: message`Let writes of one write grant through unattended (else each is a proposal a person approves).` },
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
  | {
    action: "preauthorize";
    server: string;
    tool: string;
    until?: string;
    by?: string;
    where: readonly string[];
    clear?: boolean;
    expected?: number;
    format: Format;
  }
  | { action: "list"; server?: string; format: Format };

/** `--until`: a duration from now (7d) or a time. */
function untilTime(text: string): string {
  const m = /^(\d+)\s*([mhdw])$/.exec(text.trim().toLowerCase());
  if (!m) return text;
  const unit = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[m[2] as "m" | "h" | "d" | "w"];
  return new Date(Date.now() + Number(m[1]) * unit).toISOString();
}

/** `poly grants`. */
export const grantsCommand = defineCommand<GrantsValue>({
  parser: command("grants", or(set, revoke, preauthorize, list), {
    brief: message`Grant upstream MCP tools to the gateway, pinned to reviewed fingerprints.`,
  }),
  async run(value, io) {
    const gw = await import("../../gateway/mod.ts");
    const { renderGrants } = await import("../../gateway/render.ts");
    const { expectedRevision, checkedAgainst } = await import("../_gateway.ts");
    const db = gw.gatewayStore();
    const out = (doc: unknown, text: string) => io.stdout(value.format === "json" ? jsonText(doc) : text);
    if (value.action === "list") {
      if (value.server !== undefined) gw.requireServer(db, value.server);
      const grants = gw.grantStates(db, value.server);
      await out({ grants }, renderGrants(grants));
      return 0;
    }
    const rev = expectedRevision(db, value.server, value.expected);
    const checked = checkedAgainst(rev, value.expected);
    if (value.action === "preauthorize") {
      if (value.clear) {
        const r = gw.clearPreauthorization(db, value.server, value.tool, rev);
        await out(
          { ...r, checked_against: checked.doc },
          `${
            r.changed ? `Writes of "${value.server}/${value.tool}" are proposed again` : "Nothing changed"
          } (revision ${r.revision}).\n${checked.line}`,
        );
        return 0;
      }
      if (value.until === undefined) {
        throw new gw.GatewayError("invalid_request", "poly grants preauthorize needs --until WHEN (or --clear)");
      }
      const r = gw.setPreauthorization(db, {
        server: value.server,
        tool: value.tool,
        by: value.by ?? "owner (cli)",
        until: untilTime(value.until),
        where: value.where.map(gw.parseConstraint),
        expectedRevision: rev,
      });
      await out(
        r,
        `Writes of "${value.server}/${r.grant.tool}" ${
          r.preauthorization.where.length ? "matching the constraints " : ""
        }run unattended until ${r.preauthorization.until} (revision ${r.revision}).\n${checked.line}`,
      );
      return 0;
    }
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
    await out({ ...result, checked_against: checked.doc }, lines.join("\n") + "\n" + checked.line);
    return 0;
  },
});
