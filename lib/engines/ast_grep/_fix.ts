/**
 * Rule fixes: expanding a `fix:` template with a match's metavariables (as
 * ast-grep does: `$X` is the text of one captured node, `$$$X` the source text
 * spanning a captured list), and applying non-overlapping edits to a text.
 *
 * Offsets here are UTF-16 indexes into the JavaScript string, as @ast-grep/napi
 * reports them.
 *
 * @module
 */
import type { SgNode } from "@ast-grep/napi";
import type { MatchNode } from "./_match.ts";
import type { FixField } from "../../rules/types.ts";

/** One replacement in UTF-16 indexes. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

const METAVAR = /\$\$\$([A-Z_][A-Z0-9_]*)|\$\$?([A-Z_][A-Z0-9_]*)/g;

/** Replaces metavariables in `template` with what `node` captured; an unknown single name stays as written. */
export function interpolate(template: string, node: MatchNode, source: string): string {
  return template.replace(METAVAR, (whole, multi: string | undefined, single: string | undefined) => {
    if (multi) {
      const nodes = node.getMultipleMatches(multi);
      if (nodes.length === 0) return node.getMatch(multi)?.text() ?? "";
      return source.slice(nodes[0].range().start.index, nodes[nodes.length - 1].range().end.index);
    }
    const match = node.getMatch(single!);
    return match ? match.text() : whole;
  });
}

/**
 * The edit a rule's fix makes for `node`: the template expanded, the range
 * widened by `expandStart`/`expandEnd`, and the lines after the first indented
 * like the matched node's line. A multi-line template's final line break (YAML
 * `|` adds one) is dropped.
 */
export function fixEdit(fix: FixField, node: SgNode, source: string): TextEdit {
  const { start, end } = expandedRange(fix, node);
  return fixEditAt(fix, node, source, start, end);
}

/** The range a fix replaces: the node's, widened over the siblings `expandStart`/`expandEnd` match. */
export function expandedRange(fix: FixField, node: SgNode): { start: number; end: number } {
  let start = node.range().start.index;
  let end = node.range().end.index;
  if (typeof fix === "object" && fix.expandEnd) {
    for (let next = node.next(); next && next.matches({ rule: fix.expandEnd }); next = next.next()) {
      end = next.range().end.index;
    }
  }
  if (typeof fix === "object" && fix.expandStart) {
    for (let prev = node.prev(); prev && prev.matches({ rule: fix.expandStart }); prev = prev.prev()) {
      start = prev.range().start.index;
    }
  }
  return { start, end };
}

/** {@link fixEdit} with the replaced range (UTF-16 indexes) already known. */
export function fixEditAt(fix: FixField, node: MatchNode, source: string, start: number, end: number): TextEdit {
  let template = typeof fix === "string" ? fix : fix.template;
  if (template.endsWith("\n") && template.indexOf("\n") < template.length - 1) template = template.slice(0, -1);
  if (template.includes("\n")) {
    const lineStart = source.lastIndexOf("\n", start - 1) + 1;
    const indent = /^[ \t]*/.exec(source.slice(lineStart, start))![0];
    template = template.split("\n").map((line, i) => (i === 0 || line === "" ? line : indent + line)).join("\n");
  }
  const text = interpolate(template, node, source);
  return text === "" ? wholeLineDeletion(start, end, source) : { start, end, text };
}

/** A deletion that would leave a blank line takes the line (and its line break) with it. */
function wholeLineDeletion(start: number, end: number, source: string): TextEdit {
  const lineStart = source.lastIndexOf("\n", start - 1) + 1;
  const newline = source.indexOf("\n", end);
  const lineEnd = newline === -1 ? source.length : newline;
  const before = source.slice(lineStart, start);
  const after = source.slice(end, lineEnd);
  if (/^[ \t]*$/.test(before) && /^[ \t;]*\r?$/.test(after)) {
    return { start: lineStart, end: newline === -1 ? lineEnd : newline + 1, text: "" };
  }
  return { start, end, text: "" };
}

/** Applies the non-overlapping edits among `edits` (earliest first); returns the text and how many applied. */
export function applyEdits(text: string, edits: readonly TextEdit[]): { text: string; applied: TextEdit[] } {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  const applied: TextEdit[] = [];
  let last = -1;
  for (const edit of sorted) {
    if (edit.start < last || (edit.start === last && applied.length > 0 && edit.start === edit.end)) continue;
    if (text.slice(edit.start, edit.end) === edit.text) continue;
    applied.push(edit);
    last = edit.end;
  }
  let out = "";
  let pos = 0;
  for (const edit of applied) {
    out += text.slice(pos, edit.start) + edit.text;
    pos = edit.end;
  }
  return { text: out + text.slice(pos), applied };
}
