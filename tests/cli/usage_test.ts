/**
 * Usage errors and help pages of the real poly process: the error comes first with
 * the usage of the command it was aimed at (not all of `poly --help`) and a
 * suggestion for a misspelt name; `-h` is help everywhere; a bare `poly` is help.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { assertGolden, REPO, runPoly } from "../_helpers/cli.ts";
import { formatUsage, map, or, parse } from "../../lib/cli/_optique.ts";
import { COMMANDS } from "../../lib/cli/commands/mod.ts";
import { EXAMPLES, TOP_EXAMPLES } from "../../lib/cli/examples.ts";
import { exampleWords } from "./_examples.ts";
import { helpLayout, wrapUsage } from "../../lib/cli/usage.ts";

const GOLDEN = join(REPO, "tests", "cli", "golden");

const MISTAKES: string[][] = [
  ["lnit"],
  ["lint", "--foo"],
  ["lint", "--fromat", "json"],
  ["config", "shwo"],
  ["lint", "--jobs", "abc"],
  ["servers", "add", "--urll", "x", "docs"],
];

Deno.test("main(): a usage error prints the error first, the command's usage and a suggestion (golden), exit 2", async () => {
  const texts: string[] = [];
  for (const args of MISTAKES) {
    const { code, stdout, stderr } = await runPoly(args);
    assert.equal(code, 2, `poly ${args.join(" ")}: ${stderr}`);
    assert.equal(stdout, "");
    assert.match(stderr.split("\n")[0], /^error: /, `poly ${args.join(" ")} starts with the error`);
    assert.ok(stderr.split("\n").length < 14, `poly ${args.join(" ")} is short:\n${stderr}`);
    texts.push(`$ poly ${args.join(" ")}\n${stderr}`);
  }
  await assertGolden(join(GOLDEN, "usage_errors.txt"), texts.join("\n"));
});

Deno.test("main(): misspelt commands and options get a suggestion", async () => {
  const cases: [string[], string][] = [
    [["lnit"], "`lint`"],
    [["lint", "--fromat", "json"], "`--format`"],
    [["config", "shwo"], "`show`"],
    [["servers", "add", "--urll", "x", "docs"], "`--url`"],
  ];
  for (const [args, want] of cases) {
    const { stderr } = await runPoly([...args]);
    assert.match(stderr, new RegExp(`Did you mean ${want.replace(/[-]/g, "\\-")}\\?`), stderr);
  }
});

Deno.test("main(): -h and --help print the help page on stdout with examples, exit 0", async () => {
  for (const args of [["-h"], ["lint", "-h"], ["config", "show", "-h"], ["fmt", "--help"], ["help", "lint"]]) {
    const { code, stdout, stderr } = await runPoly(args);
    assert.equal(code, 0, `poly ${args.join(" ")}: ${stderr}`);
    assert.match(stdout, /^Usage: poly /m, `poly ${args.join(" ")}`);
    assert.match(stdout, /^Examples:$/m, `poly ${args.join(" ")} has examples`);
  }
});

Deno.test("main(): a bare poly prints the help page, exit 0", async () => {
  const { code, stdout, stderr } = await runPoly([]);
  assert.equal(code, 0, stderr);
  assert.match(stdout, /^Usage: poly COMMAND \[ARGS\.\.\.\]$/m);
  assert.match(stdout, /^ {2}lint +Lint files/m, "each command once");
  assert.ok(stdout.split("\n").length < 45, "not every subcommand's usage");
  assert.equal(stderr, "");
});

Deno.test("main(): poly lint --help is one page in the common layout (golden)", async () => {
  const { stdout } = await runPoly(["lint", "--help"]);
  await assertGolden(join(GOLDEN, "lint_help.txt"), stdout);
});

Deno.test("EXAMPLES: every command has two or three examples, and each parses", () => {
  const parser = or(...COMMANDS.map((spec) => map(spec.parser, (value) => ({ spec, value }))));
  const lines = formatUsage("poly", parser.usage, { expandCommands: true }).split("\n");
  const names = new Set(lines.map((line) => line.split(" ")[1]));
  assert.ok(names.has("lint") && names.has("doctor") && names.size > 20, [...names].join(" "));
  for (const name of names) {
    if (name === "hook") continue; // one command, one example
    const examples = EXAMPLES[name ?? ""];
    assert.ok(examples && examples.length >= 2 && examples.length <= 3, `${name} has 2-3 examples`);
  }
  for (const [line] of [...Object.values(EXAMPLES).flat(), ...TOP_EXAMPLES]) {
    const words = exampleWords(line);
    assert.equal(words[0], "poly");
    const parsed = parse(parser, words.slice(1));
    assert.ok(parsed.success, `${line} parses`);
  }
});

Deno.test("helpLayout() puts the usage first, then the brief where there is no description", () => {
  assert.equal(
    helpLayout("Write a starter.\nUsage: poly config init [--force]\n\n  --force  Overwrite.\n"),
    "Usage: poly config init [--force]\n\nWrite a starter.\n\n  --force  Overwrite.\n",
  );
  assert.equal(
    helpLayout("Print it.\nUsage: poly config show\n\nPrint the configuration.\n\n  --format  F\n"),
    "Usage: poly config show\n\nPrint the configuration.\n\n  --format  F\n",
  );
  const page = "Usage: poly lint\n\nLint files.\n";
  assert.equal(helpLayout(page), page);
});

Deno.test("main(): every help page starts with its usage (one layout)", async () => {
  for (const args of [["config", "init", "-h"], ["config", "-h"], ["servers", "add", "-h"], ["-h"]]) {
    const { stdout } = await runPoly(args);
    assert.match(stdout.split("\n")[0], /^Usage: poly /, `poly ${args.join(" ")}`);
    assert.notEqual(stdout.split("\n")[2] ?? "", "", `poly ${args.join(" ")} says what it does under the usage`);
  }
});

Deno.test("wrapUsage() breaks between terms, never inside a bracket", () => {
  assert.deepEqual(wrapUsage("poly lint [--format FORMAT] [--config PATH] [PATH...]", 30, 10), [
    "poly lint [--format FORMAT]",
    "          [--config PATH]",
    "          [PATH...]",
  ]);
});
