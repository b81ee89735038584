/**
 * Every CLI command. Add a command by adding its file and one line here.
 *
 * @module
 */
import type { CommandSpec } from "../command.ts";
import { lintCommand } from "./lint.ts";
import { fmtCommand } from "./fmt.ts";
import { configCommand } from "./config.ts";

/** All commands, in the order `poly --help` lists them. */
export const COMMANDS: CommandSpec[] = [
  lintCommand,
  fmtCommand,
  configCommand,
];
