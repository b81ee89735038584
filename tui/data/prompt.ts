/**
 * The caller's words in a stored session preview. The fleet stores the first
 * 200 characters of the prompt it sent the engine (`lib/fleet/run.ts`,
 * `preview: scrub(run.prompt).slice(0, 200)`), and that prompt is the caller's
 * text wrapped in poly's own: a tool's framing (`explorePrompt`,
 * `runFilteredPrompt`, ... in `lib/fleet/prompts.ts`) and, for workers that may
 * write, the time budget appended at the end (`budgetNote`). This takes them
 * off again, built from those same functions, and says when the 200 characters
 * held only poly's framing.
 *
 * @module
 */
import {
  arbiterPrompt,
  budgetNote,
  explorePrompt,
  imagePrompt,
  readSlicePrompt,
  runFilteredPrompt,
  webLookupPrompt,
  workerPrompt,
} from "../../lib/fleet/prompts.ts";

/** What a preview says the caller asked. */
export interface CallerPrompt {
  /** The caller's words (several parts joined by ` · `); "" when the preview holds none of them. */
  text: string;
  /** Whether poly's framing was recognised (and taken off). */
  framed: boolean;
}

// Markers rendered into the templates: the caller's main text, a second value, a number.
const MAIN = "\u0001";
const SECOND = "\u0002";
const NUMBER = "\u0003";

/** A template: literals around slots (`MAIN` or `SECOND`), in text order. */
interface Template {
  literals: string[];
  slots: string[];
}

function template(rendered: string): Template {
  const literals: string[] = [];
  const slots: string[] = [];
  let current = "";
  for (const ch of rendered) {
    if (ch === MAIN || ch === SECOND) {
      literals.push(current);
      slots.push(ch);
      current = "";
    } else current += ch;
  }
  literals.push(current);
  return { literals, slots };
}

const TEMPLATES: Template[] = [
  ...(["normal", "thorough"] as const).flatMap((breadth) => [
    explorePrompt({ question: MAIN, files: [SECOND], breadth }),
    explorePrompt({ question: MAIN, breadth }),
    explorePrompt({ breadth }),
  ]),
  explorePrompt({ files: [MAIN] }),
  readSlicePrompt({ files: [SECOND], want: MAIN }),
  runFilteredPrompt({ command: MAIN, want: SECOND }),
  webLookupPrompt({ query: MAIN }),
  imagePrompt({ prompt: MAIN, output: SECOND, inputs: [] }),
  imagePrompt({ prompt: MAIN, output: SECOND, inputs: [NUMBER] }).replace(NUMBER, "\u0004"),
  workerPrompt(MAIN, 0, 1).replace("worker 1 of 1", `worker ${NUMBER} of ${NUMBER}`),
  arbiterPrompt({ task: MAIN, answers: [] }),
].map(template);

/**
 * Where literal `lit` matches `text` at `at`: the end of the match, "partial"
 * when the text ends inside it, or -1. `NUMBER` matches digits, `\u0004` any
 * text up to the next literal character.
 */
function matchLiteral(text: string, at: number, lit: string): number | "partial" {
  let i = at;
  for (let j = 0; j < lit.length; j++) {
    if (i >= text.length) return "partial";
    const want = lit[j];
    if (want === NUMBER) {
      if (!/\d/.test(text[i])) return -1;
      while (i < text.length && /\d/.test(text[i])) i++;
    } else if (want === "\u0004") {
      const stop = lit[j + 1];
      while (i < text.length && text[i] !== stop) i++;
    } else if (text[i] === want) i++;
    else return -1;
  }
  return i;
}

/**
 * The slot values of `t` in `text`, or undefined when it is not this template. When the preview was `cut`, the text
 * may end anywhere: in the framing (no value yet) or in a value.
 */
function matchTemplate(text: string, t: Template, cut: boolean): Map<string, string> | undefined {
  const values = new Map<string, string>();
  const first = matchLiteral(text, 0, t.literals[0]);
  if (first === -1) return undefined;
  if (first === "partial") return cut ? values : undefined;
  let pos = first;
  for (let k = 0; k < t.slots.length; k++) {
    const next = t.literals[k + 1];
    if (next === "") {
      values.set(t.slots[k], text.slice(pos));
      return values;
    }
    let found = -1;
    let partialAt = -1;
    for (let at = pos; at <= text.length; at++) {
      const m = matchLiteral(text, at, next);
      if (m === "partial") {
        if (partialAt < 0) partialAt = at;
      } else if (m !== -1) {
        values.set(t.slots[k], text.slice(pos, at));
        found = m;
        break;
      }
    }
    if (found < 0) {
      if (!cut) return undefined;
      // The stored characters end inside this value or the framing after it.
      values.set(t.slots[k], text.slice(pos, partialAt < 0 ? text.length : partialAt));
      return values;
    }
    pos = found;
  }
  return pos === text.length ? values : undefined;
}

/** `text` without the time budget poly appends (whole, or cut where the preview ends). */
export function stripBudget(text: string): string {
  const note = budgetNote(60_000).replace(/about \d+ min/, `about ${NUMBER} min`);
  for (let at = Math.max(0, text.length - note.length - 12); at < text.length; at++) {
    if (text[at] !== "\n") continue;
    const m = matchLiteral(text, at, note);
    if (m === "partial" || m === text.length) return text.slice(0, at);
  }
  return text;
}

/** How many characters of the prompt the fleet stores as the preview. */
export const PREVIEW_CHARS = 200;

/** The caller's words in a stored session preview. */
export function callerPrompt(preview: string): CallerPrompt {
  const text = stripBudget(preview);
  const cut = preview.length >= PREVIEW_CHARS;
  for (const t of TEMPLATES) {
    const values = matchTemplate(text, t, cut);
    if (!values) continue;
    const parts = [values.get(MAIN), values.get(SECOND)].map((v) => v?.trim() ?? "").filter(Boolean);
    return { text: parts.join(" · "), framed: true };
  }
  return { text: text.trim(), framed: text !== preview };
}
