/**
 * What a Bash command does, as far as the agent hook cares: does it run a linter
 * or formatter that poly replaces (seed 000's operating rule, "poly first"), or
 * does it write an artifact (a commit, a push, a pull request) that is grunt-work
 * for `delegate`?
 *
 * @module
 */
import { simpleCommands } from "./_shell.ts";

/** Which poly tool a direct linter/formatter call should have been. */
export type PolyTool = "lint" | "lint_fix" | "format_check" | "format_write" | "workspace_lint" | "workspace_lint_fix";

/** A linter or formatter run directly. */
export interface DirectToolCall {
  /** The program as the agent wrote it: `ruff`, `cargo clippy`, `go vet`. */
  program: string;
  /** Dedup key part: one redirect per program per session. */
  key: string;
  /** The poly MCP tool to use instead. */
  tool: PolyTool;
}

/** The `poly` command line that does the same as {@link PolyTool}. */
export const POLY_CLI: Record<PolyTool, string> = {
  lint: "poly lint",
  lint_fix: "poly lint --fix",
  format_check: "poly fmt --check",
  format_write: "poly fmt --fix",
  workspace_lint: "poly lint",
  workspace_lint_fix: "poly lint --fix",
};

const has = (args: string[], ...flags: string[]) =>
  args.some((a) => flags.includes(a) || flags.some((f) => f.startsWith("--") && a.startsWith(`${f}=`)));

type Classifier = (args: string[]) => PolyTool | undefined;

const lintOrFix = (...fixFlags: string[]): Classifier => (args) => has(args, ...fixFlags) ? "lint_fix" : "lint";
const fmtWriteUnless = (...checkFlags: string[]): Classifier => (args) =>
  has(args, ...checkFlags) ? "format_check" : "format_write";
const fmtCheckUnless = (...writeFlags: string[]): Classifier => (args) =>
  has(args, ...writeFlags) ? "format_write" : "format_check";

/** Programs poly stands in for, keyed by name; the classifier looks at the arguments. */
const PROGRAMS: Record<string, Classifier> = {
  ruff: (args) => {
    const sub = args.find((a) => !a.startsWith("-"));
    if (sub === "format") return has(args, "--check", "--diff") ? "format_check" : "format_write";
    if (sub === undefined || sub === "check" || sub.includes(".") || sub.includes("/")) {
      return has(args, "--fix", "--unsafe-fixes") ? "lint_fix" : "lint";
    }
    return undefined; // ruff rule, ruff version, ruff server: not a run
  },
  black: fmtWriteUnless("--check", "--diff"),
  isort: fmtWriteUnless("--check", "--check-only", "-c", "--diff"),
  flake8: () => "lint",
  pylint: () => "lint",
  pyflakes: () => "lint",
  pycodestyle: () => "lint",
  eslint: lintOrFix("--fix"),
  oxlint: lintOrFix("--fix", "--fix-suggestions"),
  prettier: fmtCheckUnless("--write", "-w"),
  biome: (args) => {
    const sub = args.find((a) => !a.startsWith("-"));
    const write = has(args, "--write", "--fix", "--apply", "--apply-unsafe");
    if (sub === "format") return write ? "format_write" : "format_check";
    if (sub === "lint" || sub === "check" || sub === "ci") return write ? "lint_fix" : "lint";
    return undefined;
  },
  gofmt: fmtCheckUnless("-w"),
  rustfmt: fmtWriteUnless("--check"),
  shfmt: fmtCheckUnless("-w", "--write"),
  shellcheck: () => "lint",
  "clang-format": fmtCheckUnless("-i"),
  dprint: (args) => args.includes("fmt") ? "format_write" : args.includes("check") ? "format_check" : undefined,
  markdownlint: lintOrFix("--fix"),
  "markdownlint-cli2": lintOrFix("--fix"),
  "ast-grep": (args) => args[0] === "scan" || args[0] === "test" ? "lint" : undefined,
};

/** Two-word programs: `cargo clippy`, `go vet`. */
const SUBCOMMANDS: Record<string, Record<string, Classifier>> = {
  cargo: {
    fmt: fmtWriteUnless("--check"),
    clippy: (args) => has(args, "--fix") ? "workspace_lint_fix" : "workspace_lint",
  },
  go: {
    fmt: () => "format_write",
    vet: () => "workspace_lint",
  },
};

const INFO_FLAGS = new Set(["--version", "-V", "--help", "-h"]);

/** The first linter or formatter `command` runs directly, if any. */
export function directToolCall(command: string): DirectToolCall | undefined {
  for (const words of simpleCommands(command)) {
    const [program, ...args] = words;
    if (args.some((a) => INFO_FLAGS.has(a))) continue; // `ruff --version`, `prettier --help`: not a run
    const own = PROGRAMS[program];
    if (own) {
      const tool = own(args);
      if (tool) return { program, key: program, tool };
      continue;
    }
    const subs = SUBCOMMANDS[program];
    const sub = args[0] === undefined ? undefined : subs?.[args[0]];
    if (sub) {
      const tool = sub(args.slice(1));
      if (tool) return { program: `${program} ${args[0]}`, key: `${program}-${args[0]}`, tool };
    }
  }
  return undefined;
}

/** Git and GitHub commands that write an artifact: a commit, a push, a worktree, a PR or issue. */
export function writesArtifact(command: string): boolean {
  for (const words of simpleCommands(command)) {
    const [program, ...rest] = words;
    const args = program === "git" ? skipGitOptions(rest) : rest;
    if (program === "git" && (args[0] === "commit" || args[0] === "push")) return true;
    if (program === "git" && args[0] === "worktree" && args[1] === "add") return true;
    if ((program === "gh" || program === "bkt") && args[0] === "pr" && args[1] === "create") return true;
    if (program === "gh" && args[0] === "issue" && args[1] === "create") return true;
  }
  return false;
}

function skipGitOptions(args: string[]): string[] {
  let i = 0;
  while (i < args.length && args[i].startsWith("-")) {
    if (args[i] === "-C" || args[i] === "-c" || args[i] === "--git-dir" || args[i] === "--work-tree") i++;
    i++;
  }
  return args.slice(i);
}
