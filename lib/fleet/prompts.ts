/**
 * The prompts poly wraps around a caller's request for each tool. They ask for
 * short, referenced answers: the point of the fleet is that raw worker output
 * never enters the caller's context.
 *
 * @module
 */

/** Added to every worker's system channel: terse answers save the caller's context. */
export const TERSE_STYLE = "Reply tersely: no filler, no narration of what you are about to do. Keep all technical " +
  "substance verbatim: code, paths, commands, exact error strings. Cite files as path:line.";

/** Asks the worker to return partial results before the safety-net timeout kills it. */
export function budgetNote(timeoutMs: number): string {
  const minutes = Math.max(1, Math.round(timeoutMs / 60_000));
  return `\n\n[Time budget: about ${minutes} min. If you run low, stop and return partial results with a note on what remains.]`;
}

const READ_ONLY_NOTE = "The workspace is mounted read-only: do not try to modify files; answer from reading only.";

/** explore: locate, do not review. */
export function explorePrompt(o: { question?: string; files?: string[]; breadth?: "normal" | "thorough" }): string {
  const wide = o.breadth === "thorough"
    ? "Sweep wide: search every plausible name, directory and file type before answering."
    : "Search efficiently; stop when you have found what was asked.";
  if (o.question && o.files?.length) {
    return `${READ_ONLY_NOTE}\nAnswer this question about these files, citing path:line for every claim.\n` +
      `Files: ${o.files.join(", ")}\nQuestion: ${o.question}\n${wide}`;
  }
  if (o.question) {
    return `${READ_ONLY_NOTE}\nLocate what the question asks for in this project and answer with path:line references ` +
      `and one line each on what is there. Locate, do not review.\nQuestion: ${o.question}\n${wide}`;
  }
  if (o.files?.length) {
    return `${READ_ONLY_NOTE}\nSummarise what each of these files is for and its main entry points, with path:line.\n` +
      `Files: ${o.files.join(", ")}`;
  }
  return `${READ_ONLY_NOTE}\nMap this project: its purpose, top-level layout (one line per directory), entry points, ` +
    `build and test commands, with path references. ${wide}`;
}

/** read_slice: only the lines relevant to `want`. */
export function readSlicePrompt(o: { files: string[]; want: string }): string {
  return `${READ_ONLY_NOTE}\nFrom the files below, return ONLY the code relevant to the request, as exact excerpts, ` +
    `each headed by path:start-end. No commentary beyond one line per excerpt. Never return whole files.\n` +
    `Files: ${o.files.join(", ")}\nRequest: ${o.want}`;
}

/** run_filtered: run a command, return only the relevant lines. */
export function runFilteredPrompt(o: { command: string; want: string }): string {
  return `Run this shell command in the workspace exactly as given, then return ONLY the output lines relevant to ` +
    `the request (verbatim), followed by a line "exit code: N". Do not fix anything.\nCommand: ${o.command}\n` +
    `Request: ${o.want}`;
}

/** web_lookup: search, answer with sources. */
export function webLookupPrompt(o: { query: string }): string {
  return `${READ_ONLY_NOTE}\nSearch the web (and official documentation) for the following and answer concisely, ` +
    `citing source URLs.\nQuery: ${o.query}`;
}

/** generate_image: create or edit an image and save it at `output`. */
export function imagePrompt(o: { prompt: string; output: string; inputs: string[] }): string {
  const edit = o.inputs.length ? `Edit the attached image(s) (${o.inputs.join(", ")}) as described. ` : "";
  return `${edit}Use your image generation tool to create this image and save it as a file at exactly ` +
    `${o.output} (create missing folders). Reply with the path only.\nImage: ${o.prompt}`;
}

/** fan_out's arbiter: merge independent answers. */
export function arbiterPrompt(o: { task: string; answers: { label: string; text: string }[] }): string {
  const parts = o.answers.map((a) => `### ${a.label}\n${a.text}`).join("\n\n");
  return `${READ_ONLY_NOTE}\nSeveral workers answered the same task independently. Merge their answers into one: ` +
    `keep what they agree on, resolve disagreements by checking the workspace, and say which worker was right ` +
    `where they differ.\n\nTask: ${o.task}\n\n${parts}`;
}

/** fan_out worker framing. */
export function workerPrompt(task: string, index: number, total: number): string {
  return `${READ_ONLY_NOTE}\nYou are worker ${index + 1} of ${total}, answering independently.\n\n${task}`;
}
