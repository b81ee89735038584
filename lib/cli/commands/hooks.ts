/**
 * `poly hooks install | uninstall | run pre-commit`: git hooks that lint and
 * format-check the staged content before a commit.
 *
 * @module
 */
import { argument, choice, command, constant, message, object, or } from "../_optique.ts";
import { defineCommand } from "../command.ts";
import { colorMode } from "../color.ts";

const parser = command(
  "hooks",
  or(
    command("install", object({ action: constant("install" as const) }), {
      description:
        message`Install the pre-commit hook (an existing hook is kept as pre-commit.pre-poly and called first).`,
    }),
    command("uninstall", object({ action: constant("uninstall" as const) }), {
      description: message`Remove poly's pre-commit hook and restore a hook it chained.`,
    }),
    command(
      "run",
      object({
        action: constant("run" as const),
        hook: argument(choice(["pre-commit"] as const, { metavar: "HOOK" })),
      }),
      { description: message`Run a hook now: pre-commit lints and format-checks the staged content.` },
    ),
  ),
  { description: message`Git hooks that check staged content before a commit.` },
);

type Value = { action: "install" | "uninstall" } | { action: "run"; hook: "pre-commit" };

const WORDS: Record<string, string> = {
  installed: "installed",
  chained: "installed; the existing hook was kept as {chained} and runs first",
  refreshed: "refreshed",
  unchanged: "already installed",
  removed: "removed",
  restored: "removed; restored the earlier hook from {chained}",
  absent: "not installed: nothing to remove",
  foreign: "is not poly's: left alone",
};

/** `poly hooks`. */
export const hooksCommand = defineCommand({
  parser,
  async run(value: Value, io) {
    const hooks = await import("../../hooks/mod.ts");
    if (value.action === "run") {
      let exportAll = false;
      try {
        exportAll = Deno.env.get("POLY_PRE_COMMIT_EXPORT") === "all";
      } catch { /* not permitted: the default export */ }
      return await hooks.runPreCommit({ cwd: io.cwd, color: colorMode("auto", io.stderrIsTerminal), exportAll }, io);
    }
    const changes = value.action === "install"
      ? await hooks.installGitHooks({ cwd: io.cwd })
      : await hooks.uninstallGitHooks({ cwd: io.cwd });
    for (const change of changes) {
      const words = WORDS[change.action].replace("{chained}", change.chained ?? "");
      await io.stdout(`${change.hook}: ${change.path} ${words}\n`);
    }
    return 0;
  },
});
