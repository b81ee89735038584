/**
 * Where shfmt would change what a script runs (mvdan/sh#1083, open in shfmt 3.x and in the WebAssembly build): it
 * prints every backquoted command substitution as `$( )`, and an escaped double quote inside backquotes that stand
 * inside double quotes (`cd "`dirname \"$PRG\"`/"`, the `gradlew` Gradle wrote before 7.0) is a plain quote to the
 * shell there, which shfmt leaves escaped in `$( )`, where it is a literal quote character: `dirname` is then given
 * `"path"`, quotes and all. The file is not formatted (lib/engines/shfmt/mod.ts says so, naming the line).
 *
 * A small scanner, not a parser: it follows single and double quotes, backslashes, comments, `$( )` and the bodies of
 * here-documents (skipped: a backquote there is read alike in both forms) far enough to tell which backquotes stand
 * inside double quotes.
 *
 * @example
 * ```ts
 * quotedBackquoteEscape('cd "`dirname \\"$PRG\\"`/"\n'); // 1
 * quotedBackquoteEscape("x=`dirname \"$PRG\"`\n"); // undefined: unquoted backquotes keep \" as it is
 * ```
 *
 * @module
 */

/** What the scanner is inside: unquoted text, double quotes, backquotes (inside double quotes or not), `$( )`. */
type Context =
  | { kind: "top" }
  | { kind: "dq" }
  | { kind: "bq"; quoted: boolean; line: number }
  | { kind: "paren"; depth: number };

/** A here-document's delimiter (`<<EOF`, `<<-'EOF'`), and whether its closing line may be indented with tabs. */
const HEREDOC = /^<<(-?)[ \t]*(["']?)([A-Za-z0-9_.-]+)\2/;

/**
 * The 1-based line of the first backquoted command substitution inside double quotes that holds an escaped double
 * quote (`\"`), or undefined where there is none.
 */
export function quotedBackquoteEscape(text: string): number | undefined {
  if (!text.includes("`")) return undefined;
  const stack: Context[] = [{ kind: "top" }];
  const heredocs: { delimiter: string; tabs: boolean }[] = [];
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const here = stack[stack.length - 1];
    if (c === "\n") {
      line++;
      // Here-document bodies start on the next line: skip each, up to its closing line.
      while (heredocs.length > 0 && (here.kind === "top" || here.kind === "paren")) {
        const { delimiter, tabs } = heredocs.shift()!;
        for (let start = i + 1; start < text.length;) {
          const end = text.indexOf("\n", start);
          const row = text.slice(start, end < 0 ? text.length : end);
          i = end < 0 ? text.length : end;
          line++;
          if ((tabs ? row.replace(/^\t+/, "") : row) === delimiter || end < 0) break;
          start = end + 1;
        }
      }
      continue;
    }
    if (c === "\\") {
      if (here.kind === "bq" && here.quoted && text[i + 1] === '"') return here.line;
      if (text[i + 1] === "\n") line++;
      i++;
      continue;
    }
    if (here.kind === "bq") {
      if (c === "`") stack.pop();
      else if (c === "'") i = skipSingle(text, i, (n) => (line += n));
      continue;
    }
    if (here.kind === "dq") {
      if (c === '"') stack.pop();
      else if (c === "`") stack.push({ kind: "bq", quoted: true, line });
      else if (c === "$" && text[i + 1] === "(") stack.push({ kind: "paren", depth: 1 }), i++;
      continue;
    }
    // Unquoted text, at the top or inside `$( )`.
    if (c === "#" && (i === 0 || /[\s;&|()]/.test(text[i - 1]))) {
      const end = text.indexOf("\n", i);
      i = (end < 0 ? text.length : end) - 1;
    } else if (c === "'") i = skipSingle(text, i, (n) => (line += n));
    else if (c === '"') stack.push({ kind: "dq" });
    else if (c === "`") stack.push({ kind: "bq", quoted: false, line });
    else if (c === "$" && text[i + 1] === "(") stack.push({ kind: "paren", depth: 1 }), i++;
    else if (c === "(" && here.kind === "paren") here.depth++;
    else if (c === ")" && here.kind === "paren" && --here.depth === 0) stack.pop();
    else if (c === "<" && text[i + 1] === "<" && text[i + 2] !== "<") {
      const m = HEREDOC.exec(text.slice(i, i + 200));
      if (m) {
        heredocs.push({ delimiter: m[3], tabs: m[1] === "-" });
        i += m[0].length - 1;
      }
    }
  }
  return undefined;
}

/** The index of the quote closing the single-quoted string opened at `at` (the text's end if none); counts lines. */
function skipSingle(text: string, at: number, lines: (n: number) => void): number {
  const end = text.indexOf("'", at + 1);
  const stop = end < 0 ? text.length : end;
  let n = 0;
  for (let j = at + 1; j < stop; j++) if (text[j] === "\n") n++;
  lines(n);
  return stop;
}
