/**
 * Every CLI command, loaded: the full list the complete parser (help pages,
 * usage errors, completion) is built from, derived from {@link COMMAND_TABLE}.
 *
 * @module
 */
import type { CommandSpec } from "../command.ts";
import { COMMAND_TABLE } from "./table.ts";

/** All commands, in the order `poly --help` lists them. */
export const COMMANDS: CommandSpec[] = await Promise.all(COMMAND_TABLE.map(([, load]) => load()));
