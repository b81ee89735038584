/**
 * Loads the hand-built report fixtures of `fixtures/report/`.
 *
 * @module
 */
import { join } from "node:path";
import { REPO } from "../_helpers/cli.ts";
import type { Identity, Report } from "../../lib/report/mod.ts";

/** The cwd the fixtures' paths are relative to (holds the excerpt sources). */
export const TREE = join(REPO, "fixtures", "report", "tree");

/** Folder of the golden files. */
export const GOLDEN = join(REPO, "tests", "report", "golden");

/** The fixture identity block. */
export function identity(): Identity {
  return JSON.parse(Deno.readTextFileSync(join(REPO, "fixtures", "report", "identity.json")));
}

/** A fixture report by name (`lint`, `fmt`, `lint-fix`), with its identity filled in. */
export function fixtureReport(name: string): Report {
  const doc = JSON.parse(Deno.readTextFileSync(join(REPO, "fixtures", "report", `${name}.json`)));
  return { ...doc, poly: identity() };
}

/** A minimal valid report, with overrides. */
export function report(overrides: Partial<Report> = {}): Report {
  return {
    kind: "lint",
    mode: "check",
    results: [],
    errors: [],
    skipped: [],
    summary: { checked: 1, skipped: 0, errored: 0 },
    configs: [],
    poly: identity(),
    ...overrides,
  };
}
