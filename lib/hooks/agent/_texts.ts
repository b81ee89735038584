/**
 * The words the agent hook puts in front of the model. Short on purpose: every
 * fire costs tokens in every later turn. Tool names are written with the MCP
 * prefix the host shows the model (`mcp__poly__lint` for a server registered as
 * "poly"; `mcp__plugin_poly_poly__lint` when the plugin registered it).
 *
 * @module
 */
import { type DirectToolCall, POLY_CLI } from "./_classify.ts";

/** Turns a bare tool name into the name the model sees. */
export type ToolNamer = (tool: string) => string;

/** The namer for a prefix such as `mcp__poly__`. */
export function toolNamer(prefix: string): ToolNamer {
  return (tool) => `${prefix}${tool}`;
}

/** Tools whose schemas should be loaded once per session if the host deferred them. */
const PRELOAD_TOOLS = [
  "lint",
  "format_check",
  "lint_fix",
  "format_write",
  "explore",
  "read_slice",
  "run_filtered",
  "web_lookup",
  "delegate",
];

/** The one-time reminder to load deferred tool schemas. */
export function preloadText(t: ToolNamer): string {
  return `poly's MCP tools may be deferred on this host. If ${t("lint")} or ${t("read_slice")} is not callable yet, ` +
    `run ToolSearch("select:${PRELOAD_TOOLS.map(t).join(",")}") ONCE this session so their schemas load; ` +
    `otherwise the always-loaded native tools win by default.`;
}

/** Appended to every deny: the redirect is one-shot, so the agent never stalls. */
export const FAIL_OPEN_SUFFIX =
  " (If that poly tool is not loaded yet, run the ToolSearch preload first. If you genuinely " +
  "need the native tool's raw result, call it again unchanged: this redirect fires only once.)";

/** A linter or formatter run through Bash. */
export function directToolText(t: ToolNamer, call: DirectToolCall): string {
  return `poly first: this runs ${call.program} directly. poly lints and formats every language in the repository ` +
    `behind one poly.toml, one report and one exit-code contract: call ${t(call.tool)} instead ` +
    `(CLI: \`${POLY_CLI[call.tool]} --format json\`). Read isError (or errors) first, then summary.checked, ` +
    `only then results.`;
}

/** WebSearch / WebFetch. */
export function webText(t: ToolNamer): string {
  return `poly available: prefer ${t("web_lookup")}(query) over native web tools — a worker reads the pages and ` +
    `returns a summary with links instead of dumping raw results into your context. Skip it only if you need ` +
    `the raw page to parse.`;
}

/** A whole-file Read of a large file. */
export function readText(t: ToolNamer, file: string, lines: number | "very large"): string {
  const size = lines === "very large" ? "a very large file" : `a ${lines}-line file`;
  return `poly available: ${file} is ${size}. If you will NOT edit it, use ${t("read_slice")}(files, want) to ` +
    `load only the lines you need (a whole Read is re-billed every turn). If you will edit it, native Read is correct.`;
}

/** Bash that writes a commit, push, worktree, PR or issue. */
export function artifactText(t: ToolNamer): string {
  return `poly available: commits, pushes, branches, PRs and tickets are grunt-work — hand them to ` +
    `${t("delegate")}(prompt, level 1) or ${t("fast_delegate")}(prompt) instead of spending orchestrator tokens. ` +
    `Before committing, ${t("lint")} and ${
      t("format_check")
    } the changed files (or install the gate: poly hooks install).`;
}

/** The first Edit/Write of a session. */
export function editText(t: ToolNamer): string {
  return `poly available: if this edit is part of a self-contained task (a feature, a bug fix, a mechanical ` +
    `multi-file change, a build fix), hand the WHOLE task to ${t("delegate")}(prompt, level) — the worker edits ` +
    `with full access in cwd — and review the result. Keep editing inline for a quick one-off you are already ` +
    `positioned for. Either way, check what changed with ${t("lint")} and ${t("format_check")} before you finish.`;
}

