/**
 * Validation of what names an upstream: its endpoint URL, its name, and a stdio command line.
 *
 * @module
 */
import { GatewayError } from "./errors.ts";

/** Server names: letters, digits, `_`, `-`, `.`; 1–64 characters; no `/` (targets are `server/tool`). */
export const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** Throws unless `name` is a valid server name. */
export function checkServerName(name: string): void {
  if (!SERVER_NAME.test(name)) {
    throw new GatewayError(
      "invalid_name",
      `Server name "${name}" is not valid: use 1-64 letters, digits, "_", "-" or ".", starting with a letter or digit`,
    );
  }
}

/**
 * Checks an upstream endpoint: an absolute `http:` or `https:` URL without credentials,
 * query string or fragment. Returns its normalised form.
 */
export function checkEndpoint(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new GatewayError("invalid_endpoint", `Endpoint "${raw}" is not an absolute URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new GatewayError("invalid_endpoint", `Endpoint "${raw}" is refused: only http and https URLs are accepted`);
  }
  if (url.username || url.password || /^[a-z]+:\/\/[^/]*@/i.test(raw)) {
    throw new GatewayError(
      "invalid_endpoint",
      `Endpoint "${redact(url)}" is refused: it carries credentials; pass a token with --token-stdin or --token-env`,
    );
  }
  if (url.search || raw.includes("?")) {
    throw new GatewayError("invalid_endpoint", `Endpoint "${raw}" is refused: query strings are not allowed`);
  }
  if (url.hash || raw.includes("#")) {
    throw new GatewayError("invalid_endpoint", `Endpoint "${raw}" is refused: fragments are not allowed`);
  }
  return url.href;
}

function redact(url: URL): string {
  const copy = new URL(url.href);
  copy.username = "";
  copy.password = "";
  return copy.href;
}

/**
 * Splits a command line into argv the way a POSIX shell would split words, without
 * running a shell: single quotes, double quotes (with `\"` and `\\`), and backslash
 * escapes are understood; no variables, globs, pipes or redirections.
 */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === "\\" && (line[i + 1] === '"' || line[i + 1] === "\\")) word += line[++i];
      else word += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === "\\" && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new GatewayError("invalid_command", `Command "${line}" has an unclosed ${quote} quote`);
  if (inWord) words.push(word);
  if (words.length === 0) throw new GatewayError("invalid_command", "The command is empty");
  return words;
}
