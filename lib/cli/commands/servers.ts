/**
 * `poly servers add|consent|refresh|list|show|remove`: upstream MCP servers for the
 * gateway. Registering one enables none of its tools (see `poly grants`). docs/gateway.md.
 *
 * @module
 */
import {
  argument,
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
import { pathValue } from "../_path.ts";
import { defineCommand } from "../command.ts";
import type { CommandIO } from "../command.ts";
import { UsageError } from "../../errors/mod.ts";
import { formatOption, jsonText } from "../output.ts";

const format = formatOption(["human", "json"]);
const name = argument(string({ metavar: "NAME" }), { description: message`Server name.` });
const expected = optional(option("--expected-revision", integer({ min: 1 }), {
  description:
    message`Refuse unless the server is still at this revision (default: the revision read when the command starts).`,
}));
const timeout = optional(option("--timeout-ms", integer({ min: 100, max: 600_000 }), {
  description: message`Time limit of each request to the server (default 30000).`,
}));

const add = command(
  "add",
  object({
    action: constant("add" as const),
    name,
    url: optional(option("--url", string({ metavar: "URL" }), {
      description: message`Streamable HTTP endpoint (no credentials, query string or fragment).`,
    })),
    command: optional(option("--command", string({ metavar: "CMD ARGS" }), {
      description: message`Stdio server command line, run inside bubblewrap in the current directory.`,
    })),
    cwd: optional(option("--cwd", pathValue("DIR", "directory"), {
      description: message`Working directory of a stdio server (default: the current directory).`,
    })),
    env: multiple(option("--env", string({ metavar: "NAME[=VAR]" }), {
      description:
        message`Give a stdio server this variable, read from poly's environment now and sealed (NAME=VAR: poly's VAR under the name NAME). Repeatable.`,
    })),
    bindRo: multiple(option("--bind-ro", string({ metavar: "PATH" }), {
      description: message`Bind this path read-only into a stdio server's sandbox. Repeatable.`,
    })),
    tokenStdin: option("--token-stdin", {
      description: message`Read a bearer token from stdin (sealed, never shown).`,
    }),
    tokenEnv: optional(option("--token-env", string({ metavar: "VAR" }), {
      description: message`Read a bearer token from this variable (poly may read POLY_* variables).`,
    })),
    oauth: option("--oauth", { description: message`Authorize with OAuth (authorization code with PKCE).` }),
    clientId: optional(option("--client-id", string({ metavar: "ID" }), {
      description: message`OAuth: a pre-registered client id (default: dynamic registration).`,
    })),
    scope: optional(
      option("--scope", string({ metavar: "SCOPES" }), { description: message`OAuth: scopes to ask for.` }),
    ),
    redirectPort: optional(option("--redirect-port", integer({ min: 1, max: 65535 }), {
      description: message`OAuth: loopback port of the redirect URI (default: a free port, then kept).`,
    })),
    noWait: option("--no-wait", { description: message`OAuth: store the server awaiting consent and return.` }),
    timeout,
    format,
  }),
  {
    brief: message`Register an upstream MCP server (discovery first; no tool is usable until granted).`,
    description:
      message`Register an upstream MCP server over Streamable HTTP (--url) or stdio (--command). Its tools are listed first and the server is stored only if that succeeds. A bearer token is sealed and never shown again. With --oauth the server is stored awaiting consent, the authorization URL is printed, and poly waits for the browser's redirect on a loopback port.`,
  },
);

const consent = command(
  "consent",
  object({
    action: constant("consent" as const),
    name,
    timeout: optional(option("--timeout-ms", integer({ min: 1000, max: 3_600_000 }), {
      description: message`How long to wait for the browser to come back (default 300000).`,
    })),
    format,
  }),
  {
    brief: message`Authorize an OAuth server: print the authorization URL and wait for the redirect.`,
  },
);

const refresh = command(
  "refresh",
  object({ action: constant("refresh" as const), name, expected, timeout, format }),
  { brief: message`Discover a server's tools again; the revision goes up only if something changed.` },
);

const list = command(
  "list",
  object({
    action: constant("list" as const),
    all: option("--all", { description: message`Include removed servers.` }),
    format,
  }),
  { brief: message`List upstream servers with their status, revision and grants.` },
);

const show = command(
  "show",
  object({ action: constant("show" as const), name, format }),
  { brief: message`Show a server's tools with their ids, fingerprints and grants.` },
);

const remove = command(
  "remove",
  object({ action: constant("remove" as const), name, expected, format }),
  { brief: message`Disable a server (refused while it has an unresolved mutation).` },
);

type Format = "human" | "json";
type ServersValue =
  | {
    action: "add";
    name: string;
    url?: string;
    command?: string;
    cwd?: string;
    env: readonly string[];
    bindRo: readonly string[];
    tokenStdin: boolean;
    tokenEnv?: string;
    oauth: boolean;
    clientId?: string;
    scope?: string;
    redirectPort?: number;
    noWait: boolean;
    timeout?: number;
    format: Format;
  }
  | { action: "consent"; name: string; timeout?: number; format: Format }
  | { action: "refresh"; name: string; expected?: number; timeout?: number; format: Format }
  | { action: "list"; all: boolean; format: Format }
  | { action: "show"; name: string; format: Format }
  | { action: "remove"; name: string; expected?: number; format: Format };

/** `poly servers`. */
export const serversCommand = defineCommand<ServersValue>({
  parser: command("servers", or(add, consent, refresh, list, show, remove), {
    brief: message`Register and review upstream MCP servers for the gateway.`,
  }),
  async run(value, io) {
    const gw = await import("../../gateway/mod.ts");
    const render = await import("../../gateway/render.ts");
    const { expectedRevision, checkedAgainst } = await import("../_gateway.ts");
    const db = gw.gatewayStore();
    const out = (doc: unknown, text: string) => io.stdout(value.format === "json" ? jsonText(doc) : text);
    switch (value.action) {
      case "add": {
        const result = await runAdd(value, io);
        await out(result, render.renderDiscovery("Registered", result));
        return 0;
      }
      case "consent": {
        const result = await gw.consentServer(db, value.name, {
          onAuthorizationUrl: (url) => announce(io, value.name, url),
          timeoutMs: value.timeout,
        });
        await out(result, render.renderDiscovery("Authorized", result));
        return 0;
      }
      case "refresh": {
        const rev = expectedRevision(db, value.name, value.expected);
        const result = await gw.refreshServer(db, value.name, rev, { timeoutMs: value.timeout });
        const checked = checkedAgainst(rev, value.expected);
        await out(
          { ...result, checked_against: checked.doc },
          render.renderDiscovery("Refreshed", result) + checked.line,
        );
        return 0;
      }
      case "list": {
        const servers = gw.listServers(db, value.all);
        await out({ servers }, render.renderServers(servers));
        return 0;
      }
      case "show": {
        const detail = render.serverDetail(db, value.name);
        await out(detail, render.renderServerDetail(detail));
        return 0;
      }
      case "remove": {
        const rev = expectedRevision(db, value.name, value.expected);
        const server = gw.removeServer(db, value.name, rev);
        const checked = checkedAgainst(rev, value.expected);
        await out(
          { server, checked_against: checked.doc },
          `Removed "${server.name}" (revision ${server.revision}).\n${checked.line}`,
        );
        return 0;
      }
    }
  },
});

async function runAdd(value: Extract<ServersValue, { action: "add" }>, io: CommandIO) {
  const gw = await import("../../gateway/mod.ts");
  const { envFromPoly, tokenFromEnv, tokenFromStdin } = await import("../_gateway.ts");
  const { resolve } = await import("node:path");
  if (value.tokenStdin && value.tokenEnv !== undefined) {
    throw new UsageError("Give --token-stdin or --token-env, not both");
  }
  if ((value.tokenStdin || value.tokenEnv !== undefined) && value.oauth) {
    throw new UsageError("Give a bearer token or --oauth, not both");
  }
  const oauthOnly = value.clientId !== undefined || value.scope !== undefined || value.redirectPort !== undefined ||
    value.noWait;
  if (oauthOnly && !value.oauth) {
    throw new UsageError("--client-id, --scope, --redirect-port and --no-wait go with --oauth");
  }
  if (value.cwd !== undefined && value.command === undefined) throw new UsageError("--cwd goes with --command");
  if ((value.env.length > 0 || value.bindRo.length > 0) && value.command === undefined) {
    throw new UsageError("--env and --bind-ro go with --command");
  }
  const token = value.tokenStdin
    ? await tokenFromStdin()
    : value.tokenEnv !== undefined
    ? tokenFromEnv(value.tokenEnv)
    : undefined;
  return await gw.addServer(gw.gatewayStore(), {
    name: value.name,
    url: value.url,
    command: value.command,
    cwd: value.command === undefined ? undefined : resolve(io.cwd, value.cwd ?? "."),
    env: envFromPoly(value.env),
    bindRo: value.bindRo.map((p) => resolve(io.cwd, p)),
    token,
    oauth: value.oauth ? { clientId: value.clientId, scope: value.scope, redirectPort: value.redirectPort } : undefined,
    onAuthorizationUrl: value.oauth && !value.noWait ? (url) => announce(io, value.name, url) : undefined,
    timeoutMs: value.timeout,
  });
}

async function announce(io: CommandIO, name: string, url: URL): Promise<void> {
  await io.stderr(
    `Open this URL in a browser to let poly use "${name}", then come back here:\n${url.href}\nWaiting for the authorization...\n`,
  );
}
