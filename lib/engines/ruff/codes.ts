/**
 * ruff's rule codes and names at poly's pin (`_codes.json`, generated from ruff 0.16.9), for what reads ruff's
 * selectors outside the engine: ruff 0.16 takes a rule's name wherever it takes its code (`select = ["line-too-long"]`,
 * the form `RUF201` asks for), and poly's own readings of them (the `extend` chain's selection fold, per-file ignores,
 * the rules the engine works out) go by codes.
 *
 * @module
 */
import ruleCodes from "./_codes.json" with { type: "json" };

const CODES: Readonly<Record<string, string | undefined>> = ruleCodes.codes;

/** ruff's rule names by code, at its pin (what `RUF201`'s fix writes). */
export const RULE_NAMES: ReadonlyMap<string, string> = new Map(
  Object.entries(ruleCodes.codes).map(([name, code]) => [code, name]),
);

/** The code of the rule named `selector`, or `selector` itself (a code, a prefix, `ALL`, or a rule without a code). */
export function selectorCode(selector: string): string {
  return Object.hasOwn(CODES, selector) ? CODES[selector] ?? selector : selector;
}
