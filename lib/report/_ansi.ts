/**
 * Plain ANSI colours for the human encoder; identity functions when colour is off.
 *
 * @module
 */
import type { Severity } from "./schema.ts";

/** A style: wraps text in escape codes (or returns it unchanged). */
export type Style = (text: string) => string;

/** The styles the human encoder uses. */
export interface Paint {
  bold: Style;
  dim: Style;
  red: Style;
  green: Style;
  yellow: Style;
  blue: Style;
  cyan: Style;
  /** The colour of a severity (bold for error and warning). */
  severity(severity: Severity): Style;
}

const sgr = (open: string, close: string): Style => (text) => text === "" ? text : `\x1b[${open}m${text}\x1b[${close}m`;
const plain: Style = (text) => text;

/** Styles that colour when `color` is true and do nothing otherwise. */
export function paint(color: boolean): Paint {
  if (!color) {
    return {
      bold: plain,
      dim: plain,
      red: plain,
      green: plain,
      yellow: plain,
      blue: plain,
      cyan: plain,
      severity: () => plain,
    };
  }
  const bold = sgr("1", "22");
  const red = sgr("31", "39"), yellow = sgr("33", "39"), blue = sgr("34", "39"), cyan = sgr("36", "39");
  const bySeverity: Record<Severity, Style> = {
    error: (t) => bold(red(t)),
    warning: (t) => bold(yellow(t)),
    info: blue,
    hint: cyan,
  };
  return {
    bold,
    dim: sgr("2", "22"),
    red,
    green: sgr("32", "39"),
    yellow,
    blue,
    cyan,
    severity: (severity) => bySeverity[severity],
  };
}
