/**
 * Colour and emphasis. `NO_COLOR` (any non-empty value) and `FORCE_COLOR=0` turn
 * colour off; bold and inverse stay, so the selection is still visible. The
 * plain theme (used by `poly dash --once`) has neither.
 *
 * @module
 */

/** Colours the dashboard uses, by meaning. */
export type Tone = "accent" | "good" | "bad" | "warn" | "dim" | "title";

/** How text may be styled. */
export interface Theme {
  /** Colours allowed. */
  color: boolean;
  /** Bold, dim and inverse allowed. */
  styles: boolean;
}

/** No colour and no emphasis: text only. */
export const PLAIN: Theme = { color: false, styles: false };

/** Colours and emphasis. */
export const COLORFUL: Theme = { color: true, styles: true };

const COLORS: Record<Tone, string> = {
  accent: "cyan",
  good: "green",
  bad: "red",
  warn: "yellow",
  dim: "gray",
  title: "magenta",
};

/** The theme the environment asks for (`NO_COLOR`, `FORCE_COLOR=0`). */
export function themeFromEnv(get: (name: string) => string | undefined): Theme {
  const noColor = (get("NO_COLOR") ?? "") !== "" || get("FORCE_COLOR") === "0";
  return { color: !noColor, styles: true };
}

/** The ink `color` for `tone`, or undefined when colour is off. */
export function colorOf(theme: Theme, tone: Tone | undefined): string | undefined {
  return theme.color && tone ? COLORS[tone] : undefined;
}
