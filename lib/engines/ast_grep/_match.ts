/**
 * What poly reads of one rule match: its range, its text and the metavariables
 * it captured. An `SgNode` of @ast-grep/napi is one; so is a match the ast-grep
 * command line reports (`batch.ts`), rebuilt over the file's text, so messages,
 * fixes and the regex checks of `_split.ts` are computed by the same code for both.
 *
 * @module
 */

/** A 0-based position: line, UTF-16 column, UTF-16 index (napi's convention). */
export interface Position16 {
  line: number;
  column: number;
  index: number;
}

/** A matched or captured node. */
export interface MatchNode {
  text(): string;
  range(): { start: Position16; end: Position16 };
  /** The node a single metavariable (`$X`) captured, or null. */
  getMatch(name: string): MatchNode | null;
  /** The nodes a multi metavariable (`$$$X`) captured, punctuation included; empty when none. */
  getMultipleMatches(name: string): MatchNode[];
}
