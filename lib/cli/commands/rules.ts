/**
 * `poly rules list [--format human|json|toon] [--dir D]... [--config PATH]` and
 * `poly rules test [--format ...] [--dir D]... [--config PATH]`.
 *
 * list: every ast-grep rule a run would apply (exit 2 when a rule file failed to load).
 * test: runs the `<id>-test.yml` snippets (exit 1 on a failure, 2 on load errors).
 *
 * @module
 */
import { command, constant, message, multiple, object, option, optional, or } from "../_optique.ts";
import { pathValue } from "../_path.ts";
import { defineCommand } from "../command.ts";
import { formatOption, writeDocument } from "../output.ts";

const FORMATS = ["human", "json", "toon"] as const;

function shared() {
  return {
    format: formatOption(FORMATS),
    dirs: multiple(
      option("--dir", pathValue("DIR", "directory"), {
        description:
          message`Rule directory to use instead of [rules] dirs (repeatable; the built-in pack still applies)`,
      }),
    ),
    config: optional(option("--config", pathValue("PATH"), { description: message`Use this poly.toml` })),
  };
}

const list = command("list", object({ action: constant("list" as const), ...shared() }), {
  brief: message`List every rule a run would apply.`,
  description:
    message`List every ast-grep rule a run from here would apply — the built-in pack plus [rules] dirs — with its language, source, default severity, the severity under the configuration, and whether it is enabled.`,
});

const test = command("test", object({ action: constant("test" as const), ...shared() }), {
  brief: message`Run the rules' test snippets.`,
  description:
    message`Run every rule's <id>-test.yml cases: each valid snippet must not match and each invalid one must. Exit 1 on any failure, 2 when a rule file fails to load.`,
});

interface RulesValue {
  action: "list" | "test";
  format: typeof FORMATS[number];
  dirs: readonly string[];
  config?: string;
}

/** `poly rules`. */
export const rulesCommand = defineCommand<RulesValue>({
  parser: command("rules", or(list, test), { brief: message`List and test the ast-grep rule packs.` }),
  async run(value, io) {
    const { rulesDocument, rulesExitCode } = await import("../../rules/report.ts");
    const doc = await rulesDocument({
      cwd: io.cwd,
      config: value.config,
      dirs: [...value.dirs],
      test: value.action === "test",
    });
    if (value.format === "json" || value.format === "toon") await writeDocument(io, doc, value.format);
    else {
      const { renderRulesList, renderRulesTest } = await import("../../rules/human.ts");
      const text = value.action === "test" ? renderRulesTest(doc) : renderRulesList(doc);
      await io.stdout(text);
    }
    return rulesExitCode(doc);
  },
});
