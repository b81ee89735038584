/**
 * The five skills and two slash commands have the front matter their hosts
 * expect (`tests/plugin/_schemas.ts`), and name only tools poly serves.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import { REPO } from "../_helpers/cli.ts";
import { CommandFrontMatter, SkillFrontMatter } from "./_schemas.ts";

const PLUGIN = join(REPO, "plugin");

/** The front matter and body of a Markdown file; throws when the front matter is missing. */
function split(text: string, file: string): { data: unknown; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  if (!match) throw new Error(`${file} does not start with YAML front matter between --- lines`);
  return { data: parse(match[1]), body: match[2] };
}

/** The MCP tools poly serves (seed 000's eleven, seed 003's twelve, the gateway's three). */
const TOOLS = new Set([
  "lint",
  "format_check",
  "cache_stats",
  "rules",
  "config_show",
  "version",
  "lint_fix",
  "format_write",
  "cache_clean",
  "workspace_lint",
  "workspace_lint_fix",
  "delegate",
  "fast_delegate",
  "explore",
  "read_slice",
  "run_filtered",
  "web_lookup",
  "decide",
  "generate_image",
  "fan_out",
  "follow_up",
  "bridge_stats",
  "rate",
  "mcp_describe",
  "mcp_read",
  "mcp_call",
]);

const EXPECTED_SKILLS = [
  "ast-grep-rules",
  "cache-and-troubleshooting",
  "choosing-a-tool",
  "delegation-levels",
  "fix-workflow",
];

Deno.test("the plugin ships exactly the five skills", async () => {
  const names: string[] = [];
  for await (const entry of Deno.readDir(join(PLUGIN, "skills"))) if (entry.isDirectory) names.push(entry.name);
  deepEqual(names.sort(), EXPECTED_SKILLS);
});

for (const skill of EXPECTED_SKILLS) {
  Deno.test(`skill ${skill} has valid front matter named after its folder`, async () => {
    const file = join(PLUGIN, "skills", skill, "SKILL.md");
    const { data, body } = split(await Deno.readTextFile(file), file);
    const front = SkillFrontMatter.parse(data);
    equal(front.name, skill);
    ok(/\bUse (when|whenever|before)\b/.test(front.description), "the description says when to use it");
    ok(body.trim().length > 200, "the skill has a body");
    ok(body.length < 20_000, "the skill stays small enough to load on demand");
  });
}

Deno.test("the skills cover their topics", async () => {
  const text = (skill: string) => Deno.readTextFile(join(PLUGIN, "skills", skill, "SKILL.md"));
  ok(/format_check/.test(await text("choosing-a-tool")) && /delegate/.test(await text("choosing-a-tool")));
  const fix = await text("fix-workflow");
  ok(fix.indexOf("isError") < fix.indexOf("summary.checked"), "isError is read before summary.checked");
  ok(/level/.test(await text("delegation-levels")) && /3\.3x/.test(await text("delegation-levels")));
  ok(/-test\.yml/.test(await text("ast-grep-rules")) && /\[rules\]/.test(await text("ast-grep-rules")));
  ok(
    /cache_clean/.test(await text("cache-and-troubleshooting")) &&
      /POLY_HOOK_MODE/.test(await text("cache-and-troubleshooting")),
  );
});

for (const command of ["poly-check", "poly-fix"]) {
  Deno.test(`/${command} has valid front matter and allows only poly's tools`, async () => {
    const file = join(PLUGIN, "commands", `${command}.md`);
    const { data, body } = split(await Deno.readTextFile(file), file);
    const front = CommandFrontMatter.parse(data);
    const allowed = Array.isArray(front["allowed-tools"])
      ? front["allowed-tools"]
      : front["allowed-tools"].split(/,\s*/);
    for (const tool of allowed) {
      const mcp = /^mcp__(?:plugin_poly_poly|poly)__(\w+)$/.exec(tool);
      const bash = /^Bash\(poly (lint|fmt)[^)]*\)$/.test(tool);
      ok(bash || (mcp && TOOLS.has(mcp[1])), `${tool} is a poly tool`);
    }
    ok(body.includes("$ARGUMENTS"), "the command passes its arguments on");
    ok(body.indexOf("isError") < body.indexOf("summary.checked"));
    if (command === "poly-check") ok(!allowed.some((t) => /lint_fix|format_write|--fix/.test(t)), "check never writes");
  });
}
