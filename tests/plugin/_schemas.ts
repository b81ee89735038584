/**
 * zod schemas for the plugin file shapes, written from the hosts' documentation:
 *
 * - Claude Code plugin manifest `.claude-plugin/plugin.json`: "Plugins reference",
 *   https://code.claude.com/docs/en/plugins-reference (manifest schema: `name`
 *   required, kebab-case; metadata; component path fields).
 * - Claude Code marketplace `.claude-plugin/marketplace.json`: "Marketplace
 *   reference", https://code.claude.com/docs/en/plugins/marketplace-reference
 *   (`name`, `owner.name`, `plugins[].name`, `plugins[].source` required).
 * - Hooks (`hooks/hooks.json` in a plugin): "Hooks reference",
 *   https://code.claude.com/docs/en/hooks (events → matcher groups → command hooks).
 * - MCP servers (`.mcp.json`): `{ "mcpServers": { name: { command, args, env } } }`
 *   as in the same plugins reference and the seed (`poly mcp` over stdio).
 * - Codex plugin manifest `.codex-plugin/plugin.json`: openai/codex,
 *   `codex-rs/skills/src/assets/samples/plugin-creator/references/plugin-json-spec.md`
 *   and `scripts/validate_plugin.py` (accepted keys, strict semver, `./` paths,
 *   required `interface` fields, at most 3 default prompts of ≤128 characters).
 * - Skill front matter: the Agent Skills format (agentskills.io) used by both hosts —
 *   `name` 1-64 lowercase letters, digits and single hyphens, equal to the folder;
 *   `description` 1-1024 characters; Codex rejects `disable-model-invocation: true`.
 * - Slash command front matter: Claude Code "Slash commands" — `description`,
 *   `allowed-tools`, `argument-hint`, `model`, `disable-model-invocation`.
 *
 * Objects are strict: a misspelt key fails the test instead of being ignored by the host.
 *
 * @module
 */
import { z } from "zod";

/** Plugin, marketplace and skill names: kebab-case. */
export const KebabName = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "kebab-case").max(64);

/** Strict semantic version (the Codex validator's pattern). */
export const SemVer = z.string().regex(
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/,
  "strict semver",
);

const HttpsUrl = z.string().url().startsWith("https://");

/** `author` / `owner`. */
export const Person = z.strictObject({
  name: z.string().min(1),
  email: z.string().email().optional(),
  url: HttpsUrl.optional(),
});

/** A path inside the plugin: relative, starting with `./`, never leaving the root. */
export const PluginPath = z.string().startsWith("./").refine(
  (p) => !p.split("/").slice(1).some((part) => part === ".."),
  "stays inside the plugin",
);

/** One stdio MCP server. */
export const StdioServer = z.strictObject({
  type: z.literal("stdio").optional(),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
});

/** `.mcp.json`. */
export const McpJson = z.strictObject({ mcpServers: z.record(z.string().min(1), StdioServer) });

const ComponentPaths = z.union([PluginPath, z.array(PluginPath)]);

/** Claude Code `.claude-plugin/plugin.json`. */
export const ClaudePluginManifest = z.strictObject({
  $schema: z.string().optional(),
  name: KebabName,
  version: SemVer.optional(),
  description: z.string().min(1).optional(),
  author: Person.optional(),
  homepage: HttpsUrl.optional(),
  repository: HttpsUrl.optional(),
  license: z.string().optional(),
  keywords: z.array(z.string()).optional(),
  commands: ComponentPaths.optional(),
  agents: ComponentPaths.optional(),
  skills: ComponentPaths.optional(),
  hooks: z.union([PluginPath, z.record(z.string(), z.unknown())]).optional(),
  mcpServers: z.union([PluginPath, z.record(z.string(), StdioServer)]).optional(),
  outputStyles: ComponentPaths.optional(),
  lspServers: z.union([PluginPath, z.record(z.string(), z.unknown())]).optional(),
});

/** Where a marketplace entry's plugin comes from. */
export const PluginSource = z.union([
  PluginPath,
  z.strictObject({
    source: z.literal("github"),
    repo: z.string().regex(/^[^/]+\/[^/]+$/),
    ref: z.string().optional(),
    sha: z.string().optional(),
  }),
  z.strictObject({
    source: z.literal("url"),
    url: z.string().endsWith(".git"),
    ref: z.string().optional(),
    sha: z.string().optional(),
  }),
]);

