/**
 * JSON with comments and trailing commas (biome.jsonc, tsconfig-style files,
 * `.prettierrc.json5` without its other extensions): comments and trailing
 * commas are removed outside strings, then the text is parsed as JSON.
 *
 * @module
 */

/** Parses JSONC text; throws a SyntaxError with JSON.parse's message on bad input. */
export function parseJsonc(text: string): unknown {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const body = text.slice(i, end < 0 ? text.length : end + 2);
      out += body.replace(/[^\n]/g, " ");
      i = end < 0 ? text.length : end + 1;
    } else out += c;
  }
  return JSON.parse(out.replace(/,(\s*[\]}])/g, "$1"));
}
