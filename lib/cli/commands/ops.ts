/**
 * `poly ops list|show|resolve`: the gateway's recorded MCP operations. A write whose
 * outcome is uncertain blocks further writes to its server until resolved here.
 * docs/gateway.md.
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
  object,
  option,
  optional,
  or,
  string,
} from "../_optique.ts";
import { defineCommand } from "../command.ts";
import { UsageError } from "../../errors/mod.ts";
import { formatOption, jsonText } from "../output.ts";

const format = formatOption(["human", "json"]);
const id = argument(string({ metavar: "OP" }), { description: message`Operation id (op-...).` });

const list = command(
  "list",
  object({
    action: constant("list" as const),
    server: optional(option("--server", string({ metavar: "NAME" }), { description: message`Only this server.` })),
    all: option("--all", {
      description: message`Every operation (reads, settled writes), not only unresolved writes.`,
    }),
    format,
  }),
  { brief: message`List unresolved MCP mutations (or every operation with --all).` },
);

const show = command(
  "show",
  object({ action: constant("show" as const), id, format }),
  { brief: message`Show one operation: arguments, verification, what was observed.` },
);

const resolve = command(
  "resolve",
  object({
    action: constant("resolve" as const),
    id,
    outcome: optional(option("--outcome", choice(["applied", "not-applied"] as const), {
      description: message`What you found when you checked the upstream system yourself.`,
    })),
    verify: option("--verify", { description: message`Run the recorded verification again; resolve if it confirms.` }),
    note: optional(option("--note", string({ metavar: "TEXT" }), { description: message`Why, for the record.` })),
    timeout: optional(option("--timeout-ms", integer({ min: 100, max: 600_000 }), {
      description: message`Time limit of the verifier call (with --verify).`,
    })),
    format,
  }),
  { brief: message`Resolve an unresolved MCP mutation (--verify, or --outcome after checking by hand).` },
);

type Format = "human" | "json";
type OpsValue =
  | { action: "list"; server?: string; all: boolean; format: Format }
  | { action: "show"; id: string; format: Format }
  | {
    action: "resolve";
    id: string;
    outcome?: "applied" | "not-applied";
    verify: boolean;
    note?: string;
    timeout?: number;
    format: Format;
  };

/** `poly ops`. */
export const opsCommand = defineCommand<OpsValue>({
  parser: command("ops", or(list, show, resolve), {
    brief: message`List and resolve the gateway's recorded MCP operations.`,
  }),
  async run(value, io) {
    const gw = await import("../../gateway/mod.ts");
    const { renderOp, renderOps } = await import("../../gateway/render.ts");
    const db = gw.gatewayStore();
    const out = (doc: unknown, text: string) => io.stdout(value.format === "json" ? jsonText(doc) : text);
    if (value.action === "list") {
      const ops = gw.listOps(db, { server: value.server, all: value.all });
      await out({ operations: ops }, renderOps(ops, value.all));
      return 0;
    }
    if (value.action === "show") {
      const op = gw.getOp(db, value.id);
      await out(op, renderOp(op));
      return 0;
    }
    if (value.verify === (value.outcome !== undefined)) {
      throw new UsageError("Give exactly one of --verify or --outcome applied|not-applied");
    }
    if (value.verify) {
      const session = await gw.openGatewaySession({ dir: io.cwd, db });
      const result = await gw.verifyOp(gw.dispatchContext(session, value.timeout), value.id);
      const v = result.verification;
      const text = v.matched
        ? `Resolved "${value.id}": ${v.tool} confirmed the expected value at ${v.result_path}.\n`
        : `Not resolved: ${
          v.detail ??
            `${v.tool} returned ${JSON.stringify(v.observed)} at ${v.result_path}, expected ${
              JSON.stringify(v.expected)
            }`
        }. Check the upstream system and run poly ops resolve ${value.id} --outcome applied|not-applied\n`;
      await out(result, text);
      return v.matched ? 0 : 1;
    }
    const op = gw.resolveOp(db, value.id, value.outcome === "applied" ? "applied" : "not_applied", value.note);
    await out(op, `Resolved "${op.id}" as ${op.resolution}.\n`);
    return 0;
  },
});