/** Claude Code `.claude-plugin/marketplace.json`. */
export const Marketplace = z.strictObject({
  $schema: z.string().optional(),
  name: KebabName.refine(
    (n) =>
      ![
        "claude-code-marketplace",
        "claude-code-plugins",
        "claude-plugins-official",
        "anthropic-marketplace",
        "anthropic-plugins",
        "agent-skills",
      ].includes(n),
    "reserved marketplace name",
  ),
  description: z.string().optional(),
  version: SemVer.optional(),
  owner: Person,
  metadata: z.strictObject({
    description: z.string().optional(),
    version: SemVer.optional(),
    pluginRoot: z.string().optional(),
  }).optional(),
  plugins: z.array(z.strictObject({
    name: KebabName,
    source: PluginSource,
    description: z.string().optional(),
    version: SemVer.optional(),
    author: Person.optional(),
    homepage: HttpsUrl.optional(),
    repository: HttpsUrl.optional(),
    license: z.string().optional(),
    keywords: z.array(z.string()).optional(),
    category: z.string().optional(),
    tags: z.array(z.string()).optional(),
    strict: z.boolean().optional(),
  })).min(1),
});

/** The hook events a plugin may wire (the subset poly uses is checked in the test). */
export const HookEvent = z.enum([
  "PreToolUse",
  "PostToolUse",
  "UserPromptSubmit",
  "Notification",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "SessionStart",
  "SessionEnd",
]);

/** `hooks/hooks.json`. */
export const HooksJson = z.strictObject({
  description: z.string().optional(),
  hooks: z.partialRecord(
    HookEvent,
    z.array(z.strictObject({
      matcher: z.string().optional(),
      hooks: z.array(z.strictObject({
        type: z.literal("command"),
        command: z.string().min(1),
        timeout: z.number().positive().optional(),
      })).min(1),
    })).min(1),
  ),
});

/** Codex `.codex-plugin/plugin.json`. */
export const CodexPluginManifest = z.strictObject({
  id: z.string().min(1).optional(),
  name: KebabName,
  version: SemVer,
  description: z.string().min(1),
  author: Person,
  homepage: HttpsUrl.optional(),
  repository: HttpsUrl.optional(),
  license: z.string().optional(),
  keywords: z.array(z.string()).optional(),
  skills: z.union([PluginPath, z.array(PluginPath)]).optional(),
  apps: z.literal("./.app.json").optional(),
  mcpServers: z.union([z.literal("./.mcp.json"), z.record(z.string().min(1), StdioServer)]).optional(),
  interface: z.strictObject({
    displayName: z.string().min(1),
    shortDescription: z.string().min(1),
    longDescription: z.string().min(1),
    developerName: z.string().min(1),
    category: z.string().min(1),
    capabilities: z.array(z.string().min(1)),
    websiteURL: HttpsUrl.optional(),
    privacyPolicyURL: HttpsUrl.optional(),
    termsOfServiceURL: HttpsUrl.optional(),
    defaultPrompt: z.array(z.string().min(1).max(128)).max(3),
    brandColor: z.string().regex(/^#[0-9A-Fa-f]{6}$/).optional(),
    composerIcon: z.string().optional(),
    logo: z.string().optional(),
    screenshots: z.array(z.string()).optional(),
  }),
});

/** SKILL.md front matter. */
export const SkillFrontMatter = z.strictObject({
  name: KebabName,
  description: z.string().min(1).max(1024),
  license: z.string().optional(),
  "allowed-tools": z.string().optional(),
  "disable-model-invocation": z.literal(false).optional(),
  metadata: z.record(z.string(), z.string()).optional(),
});

/** Slash command front matter. */
export const CommandFrontMatter = z.strictObject({
  description: z.string().min(1),
  "allowed-tools": z.union([z.string().min(1), z.array(z.string().min(1))]),
  "argument-hint": z.string().optional(),
  model: z.string().optional(),
  "disable-model-invocation": z.boolean().optional(),
});
