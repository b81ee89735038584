/**
 * Dockerfile `RUN` instructions as shell: the file's text with everything that
 * is not a shell command blanked out, code unit for code unit, so every line,
 * column and offset of a match in the shell view is the same in the Dockerfile.
 *
 * Handles line continuations (`\`), `RUN --mount=... cmd` flags, comment lines
 * inside a continuation, and `RUN <<EOF` heredocs. The exec form (`RUN ["a"]`)
 * is not shell and stays blank.
 *
 * @example
 * ```ts
 * shellView("FROM x\nRUN curl -s https://x | sh\n");
 * // "      \n    curl -s https://x | sh\n"
 * ```
 *
 * @module
 */

const RUN = /^(\s*)(run)(\s+)((?:--\S+\s+)*)/i;
const HEREDOC = /^<<(-?)(["']?)([A-Za-z_][A-Za-z0-9_]*)\2\s*$/;

/** The shell view of a Dockerfile, or undefined when it has no shell `RUN` instruction. */
export function shellView(text: string): string | undefined {
  const lines = text.split("\n");
  const out: string[] = [];
  let inContinuation = false;
  let continuationIsShell = false;
  let heredocEnd: { word: string; strip: boolean } | undefined;
  let any = false;
  for (const line of lines) {
    if (heredocEnd) {
      const candidate = heredocEnd.strip ? line.replace(/^\t+/, "") : line;
      if (candidate.replace(/\r$/, "") === heredocEnd.word) {
        heredocEnd = undefined;
        out.push(blank(line));
      } else {
        out.push(line);
      }
      continue;
    }
    const continues = /\\\r?$/.test(line);
    if (inContinuation) {
      const isComment = /^\s*#/.test(line);
      out.push(continuationIsShell && !isComment ? line : blank(line));
      if (!isComment) inContinuation = continues;
      continue;
    }
    const run = RUN.exec(line);
    if (run) {
      const prefix = run[0];
      const body = line.slice(prefix.length);
      const heredoc = HEREDOC.exec(body);
      if (heredoc) {
        heredocEnd = { word: heredoc[3], strip: heredoc[1] === "-" };
        out.push(blank(line));
        any = true;
        continue;
      }
      const shell = !body.trimStart().startsWith("[");
      out.push(shell ? blank(prefix) + body : blank(line));
      any ||= shell;
      inContinuation = continues;
      continuationIsShell = shell;
      continue;
    }
    out.push(blank(line));
    inContinuation = continues && !/^\s*#/.test(line);
    continuationIsShell = false;
  }
  return any ? out.join("\n") : undefined;
}

/** `text` with every code unit but line breaks replaced by a space. */
function blank(text: string): string {
  return text.replace(/[^\r\n]/g, " ");
}
