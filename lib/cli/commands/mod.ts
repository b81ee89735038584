/**
 * Every CLI command. Add a command by adding its file and one line here.
 *
 * @module
 */
import type { CommandSpec } from "../command.ts";
import { lintCommand } from "./lint.ts";
import { fmtCommand } from "./fmt.ts";
import { configCommand } from "./config.ts";
import { hookCommand } from "./hook.ts";
import { hooksCommand } from "./hooks.ts";
import { agentsCommand } from "./agents.ts";
import { mcpCommand } from "./mcp.ts";
import { rulesCommand } from "./rules.ts";
import { enginesCommand } from "./engines.ts";
import { doctorCommand } from "./doctor.ts";
import { cacheCommand } from "./cache.ts";
import { daemonCommand } from "./daemon.ts";
import { serversCommand } from "./servers.ts";
import { grantsCommand } from "./grants.ts";
import { opsCommand } from "./ops.ts";
import { delegateCommand } from "./delegate.ts";
import { sessionsCommand } from "./sessions.ts";
import { rateCommand } from "./rate.ts";
import { statsCommand } from "./stats.ts";
import { dashCommand } from "./dash.ts";
import { membersCommand } from "./members.ts";
import { tokensCommand } from "./tokens.ts";
import { approvalsCommand } from "./approvals.ts";
import { remoteCommand } from "./remote.ts";
import { reportCommand } from "./report.ts";

/** All commands, in the order `poly --help` lists them. */
export const COMMANDS: CommandSpec[] = [
  lintCommand,
  fmtCommand,
  configCommand,
  hookCommand,
  hooksCommand,
  agentsCommand,
  mcpCommand,
  rulesCommand,
  enginesCommand,
  doctorCommand,
  cacheCommand,
  daemonCommand,
  serversCommand,
  grantsCommand,
  opsCommand,
  delegateCommand,
  sessionsCommand,
  rateCommand,
  statsCommand,
  dashCommand,
  membersCommand,
  tokensCommand,
  approvalsCommand,
  remoteCommand,
  reportCommand,
];
