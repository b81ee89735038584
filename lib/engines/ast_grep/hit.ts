/**
 * A rule's match as a hit: its range, its message with metavariables filled
 * in, its fix; and the order hits are reported in. Shared by the napi path
 * (`scan.ts`) and the command line's output (`_cli_hits.ts`).
 *
 * @module
 */
import { fixEditAt, type TextEdit } from "./_fix.ts";
import type { MatchNode, Position16 } from "./_match.ts";
import type { LoadedRule } from "../../rules/types.ts";

export type { Position16 };

/** One match of one rule. */
export interface RuleHit {
  rule: LoadedRule;
  start: Position16;
  end: Position16;
  /** The rule's message with metavariables filled in. */
  message: string;
  /** The rule's fix for this match, when it has one. */
  edit?: TextEdit;
}

/**
 * A match as a hit: its range, its message with metavariables filled in, and
 * its fix over `editRange` (the range the fix replaces, UTF-16 indexes; given
 * when the rule has a fix).
 */
export function matchHit(
  rule: LoadedRule,
  node: MatchNode,
  source: string,
  editRange?: { start: number; end: number },
): RuleHit {
  const { start, end } = node.range();
  return {
    rule,
    start,
    end,
    message: interpolateMessage(rule.message, node),
    edit: rule.fix !== undefined && editRange
      ? fixEditAt(rule.fix, node, source, editRange.start, editRange.end)
      : undefined,
  };
}

const MESSAGE_VAR = /\$\$\$([A-Z_][A-Z0-9_]*)|\$([A-Z_][A-Z0-9_]*)/g;

function interpolateMessage(message: string, node: MatchNode): string {
  if (!message.includes("$")) return message;
  return message.replace(MESSAGE_VAR, (whole, multi: string | undefined, single: string | undefined) => {
    if (multi) {
      const nodes = node.getMultipleMatches(multi);
      return nodes.length ? nodes.map((n) => n.text()).join(", ") : whole;
    }
    return node.getMatch(single!)?.text() ?? whole;
  });
}

/**
 * Sorts hits into report order: by start, then end, then rule id; exact ties
 * (one rule matching two nodes of the same range) by message, then fix, so the
 * order does not depend on the order matches were found in.
 */
export function sortHits(hits: RuleHit[]): RuleHit[] {
  return hits.sort((a, b) =>
    a.start.index - b.start.index || a.end.index - b.end.index || compare(a.rule.id, b.rule.id) ||
    compare(a.message, b.message) || compare(editKey(a), editKey(b))
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function editKey(hit: RuleHit): string {
  return hit.edit ? `${hit.edit.start}:${hit.edit.end}:${hit.edit.text}` : "";
}
