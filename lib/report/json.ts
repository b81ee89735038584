/**
 * The machine encoders: JSON (the contract) and TOON (the same document, compact
 * enough to hand to an agent).
 *
 * @module
 */
import { encode } from "@toon-format/toon";
import { Report } from "./schema.ts";
import { sortReport } from "./sort.ts";
import { canonicalErrors, canonicalResults, canonicalSkips } from "./_canonical.ts";

/**
 * The report as it is serialised: sorted, with keys in schema order and nothing
 * the schema does not name. A report that fails the schema (a bug upstream) is
 * kept as given rather than lost; the tests validate every document.
 */
export function canonicalReport(report: Report): Report {
  const sorted = sortReport(report);
  // The lists that grow with the run (nearly all of a large report) by hand; the rest through the schema.
  const lists = {
    results: canonicalResults(sorted.results),
    errors: canonicalErrors(sorted.errors),
    skipped: canonicalSkips(sorted.skipped),
  };
  const done = Object.fromEntries(Object.entries(lists).filter(([, list]) => list !== undefined));
  const parsed = Report.safeParse({ ...sorted, ...Object.fromEntries(Object.keys(done).map((key) => [key, []])) });
  if (!parsed.success) return sorted;
  // Each list takes its own place again (the schema's key order is kept).
  return { ...parsed.data, ...done };
}

/** `JSON.stringify(report, null, 2)` of the canonical report, with a final newline. */
export function encodeJson(report: Report): string {
  return JSON.stringify(canonicalReport(report), null, 2) + "\n";
}

/** The canonical report in TOON (`@toon-format/toon`), with a final newline. */
export function encodeToon(report: Report): string {
  return encode(canonicalReport(report)) + "\n";
}
