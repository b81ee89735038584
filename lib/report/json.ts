/**
 * The machine encoders: JSON (the contract) and TOON (the same document, compact
 * enough to hand to an agent).
 *
 * @module
 */
import { encode } from "@toon-format/toon";
import type { Report } from "./schema.ts";
import { sortReport } from "./sort.ts";
import { canonicalDocument } from "./_canonical.ts";

/**
 * The report as it is serialised: sorted, with keys in schema order and nothing
 * the schema does not name (`_canonical.ts`, without zod). A report that fails
 * the schema (a bug upstream) is kept as given rather than lost; the tests
 * validate every document.
 */
export function canonicalReport(report: Report): Report {
  const sorted = sortReport(report);
  return canonicalDocument(sorted) ?? sorted;
}

/** `JSON.stringify(report, null, 2)` of the canonical report, with a final newline. */
export function encodeJson(report: Report): string {
  return JSON.stringify(canonicalReport(report), null, 2) + "\n";
}

/** The canonical report in TOON (`@toon-format/toon`), with a final newline. */
export function encodeToon(report: Report): string {
  return encode(canonicalReport(report)) + "\n";
}
