/**
 * `rules` — every ast-grep rule a run would apply (the built-in pack plus the
 * `[rules] dirs`), with language, source, default and effective severity and
 * whether it is enabled; with `test`, the outcome of the `*-test.yml` cases. The
 * document of `poly rules list --format json` (`poly rules test` with `test`).
 *
 * @module
 */
import { z } from "zod";
import { Identity } from "../lib/report/schema.ts";
import { configFor, configParam, formatParam } from "./_run.ts";
import { defineTool, READ_ONLY } from "./_tool.ts";
import { insideRoot } from "../lib/fs/roots.ts";

const Level = z.enum(["off", "hint", "info", "warning", "error"]);
const Position = { line: z.number().int().optional(), column: z.number().int().optional() };

/** The document `rules` returns. */
export const RulesDocument = z.object({
  config: z.object({ dir: z.string(), hash: z.string() }),
  dirs: z.array(z.string()),
  rules: z.array(z.object({
    id: z.string(),
    language: z.string(),
    source: z.enum(["builtin", "user"]),
    default_severity: Level,
    severity: Level,
    enabled: z.boolean(),
    file: z.string(),
    line: z.number().int(),
    message: z.string(),
    fixable: z.boolean(),
    url: z.string().nullable().optional(),
  })),
  /** Rule files that failed to load, and [rules] configuration problems: they set isError. */
  errors: z.array(z.object({ path: z.string(), ...Position, message: z.string() })),
  summary: z.object({
    total: z.number().int(),
    enabled: z.number().int(),
    builtin: z.number().int(),
    user: z.number().int(),
    errors: z.number().int(),
  }),
  digest: z.string(),
  tests: z.object({
    results: z.array(z.object({
      id: z.string(),
      language: z.string(),
      status: z.enum(["passed", "failed", "untested"]),
      valid: z.number().int(),
      invalid: z.number().int(),
      test_files: z.array(z.string()),
      failures: z.array(z.object({
        kind: z.enum(["valid", "invalid"]),
        index: z.number().int(),
        snippet: z.string(),
        reason: z.string(),
      })),
    })),
    errors: z.array(z.object({ file: z.string(), ...Position, message: z.string() })),
    summary: z.object({
      passed: z.number().int(),
      failed: z.number().int(),
      untested: z.number().int(),
      errors: z.number().int(),
    }),
  }).optional(),
  poly: Identity,
});

/** The `rules` tool. */
export const rulesTool = defineTool({
  name: "rules",
  title: "List (and test) ast-grep rules",
  description:
    "Every ast-grep rule a lint run would apply — the built-in pack plus [rules] dirs (or the dirs given) — with language, source (builtin/user), default_severity, the severity under the resolved config, and enabled. With test: true, also runs the *-test.yml cases. isError is set when a rule file fails to load. Read-only. Mirrors `poly rules list` / `poly rules test`.",
  level: "read",
  annotations: READ_ONLY,
  inputSchema: {
    dirs: z.array(z.string().min(1)).optional().describe(
      "Rule directories replacing [rules] dirs (relative to the workspace root); empty or omitted means the config's.",
    ),
    config: configParam,
    test: z.boolean().optional().describe("Also run the rules' *-test.yml cases."),
    format: formatParam,
  },
  outputSchema: RulesDocument,
  async handler(args, ctx) {
    const { rulesDocument } = await import("../lib/rules/report.ts");
    const { identity } = await import("../lib/identity/mod.ts");
    const dirs: string[] = [];
    for (const dir of args.dirs ?? []) dirs.push(await insideRoot(ctx.root, dir));
    const config = await configFor(ctx, args.config);
    const doc = await rulesDocument({ cwd: ctx.root, config, dirs, test: args.test ?? false });
    return {
      structured: { ...doc, poly: await identity() },
      format: args.format ?? "json",
      isError: doc.errors.length > 0,
    };
  },
});
