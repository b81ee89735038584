/**
 * The command table: each command's word and how to load its module. The one
 * list of commands (`mod.ts` derives the full list from it, in this order, which
 * is the order `poly --help` lists them). Add a command by adding its file and
 * one line here.
 *
 * Each loader is a literal `import()`: with Deno's `lazy-dynamic-imports`
 * (deno.json) `deno run` walks a command's module graph only when the command
 * runs, and `deno compile` still embeds it. `lib/cli/main.ts` loads just the
 * command named on the command line (the fast path), so `poly hook agent`,
 * which the plugin runs on every tool call, pays for its own command only.
 *
 * @module
 */
import type { CommandSpec } from "../command.ts";

/** A command's word (`poly WORD ...`) and its loader. */
export type CommandEntry = readonly [word: string, load: () => Promise<CommandSpec>];

/** Every command, in the order `poly --help` lists them. */
export const COMMAND_TABLE: readonly CommandEntry[] = [
  ["lint", () => import("./lint.ts").then((m) => m.lintCommand)],
  ["fmt", () => import("./fmt.ts").then((m) => m.fmtCommand)],
  ["config", () => import("./config.ts").then((m) => m.configCommand)],
  ["hook", () => import("./hook.ts").then((m) => m.hookCommand)],
  ["hooks", () => import("./hooks.ts").then((m) => m.hooksCommand)],
  ["agents", () => import("./agents.ts").then((m) => m.agentsCommand)],
  ["mcp", () => import("./mcp.ts").then((m) => m.mcpCommand)],
  ["rules", () => import("./rules.ts").then((m) => m.rulesCommand)],
  ["engines", () => import("./engines.ts").then((m) => m.enginesCommand)],
  ["doctor", () => import("./doctor.ts").then((m) => m.doctorCommand)],
  ["cache", () => import("./cache.ts").then((m) => m.cacheCommand)],
  ["daemon", () => import("./daemon.ts").then((m) => m.daemonCommand)],
  ["servers", () => import("./servers.ts").then((m) => m.serversCommand)],
  ["grants", () => import("./grants.ts").then((m) => m.grantsCommand)],
  ["ops", () => import("./ops.ts").then((m) => m.opsCommand)],
  ["delegate", () => import("./delegate.ts").then((m) => m.delegateCommand)],
  ["sessions", () => import("./sessions.ts").then((m) => m.sessionsCommand)],
  ["rate", () => import("./rate.ts").then((m) => m.rateCommand)],
  ["stats", () => import("./stats.ts").then((m) => m.statsCommand)],
  ["dash", () => import("./dash.ts").then((m) => m.dashCommand)],
  ["members", () => import("./members.ts").then((m) => m.membersCommand)],
  ["tokens", () => import("./tokens.ts").then((m) => m.tokensCommand)],
  ["approvals", () => import("./approvals.ts").then((m) => m.approvalsCommand)],
  ["remote", () => import("./remote.ts").then((m) => m.remoteCommand)],
  ["report", () => import("./report.ts").then((m) => m.reportCommand)],
];

/** The loader of the command named `word`, if there is one. */
export function commandLoader(word: string | undefined): (() => Promise<CommandSpec>) | undefined {
  return COMMAND_TABLE.find(([name]) => name === word)?.[1];
}
