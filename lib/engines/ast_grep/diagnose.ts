/**
 * Rule matches as report diagnostics, and rule fixes applied to a text until it
 * is stable. The napi scanner (`scan.ts`, which loads @ast-grep/napi) is loaded
 * on first use: a run whose rules all go through the command line never loads it.
 *
 * @module
 */
import type { Diagnostic } from "../../report/schema.ts";
import { applyEdits, type TextEdit } from "./_fix.ts";
import { utf8Offsets } from "./_offsets.ts";
import type { RuleHit } from "./hit.ts";
import type { ScanFile } from "./select.ts";
import type { RuleSet } from "../../rules/types.ts";

/** The engine id diagnostics carry. */
export const ENGINE_ID = "ast-grep";

/** How many times fixes are applied and the file re-checked before giving up on stability. */
export const MAX_FIX_PASSES = 5;

/** The diagnostics of `set`'s enabled rules for `file`, in source order. */
export async function lintWithRules(set: RuleSet, file: ScanFile): Promise<Diagnostic[]> {
  const { scanFile } = await import("./scan.ts");
  const hits = await scanFile(set, file);
  if (hits.length === 0) return [];
  const bytes = utf8Offsets(file.text);
  return hits.map((h) => toDiagnostic(h, bytes));
}

/** A match as a diagnostic: 1-based span (UTF-16 columns), fix edits in UTF-8 bytes. */
export function toDiagnostic(hit: RuleHit, bytes: (index: number) => number): Diagnostic {
  const { rule } = hit;
  const diagnostic: Diagnostic = {
    engine: ENGINE_ID,
    code: rule.id,
    severity: rule.severity === "off" ? "hint" : rule.severity,
    title: hit.message.trim() || rule.id,
    span: {
      start_line: hit.start.line + 1,
      start_col: hit.start.column + 1,
      end_line: hit.end.line + 1,
      end_col: hit.end.column + 1,
    },
  };
  if (rule.note) diagnostic.description = rule.note.trim();
  if (rule.url) diagnostic.url = rule.url;
  if (hit.edit) {
    diagnostic.fix = [{ start_byte: bytes(hit.edit.start), end_byte: bytes(hit.edit.end), replacement: hit.edit.text }];
  }
  return diagnostic;
}

/** Result of {@link fixWithRules}. */
export interface FixResult {
  text: string;
  /** Number of edits applied over all passes. */
  fixed: number;
}

/**
 * Applies the fixes of `set`'s enabled rules to `file`: non-overlapping edits
 * (earliest first) per pass, then re-checks, until nothing is left to fix or
 * {@link MAX_FIX_PASSES} passes ran.
 */
export async function fixWithRules(set: RuleSet, file: ScanFile): Promise<FixResult> {
  let text = file.text;
  let fixed = 0;
  const seen = new Set<string>([text]);
  const { scanFile } = await import("./scan.ts");
  for (let pass = 0; pass < MAX_FIX_PASSES; pass++) {
    const hits = await scanFile(set, { ...file, text });
    const edits: TextEdit[] = hits.flatMap((h) => (h.edit ? [h.edit] : []));
    if (edits.length === 0) break;
    const result = applyEdits(text, edits);
    if (result.applied.length === 0) break;
    // A fix that undoes another would loop: stop at the first repeated text.
    if (seen.has(result.text)) break;
    seen.add(result.text);
    text = result.text;
    fixed += result.applied.length;
  }
  return { text, fixed };
}
