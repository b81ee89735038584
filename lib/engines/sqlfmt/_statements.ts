/**
 * Where a SQL text may be cut into runs of whole statements that sqlformat formats one by one as it formats them
 * together: sqlformat's time grows with the square of the number of statements (each `;` costs work in proportion to
 * the output so far: a 300 KB file of short statements took 2.5 s a pass, a 1.9 MB one minutes), while each statement's
 * output depends on nothing before its `;`.
 *
 * A cut is after a `;` that ends its line, outside strings, quoted names and comments, with every parenthesis closed.
 * Texts that may hold statements inside a statement (`BEGIN` … `END` bodies, `$$` bodies, `DELIMITER` changes, `CASE` …
 * `END`, `IF`) are never cut: sqlformat indents their inner statements by the block they are in.
 *
 * @module
 */

/** Words that open a block whose inner statements end in `;`, or change what ends a statement. */
const BLOCKS =
  /\b(begin|end|case|if|loop|while|repeat|delimiter|declare|procedure|function|trigger|do)\b|\$\$|\$[a-z_]*\$/i;

/**
 * The texts between the cuts, each at least `size` characters (the last may be shorter), joined giving `text` back;
 * `[text]` where no cut is safe.
 */
export function statementRuns(text: string, size: number): string[] {
  if (BLOCKS.test(text)) return [text];
  const runs: string[] = [];
  let start = 0;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'" || c === '"' || c === "`" || c === "[") {
      const close = c === "[" ? "]" : c;
      // A quote doubled inside is the quote itself ('it''s'): the scan goes on past it.
      let j = i + 1;
      for (; j < text.length; j++) {
        if (text[j] === close) {
          if (close !== "]" && text[j + 1] === close) j++;
          else break;
        }
      }
      if (j >= text.length) return [text];
      i = j;
    } else if (
      c === "-" && text[i + 1] === "-" ||
      c === "#" && /[ \t]/.test(text[i + 1] ?? "") && /(^|\n)[ \t]*$/.test(text.slice(Math.max(0, i - 80), i))
    ) {
      const end = text.indexOf("\n", i);
      if (end < 0) break;
      i = end;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      if (end < 0) return [text];
      i = end + 1;
    } else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === ";" && depth === 0 && i + 1 - start >= size) {
      let j = i + 1;
      while (j < text.length && (text[j] === " " || text[j] === "\t" || text[j] === "\r")) j++;
      if (j < text.length && text[j] === "\n") {
        runs.push(text.slice(start, j + 1));
        start = j + 1;
        i = j;
      }
    }
  }
  if (depth !== 0) return [text];
  if (start < text.length) runs.push(text.slice(start));
  return runs;
}
