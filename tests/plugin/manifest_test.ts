/**
 * The plugin's manifests validate against the documented shapes
 * (`tests/plugin/_schemas.ts` cites the sources), point at files that exist,
 * register `poly mcp` over stdio, and carry the program's version.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import type { z } from "zod";
import { DENO_JSON, REPO } from "../_helpers/cli.ts";
import { ClaudePluginManifest, CodexPluginManifest, HooksJson, Marketplace, McpJson } from "./_schemas.ts";

const PLUGIN = join(REPO, "plugin");

async function load<S extends z.ZodType>(schema: S, path: string): Promise<z.infer<S>> {
  const raw = JSON.parse(await Deno.readTextFile(path));
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new Error(`${path} does not match its documented shape:\n${parsed.error.message}`);
  return parsed.data;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

const VERSION: string = JSON.parse(await Deno.readTextFile(DENO_JSON)).version;

const marketplace = () => load(Marketplace, join(REPO, ".claude-plugin", "marketplace.json"));
const claude = () => load(ClaudePluginManifest, join(PLUGIN, ".claude-plugin", "plugin.json"));
const codexRoot = () => load(CodexPluginManifest, join(REPO, ".codex-plugin", "plugin.json"));
const codexPlugin = () => load(CodexPluginManifest, join(PLUGIN, ".codex-plugin", "plugin.json"));
const mcp = () => load(McpJson, join(PLUGIN, ".mcp.json"));
const hooks = () => load(HooksJson, join(PLUGIN, "hooks", "hooks.json"));

Deno.test("every plugin manifest carries the program's version (deno.json)", async () => {
  const m = await marketplace();
  equal((await claude()).version, VERSION, "plugin/.claude-plugin/plugin.json");
  for (const entry of m.plugins) equal(entry.version, VERSION, `marketplace entry ${entry.name}`);
  equal((await codexRoot()).version, VERSION, ".codex-plugin/plugin.json");
  equal((await codexPlugin()).version, VERSION, "plugin/.codex-plugin/plugin.json");
});

Deno.test("the marketplace lists the poly plugin at ./plugin, so /plugin install poly@poly works", async () => {
  const m = await marketplace();
  equal(m.name, "poly");
  const entry = m.plugins.find((p) => p.name === "poly");
  ok(entry, "a plugin named poly");
  equal(entry.source, "./plugin");
  const manifest = await claude();
  equal(manifest.name, entry.name, "the plugin's own name matches its marketplace entry");
  ok(await exists(join(REPO, entry.source as string, ".claude-plugin", "plugin.json")));
});

Deno.test("the Claude Code plugin uses the default component locations, all present", async () => {
  const manifest = await claude();
  for (const key of ["commands", "skills", "hooks", "mcpServers", "agents"] as const) {
    equal(manifest[key], undefined, `${key} is discovered from its default location (declaring it too duplicates it)`);
  }
  for (const path of ["commands/poly-check.md", "commands/poly-fix.md", "skills", "hooks/hooks.json", ".mcp.json"]) {
    ok(await exists(join(PLUGIN, path)), `plugin/${path}`);
  }
});

Deno.test(".mcp.json registers `poly mcp` over stdio, and both Codex manifests register the same", async () => {
  const servers = (await mcp()).mcpServers;
  deepEqual(servers, { poly: { command: "poly", args: ["mcp"] } });
  const root = await codexRoot();
  deepEqual(root.mcpServers, servers, ".codex-plugin/plugin.json inlines the server (its root is the repository)");
  equal((await codexPlugin()).mcpServers, "./.mcp.json");
});

Deno.test("the Codex manifests point at the skills, inside their plugin roots", async () => {
  const root = await codexRoot();
  equal(root.skills, "./plugin/skills/");
  ok(await exists(join(REPO, root.skills as string)));
  const inPlugin = await codexPlugin();
  equal(inPlugin.skills, "./skills/");
  ok(await exists(join(PLUGIN, inPlugin.skills as string)));
  const { version: _a, skills: _b, mcpServers: _c, ...rootRest } = root;
  const { version: _d, skills: _e, mcpServers: _f, ...pluginRest } = inPlugin;
  deepEqual(pluginRest, rootRest, "the two Codex manifests describe the same plugin");
});

Deno.test("hooks.json runs `poly hook agent` on the four events with the plugin's tool prefix", async () => {
  const config = await hooks();
  deepEqual(Object.keys(config.hooks).sort(), ["PreToolUse", "SessionStart", "SubagentStart", "UserPromptSubmit"]);
  const server = Object.keys((await mcp()).mcpServers)[0];
  const prefix = `mcp__plugin_${(await claude()).name}_${server}__`;
  for (const [event, groups] of Object.entries(config.hooks)) {
    for (const group of groups ?? []) {
      for (const hook of group.hooks) {
        equal(hook.command, `poly hook agent --tool-prefix ${prefix}`, event);
        ok((hook.timeout ?? 60) <= 10, "a hook that runs on every tool call stays short");
      }
      if (event === "PreToolUse") {
        const tools = (group.matcher ?? "").split("|");
        for (const tool of ["Read", "Grep", "Glob", "WebSearch", "WebFetch", "Bash", "Edit", "Write", "MultiEdit"]) {
          ok(tools.includes(tool), `PreToolUse matcher includes ${tool}`);
        }
      } else {
        equal(group.matcher, undefined, `${event} takes no matcher`);
      }
    }
  }
});

Deno.test("the plugin says poly must be on PATH", async () => {
  for (const file of [join(PLUGIN, "README.md"), join(PLUGIN, "skills", "cache-and-troubleshooting", "SKILL.md")]) {
    ok(/on PATH/.test(await Deno.readTextFile(file)), file);
  }
  ok((await claude()).description?.includes("PATH"));
  ok((await codexRoot()).description.includes("PATH"));
});