/** SessionStart: the routing rule and the preload, before the first tool decision. */
export function sessionStartText(t: ToolNamer): string {
  return [
    `poly MCP is available. poly first: lint and format through ${t("lint")} / ${t("format_check")} ` +
    `(read-only) and ${t("lint_fix")} / ${t("format_write")} (only when changes were asked for) — never ruff, ` +
    `eslint, biome, prettier, gofmt or rustfmt directly. Gate on isError, then summary.checked, then results.`,
    `For pure reading/locating/web with no edit ahead: ${t("explore")}, ${t("read_slice")}, ` +
    `${t("run_filtered")}, ${t("web_lookup")} over Read, Grep, Bash grep or WebSearch.`,
    `You are the orchestrator: ${t("delegate")}(prompt, level) is the default for self-contained work ` +
    `(levels 1-3 cheap; 4-5 expensive, last resort), ${t("fast_delegate")} when speed matters, ` +
    `${t("fan_out")} for costly verdicts.`,
    preloadText(t),
  ].join("\n");
}

/** SubagentStart: a compact preference for every spawned subagent. */
export function subagentText(t: ToolNamer, agentType: string | undefined): string {
  const base = `poly MCP is available to you (a subagent). Lint/format with ${t("lint")} / ${t("format_check")}, ` +
    `not ruff/eslint/prettier directly. For PURE reading/locating/web where you will NOT edit: ` +
    `${t("explore")}(question, files?), ${t("read_slice")}(files, want), ${t("run_filtered")}(command, want), ` +
    `${t("web_lookup")}(query). If a schema is missing, run ToolSearch for it once. If you WILL edit a file, ` +
    `native Read is correct.`;
  if (agentType !== "Explore") return base;
  return base + ` You are an Explore run on the orchestrator's expensive model: do ALL reading and locating through ` +
    `${t("explore")}/${t("read_slice")} (cheap workers) and keep dumps out of your context.`;
}

/** UserPromptSubmit cues: each is a pattern over the prompt and the line it adds. */
export function promptCues(t: ToolNamer): { pattern: RegExp; line: string }[] {
  return [
    {
      pattern:
        /\b(lint(s|ing|er)?|format(s|ting|ter)?|fmt|ruff|eslint|prettier|biome|oxlint|black|flake8|gofmt|rustfmt|clippy|shellcheck|shfmt)\b/i,
      line: `lint/format: ${t("lint")} and ${t("format_check")} first (read-only), ${t("lint_fix")} / ` +
        `${t("format_write")} only for requested changes; gate on isError, then summary.checked.`,
    },
    {
      pattern:
        /(https?:\/\/|\b(search the web|web search|look ?up|google|docs? for|documentation|latest version|release notes|changelog)\b)/i,
      line: `web/docs: ${t("web_lookup")}(query) instead of WebSearch/WebFetch.`,
    },
    {
      pattern:
        /\b(where (is|are|do|does)|find (all|where|the|every)|how does|explore|locate|codebase|map (the|this) (code|repo|project))\b/i,
      line: `locating/reading: ${t("explore")}(question) or ${t("read_slice")}(files, want) instead of Grep/Read.`,
    },
    {
      pattern:
        /\b(review|compare|which (approach|option|library|design)|trade-?offs?|second opinion|pros and cons|root cause)\b/i,
      line: `judgment: ${t("fan_out")}(prompt, mode: "consensus") for a costly verdict; ${
        t("delegate")
      } for one opinion.`,
    },
    {
      pattern:
        /\b(implement|refactor|migrate|fix (the|this|a|an) (bug|issue|test|build)|add (a|an|the) (feature|test|endpoint)|write (the |some )?tests?)\b/i,
      line: `doing: ${t("delegate")}(prompt, level) or ${t("fast_delegate")}(prompt) for self-contained work; ` +
        `review the result.`,
    },
  ];
}
