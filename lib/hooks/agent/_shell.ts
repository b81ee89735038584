/**
 * Reading a shell command line the way the agent hook needs to: split it into
 * simple commands, peel off wrappers (`npx`, `uv run`, `sudo`, `FOO=1`, ...) and
 * name the program each one really runs. Deliberately small: it only has to tell
 * "this runs ruff" from "this commit message mentions ruff".
 *
 * @module
 */

/** One simple command: its words, wrappers removed, the program's path reduced to its name. */
export type SimpleCommand = string[];

/** Splits a command line into simple commands (on `;`, `&&`, `||`, `|`, `&`, newlines, `(`, `)`), honouring quotes. */
export function simpleCommands(line: string): SimpleCommand[] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | undefined;
  const endWord = () => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === "\\" && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (c === " " || c === "\t") {
      endWord();
    } else if (c === ";" || c === "|" || c === "&" || c === "\n" || c === "(" || c === ")" || c === "`") {
      endCommand();
    } else if (c === "$" && line[i + 1] === "(") {
      endCommand();
      i++;
    } else {
      word += c;
      inWord = true;
    }
  }
  endCommand();
  return commands.map(unwrap).filter((c) => c.length > 0);
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** Wrappers that run the next word as the program (options of their own are skipped). */
const PLAIN_WRAPPERS = new Set([
  "sudo",
  "time",
  "nice",
  "nohup",
  "command",
  "exec",
  "env",
  "xargs",
  "npx",
  "bunx",
  "pnpx",
  "uvx",
]);
/** Wrappers with a subcommand before the program: `uv run ruff`, `pnpm exec eslint`. */
const SUB_WRAPPERS: Record<string, string[]> = {
  uv: ["run", "tool"],
  poetry: ["run"],
  pipx: ["run"],
  pdm: ["run"],
  hatch: ["run"],
  rye: ["run"],
  pnpm: ["exec", "dlx"],
  npm: ["exec"],
  yarn: ["exec", "dlx", "run"],
  bun: ["x", "run"],
};
/** Options of wrappers that take a value (`npx -p pkg`, `sudo -u user`). */
const VALUE_OPTIONS = new Set(["-p", "--package", "-u", "--user", "-n", "--with", "--from", "-C", "--cwd", "--dir"]);

function basename(word: string): string {
  const i = word.lastIndexOf("/");
  return i >= 0 ? word.slice(i + 1) : word;
}

/** `./node_modules/.bin/eslint` → `eslint`; `prettier@3` and `@biomejs/biome@2` → their bare names. */
function programName(word: string): string {
  const name = basename(word);
  const at = name.indexOf("@", 1);
  return at > 0 ? name.slice(0, at) : name;
}

/** Removes leading assignments and wrappers; the program word becomes its base name. */
function unwrap(words: string[]): string[] {
  let i = 0;
  for (let guard = 0; guard < 8 && i < words.length; guard++) {
    while (i < words.length && ASSIGNMENT.test(words[i])) i++;
    if (i >= words.length) break;
    const name = basename(words[i]);
    if (PLAIN_WRAPPERS.has(name)) {
      i = skipOptions(words, i + 1);
      continue;
    }
    if (name in SUB_WRAPPERS && SUB_WRAPPERS[name].includes(words[i + 1] ?? "")) {
      i = skipOptions(words, i + 2);
      continue;
    }
    if (/^python(\d(\.\d+)?)?$/.test(name) && words[i + 1] === "-m" && words[i + 2]) {
      i += 2;
      continue;
    }
    if (name === "yarn" && words[i + 1] && !words[i + 1].startsWith("-")) {
      i += 1; // `yarn eslint .` runs the package binary
      continue;
    }
    break;
  }
  const rest = words.slice(i);
  if (rest.length > 0) rest[0] = programName(rest[0]);
  return rest;
}

function skipOptions(words: string[], i: number): number {
  while (i < words.length && (words[i].startsWith("-") || ASSIGNMENT.test(words[i]))) {
    if (words[i] === "--") return i + 1;
    if (VALUE_OPTIONS.has(words[i])) i++;
    i++;
  }
  return i;
}
