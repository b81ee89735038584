/**
 * Every CLI command. Add a command by adding its file and one line here.
 *
 * @module
 */
import type { CommandSpec } from "../command.ts";

/** All commands, in the order `poly --help` lists them. */
export const COMMANDS: CommandSpec[] = [
];
