/**
 * What a usage error prints: the one line that matters first (with optique's
 * "did you mean" suggestion for a misspelt command or option), then the usage of
 * the command the arguments were aimed at (not all 55 lines of `poly --help`),
 * then where the full help is.
 *
 * ```text
 * error: Unexpected option or argument: "--fromat".
 *   Did you mean `--format`?
 *
 * Usage: poly lint [--format FORMAT] [--exclude GLOB...] ...
 *
 * Run `poly lint --help` for every option and examples.
 * ```
 *
 * @module
 */
import {
  findSimilar,
  formatMessage,
  formatUsage,
  getDocPage,
  type Message,
  parse,
  type Parser,
  type Usage,
} from "./_optique.ts";

/** A command of the command line: its parser (whose usage starts with `command NAME`). */
interface Command {
  // deno-lint-ignore no-explicit-any
  parser: Parser<"sync", any, any>;
}

/** The name a command's parser answers to (its usage's first term). */
export function commandName(command: Command): string | undefined {
  const first = command.parser.usage[0];
  return first?.type === "command" ? first.name : undefined;
}

/**
 * The longest run of leading arguments that names a command (`["config"]` for
 * `config shwo`, `["servers", "add"]` for `servers add --urll x`), by asking the
 * parser for the help page of each longer prefix.
 */
// deno-lint-ignore no-explicit-any
export function commandPath(parser: Parser<"sync", any, any>, args: readonly string[]): string[] {
  const path: string[] = [];
  for (const arg of args) {
    if (arg.startsWith("-")) break;
    const candidate = [...path, arg];
    const doc = getDocPage(parser, candidate) as { usage: Usage } | undefined;
    if (!doc || !usageLines(doc.usage).every((line) => line.startsWith(candidate.join(" ")))) break;
    path.push(arg);
  }
  return path;
}

/** The option names the help page of `path` lists. */
// deno-lint-ignore no-explicit-any
function optionNames(parser: Parser<"sync", any, any>, path: readonly string[]): string[] {
  const doc = getDocPage(parser, [...path]) as
    | { sections: { entries: { term: { type: string; names?: string[] } }[] }[] }
    | undefined;
  return (doc?.sections ?? []).flatMap((s) => s.entries).flatMap((e) =>
    e.term.type === "option" ? e.term.names ?? [] : []
  );
}

function usageLines(usage: Usage): string[] {
  return formatUsage("poly", usage, { expandCommands: true }).split("\n").map((line) => line.replace(/^poly /, ""));
}

/**
 * Wraps one usage line at `width` columns between its terms (never inside
 * `[--format FORMAT]`), continuation lines indented under the first term.
 */
export function wrapUsage(line: string, width: number, indent: number): string[] {
  const terms: string[] = [];
  let depth = 0, current = "";
  for (const ch of line) {
    if (ch === " " && depth === 0) {
      if (current) terms.push(current);
      current = "";
      continue;
    }
    if (ch === "[" || ch === "(") depth++;
    if (ch === "]" || ch === ")") depth = Math.max(0, depth - 1);
    current += ch;
  }
  if (current) terms.push(current);
  const lines: string[] = [];
  let out = "";
  for (const term of terms) {
    if (out && out.length + 1 + term.length > width) {
      lines.push(out);
      out = " ".repeat(indent) + term;
    } else out = out ? `${out} ${term}` : term;
  }
  if (out) lines.push(out);
  return lines;
}

/** Options of {@link usageErrorText}. */
export interface UsageErrorOptions {
  /** The whole command line's parser (every command). */
  // deno-lint-ignore no-explicit-any
  parser: Parser<"sync", any, any>;
  /** Every command, to re-parse with the one the arguments were aimed at. */
  commands: readonly Command[];
  /** The error the whole command line's parser gave. */
  error: Message;
  /** Columns to wrap the usage at. */
  width?: number;
}

/**
 * The text of a usage error (ends with a newline): the error, the suggestion, the
 * usage of the command aimed at (or of poly as a whole), and where help is.
 */
export function usageErrorText(args: readonly string[], options: UsageErrorOptions): string {
  const { parser, commands } = options;
  const width = options.width ?? 80;
  const path = commandPath(parser, args);
  // The command's own parser knows its options, so it can suggest `--format` for `--fromat`;
  // the whole command line's `or` only suggests command names.
  let error = options.error;
  const command = path.length > 0 ? commands.find((c) => commandName(c) === path[0]) : undefined;
  if (command) {
    const own = parse(command.parser, [...args]);
    if (!own.success) error = own.error;
  }
  const text = formatMessage(error, { quotes: true, colors: false }).trim();
  const [first, ...rest] = text.split(/\n+/);
  // A subcommand's own options (`servers add --urll`): the parser above it only knows command
  // names, so the suggestion comes from the options its help page lists.
  const bad = /^Unexpected option[^`"]*[`"](-[^`"]+)[`"]/.exec(first)?.[1];
  if (bad && !rest.some((line) => line.startsWith("Did you mean")) && path.length > 0) {
    const similar = findSimilar(bad, optionNames(parser, path));
    if (similar.length > 0) rest.push(`Did you mean ${similar.map((o) => `\`${o}\``).join(" or ")}?`);
  }
  const lines = [`error: ${first}`, ...rest.map((line) => `  ${line}`), ""];
  if (path.length > 0) {
    const doc = getDocPage(parser, path) as { usage: Usage } | undefined;
    const usage = doc ? usageLines(doc.usage) : [path.join(" ")];
    const label = "Usage: ";
    usage.forEach((line, i) => {
      const head = `poly ${line}`;
      const wrapped = wrapUsage(head, width - label.length, `poly ${path.join(" ")} `.length);
      wrapped.forEach((w, j) => lines.push(`${i === 0 && j === 0 ? label : " ".repeat(label.length)}${w}`));
    });
    lines.push("", `Run \`poly ${path.join(" ")} --help\` for every option and examples.`);
  } else {
    lines.push("Usage: poly COMMAND [ARGS...]", "", "Run `poly --help` for every command.");
  }
  return lines.join("\n") + "\n";
}

// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

/**
 * One layout for every help page: the usage first, then what the command does
 * (its description, or its one-line brief when it has no description), then its
 * options and examples. optique prints a command's brief above the usage when it
 * has one; this moves it below the usage (poly's own page too).
 */
export function helpLayout(text: string): string {
  const lines = text.split("\n");
  const plain = lines.map((l) => l.replace(ANSI, ""));
  const at = plain.findIndex((l) => l.startsWith("Usage: "));
  if (at <= 0) return text;
  const brief = lines.slice(0, at).join(" ").trim();
  const rest = lines.slice(at);
  const end = rest.findIndex((l) => l.replace(ANSI, "") === "");
  const usage = end === -1 ? rest : rest.slice(0, end);
  const after = end === -1 ? [] : rest.slice(end + 1);
  const first = after[0]?.replace(ANSI, "") ?? "";
  const described = first !== "" && !first.startsWith(" ") && !first.endsWith(":");
  return [...usage, "", ...(described || brief === "" ? [] : [brief, ""]), ...after].join("\n");
}
