/**
 * The zod side of configuration, loaded only when a value must really be
 * checked (`valid.ts` remembers what was): the schemas by name, and the
 * synchronous `parseConfigText` (tests, tools) that always checks.
 *
 * @module
 */
import { z } from "zod";
import { PolyConfigSchema } from "./schema.ts";
import { RulesTable } from "../rules/config.ts";
import { checkedTable, type ConfigFile, configFile, tomlTable } from "./parse.ts";

/** `poly-config.lock`: the git bases `poly config update` pinned. */
export const LockSchema = z.strictObject({
  version: z.literal(1),
  base: z.array(z.strictObject({
    git: z.string().min(1),
    revision: z.string().min(1).optional(),
    commit: z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/, "expected a full commit id"),
  })).default([]),
});

/** Every schema `valid.ts` checks through its memo. */
export const SCHEMAS = { config: PolyConfigSchema, rules: RulesTable, lock: LockSchema } as const;

/**
 * Parses and validates config text. `path` is the absolute file path, `display`
 * the name used in messages. Throws ConfigError on a syntax error or an invalid key.
 */
export function parseConfigText(text: string, path: string, display: string = path): ConfigFile {
  const raw = tomlTable(text, display);
  checkedTable(PolyConfigSchema, raw, text, display);
  return configFile(text, path, display, raw);
}
