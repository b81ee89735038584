/**
 * Two or three examples for every command's help page (`poly lint --help`),
 * keyed by the command's name; a subcommand's page shows its command's.
 *
 * @module
 */
import { lineBreak, type Message, text } from "./_optique.ts";

/** Examples per command: `[command line, what it does]`. */
export const EXAMPLES: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  lint: [
    ["poly lint", "lint the current directory"],
    ["poly lint --fix src/", "apply safe fixes under src/, then report what remains"],
    ["poly lint --statistics", "count findings per rule instead of listing them"],
  ],
  fmt: [
    ["poly fmt", "report files whose formatting differs (exit 1 if any)"],
    ["poly fmt --fix", "rewrite them in place"],
    ["poly fmt --format json src/", "the same check as a JSON report"],
  ],
  config: [
    ["poly config show", "the merged configuration of this directory"],
    ["poly config init", "write a starter poly.toml here"],
    ["poly config update", "fetch git extends bases and pin them"],
  ],
  hook: [["poly hook agent", "the agent hook (reads the host's JSON event on stdin)"]],
  hooks: [
    ["poly hooks install", "install poly's git pre-commit hook"],
    ["poly hooks run pre-commit", "run the hook as git would"],
  ],
  agents: [
    ["poly agents claude-md install --dry-run", "show what would be added to CLAUDE.md"],
    ["poly agents claude-md uninstall", "remove poly's section again"],
  ],
  mcp: [
    ["poly mcp", "serve MCP over stdio (what MCP hosts start)"],
    ["poly mcp --http 127.0.0.1:8765", "serve Streamable HTTP with access tokens"],
  ],
  rules: [
    ["poly rules list", "every ast-grep rule a run here would apply"],
    ["poly rules test --dir .poly/rules", "run the rules' own tests"],
  ],
  engines: [
    ["poly engines", "every engine and host tool, found or missing"],
    ["poly engines --format json", "the same as JSON"],
  ],
  doctor: [
    ["poly doctor", "what this repository needs that is missing, and how to install it"],
    ["poly doctor --format json", "the same check as JSON"],
  ],
  cache: [
    ["poly cache stats", "size and hit rate of the result cache"],
    ["poly cache clean --namespace lint", "drop the cached lint results"],
  ],
  daemon: [
    ["poly daemon start", "keep a resident poly for this repository"],
    ["poly daemon status", "which daemons run, and what they refused"],
    ["poly daemon stop", "stop this repository's daemon"],
  ],
  servers: [
    ["poly servers add docs --url https://example.com/mcp", "register an upstream MCP server"],
    ["poly servers list", "registered servers and their revisions"],
    ["poly servers show docs", "one server's tools and fingerprints"],
  ],
  grants: [
    ["poly grants list docs", "the grants of one server"],
    ["poly grants revoke docs search", "withdraw a grant"],
  ],
  ops: [
    ["poly ops list", "pending operations"],
    ["poly ops resolve op-1 --outcome applied --verify", "settle one after checking it"],
  ],
  delegate: [
    ["poly delegate -l 2 'Add a test for parse()'", "delegate a task at level 2"],
    ["poly delegate -l 4 --format json 'Review this diff'", "a harder task, answer as JSON"],
  ],
  sessions: [
    ["poly sessions", "recent delegated sessions"],
    ["poly sessions --limit 10 --format json", "the last ten as JSON"],
  ],
  rate: [
    ["poly rate codex:abc123 5", "rate a session 1-5"],
    ["poly rate codex:abc123 2 --note 'missed the tests'", "with a note"],
  ],
  stats: [
    ["poly stats", "call statistics per tool"],
    ["poly stats --export --output stats.json", "export them"],
  ],
  dash: [
    ["poly dash", "the dashboard (q quits)"],
    ["poly dash --once --width 100", "draw one frame and exit"],
  ],
  members: [
    ["poly members add alice --role member", "add a member"],
    ["poly members list", "every member and role"],
  ],
  tokens: [
    ["poly tokens create --member alice --access read", "an access token for poly mcp --http"],
    ["poly tokens list", "tokens (hashes only are kept)"],
  ],
  approvals: [
    ["poly approvals list", "proposals waiting for approval"],
    ["poly approvals approve prop_1 --note ok", "approve one"],
  ],
  remote: [
    ["POLY_TOKEN=... poly remote --url http://127.0.0.1:8765/mcp", "list a remote poly's tools"],
    ["poly remote --url http://127.0.0.1:8765/mcp lint --arg paths=src", "call one"],
  ],
  report: [
    ["poly report merge shard-1.json shard-2.json", "join sharded JSON reports into what one run reports"],
    ["poly report merge --format sarif shard-1.json shard-2.json", "the merged report as SARIF"],
  ],
};

/** The top-level help page's examples. */
export const TOP_EXAMPLES: readonly (readonly [string, string])[] = [
  ["poly lint", "lint every language in the current directory"],
  ["poly fmt --fix", "format every file in place"],
  ["poly doctor", "what this repository needs that is missing"],
];

/**
 * The examples as an optique message: one `command  what it does` line each,
 * aligned; under a `title` line, indented, when one is given (a page's footer).
 */
export function examplesMessage(examples: readonly (readonly [string, string])[], title?: string): Message {
  const width = Math.max(...examples.map(([line]) => line.length)) + 2;
  const indent = title ? "  " : "";
  return [
    ...(title ? [text(title)] : []),
    ...examples.flatMap(([line, what], i) => [
      ...(i > 0 || title ? [lineBreak()] : []),
      text(`${indent}${line}${" ".repeat(width - line.length)}${what}`),
    ]),
  ];
}
