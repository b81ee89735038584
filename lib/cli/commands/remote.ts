/**
 * `poly remote --url URL [--token-env VAR] [TOOL] [--arg k=v]... [--json '{...}']`:
 * call one tool of a `poly mcp --http` server and print its document (without
 * TOOL: list the server's tools). The token is read from an environment
 * variable, which must be named POLY_* (poly may read no others); the default is
 * POLY_TOKEN. Exit code: the report's for the lint and format tools, else 1 when
 * the tool returned an error; 2 when the server could not be used. docs/http.md.
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
  string,
  withDefault,
} from "../_optique.ts";
import { defineCommand } from "../command.ts";

interface RemoteValue {
  cmd: "remote";
  url: string;
  tokenEnv: string;
  tool?: string;
  args: readonly string[];
  json?: string;
  timeout: number;
}

const parser = command(
  "remote",
  object({
    cmd: constant("remote" as const),
    url: option("--url", string({ metavar: "URL" }), {
      description: message`The server's MCP endpoint, e.g. http://127.0.0.1:8765/mcp.`,
    }),
    tokenEnv: withDefault(
      option("--token-env", string({ metavar: "VAR" }), {
        description: message`Environment variable holding the token; must be named POLY_*`,
      }),
      "POLY_TOKEN",
    ),
    tool: optional(argument(string({ metavar: "TOOL" }), {
      description: message`The tool to call (omit to list the server's tools).`,
    })),
    args: multiple(option("--arg", string({ metavar: "KEY=VALUE" }), {
      description:
        message`One argument, converted by the tool's schema (numbers, booleans, JSON); repeat a key for an array parameter.`,
    })),
    json: optional(option("--json", string({ metavar: "JSON" }), {
      description: message`All arguments as one JSON object (--arg values are applied on top).`,
    })),
    timeout: withDefault(
      option("--timeout", integer({ min: 1, max: 86_400, metavar: "SECONDS" }), {
        description: message`Time limit of the call, reset by progress, in seconds`,
      }),
      1800,
    ),
  }),
  {
    brief: message`Call a tool of a remote poly mcp --http server as a token allows.`,
    description:
      message`A client of poly mcp --http: the command line can do exactly what its token allows. Prints the tool's document.`,
  },
);

/** `poly remote`. */
export const remoteCommand = defineCommand<RemoteValue>({
  parser,
  async run(value, io) {
    const { remote, tokenFromEnv } = await import("../../remote/client.ts");
    const out = await remote({
      url: value.url,
      token: tokenFromEnv(value.tokenEnv),
      tool: value.tool,
      args: value.args,
      json: value.json,
      timeoutMs: value.timeout * 1000,
    });
    if (out.stdout) await io.stdout(out.stdout);
    if (out.stderr) await io.stderr(out.stderr);
    return out.code;
  },
});
