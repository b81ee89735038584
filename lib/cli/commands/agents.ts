/**
 * `poly agents claude-md install|uninstall [--dry-run] [--path P]`: the managed
 * poly block in `~/.claude/CLAUDE.md` (POLY_CLAUDE_MD_PATH overrides).
 *
 * @module
 */
import { command, constant, merge, message, object, option, optional, or } from "../_optique.ts";
import { pathValue } from "../_path.ts";
import { defineCommand } from "../command.ts";
import { VERSION } from "../../identity/build.ts";

const common = object({
  dryRun: option("--dry-run", { description: message`Show what would change; write nothing` }),
  path: optional(option("--path", pathValue("PATH"), {
    description: message`The file (default: POLY_CLAUDE_MD_PATH, else ~/.claude/CLAUDE.md)`,
  })),
});

const parser = command(
  "agents",
  command(
    "claude-md",
    or(
      command("install", merge(object({ action: constant("install" as const) }), common), {
        description:
          message`Write or refresh the managed poly block (the file is backed up to CLAUDE.md.poly.bak first).`,
      }),
      command("uninstall", merge(object({ action: constant("uninstall" as const) }), common), {
        description: message`Remove the managed poly block (backed up first); nothing outside it changes.`,
      }),
    ),
    { description: message`The managed poly block in CLAUDE.md.` },
  ),
  { description: message`Make coding agents use poly: the managed CLAUDE.md block.` },
);

type Value = { action: "install" | "uninstall"; dryRun: boolean; path?: string };

const INSTALL_WORDS: Record<string, [string, string]> = {
  created: ["Created", "Would create"],
  appended: ["Appended the poly block to", "Would append the poly block to"],
  replaced: ["Replaced the poly block in", "Would replace the poly block in"],
  unchanged: ["The poly block is already current in", "The poly block is already current in"],
};

/** `poly agents`. */
export const agentsCommand = defineCommand({
  parser,
  async run(value: Value, io) {
    const { resolve } = await import("node:path");
    const md = await import("../../agents/mod.ts");
    const path = value.path === undefined ? undefined : resolve(io.cwd, value.path);
    if (value.action === "install") {
      const result = await md.installClaudeMd({ path, dryRun: value.dryRun });
      const [done, would] = INSTALL_WORDS[result.action];
      const legacy = result.legacyReplaced ? " (replacing the hand-written <poly_preference> section)" : "";
      const backup = result.backupPath ? `; backup: ${result.backupPath}` : "";
      await io.stdout(`${value.dryRun ? would : done} ${result.path}${legacy}${backup}\n`);
      if (value.dryRun && result.action !== "unchanged") await io.stdout(`\n${md.renderBlock(VERSION)}`);
      return 0;
    }
    const result = await md.uninstallClaudeMd({ path, dryRun: value.dryRun });
    if (result.action === "absent") {
      await io.stdout(`No poly block in ${result.path}: nothing to remove\n`);
    } else {
      const backup = result.backupPath ? `; backup: ${result.backupPath}` : "";
      await io.stdout(`${value.dryRun ? "Would remove" : "Removed"} the poly block from ${result.path}${backup}\n`);
    }
    return 0;
  },
});
