/**
 * POSIX path functions as `node:path` and `node:url` give them on Linux and
 * macOS (tests/paths/path_test.ts holds them to Deno's `node:path.posix` and
 * `node:url` on generated paths), without starting Deno's Node layer. Only
 * `/` separates; a backslash is a character of a name, as it is on these
 * systems. lib/paths/path.ts chooses these or Node's own.
 *
 * @module
 */

/** The separator. */
export const sep: string = "/";

/** Whether `path` starts at the root. */
export function isAbsolute(path: string): boolean {
  return path.startsWith("/");
}

/** The names of `path` with `.` and `..` worked out; `..` stays at the front of a relative path, and drops at the root. */
function normalizeNames(path: string, absolute: boolean): string {
  const out: string[] = [];
  for (const name of path.split("/")) {
    if (name === "" || name === ".") continue;
    if (name !== "..") out.push(name);
    else if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
    else if (!absolute) out.push("..");
  }
  return out.join("/");
}

/** `path` with `.`, `..` and repeated separators worked out; a trailing separator kept. */
export function normalize(path: string): string {
  if (path === "") return ".";
  const absolute = isAbsolute(path);
  const trailing = path.endsWith("/");
  let names = normalizeNames(path, absolute);
  if (names === "") return absolute ? "/" : trailing ? "./" : ".";
  if (trailing) names += "/";
  return absolute ? `/${names}` : names;
}

/** The non-empty `parts` joined with `/`, normalized (`.` when there are none). */
export function join(...parts: string[]): string {
  const joined = parts.filter((p) => p !== "").join("/");
  return joined === "" ? "." : normalize(joined);
}

/** The absolute path `parts` name, from right to left until one is absolute, else from the working directory. */
export function resolve(...parts: string[]): string {
  let path = "";
  let absolute = false;
  for (let i = parts.length - 1; i >= -1 && !absolute; i--) {
    const part = i >= 0 ? parts[i] : Deno.cwd();
    if (part === "") continue;
    path = path === "" ? part : `${part}/${path}`;
    absolute = isAbsolute(part);
  }
  const names = normalizeNames(path, absolute);
  return absolute ? `/${names}` : names === "" ? "." : names;
}

/** The folder part of `path` (trailing separators ignored). */
export function dirname(path: string): string {
  if (path === "") return ".";
  const rooted = path.startsWith("/");
  let end = -1;
  let slashesOnly = true;
  for (let i = path.length - 1; i >= 1; i--) {
    if (path[i] === "/") {
      if (!slashesOnly) {
        end = i;
        break;
      }
    } else slashesOnly = false;
  }
  if (end === -1) return rooted ? "/" : ".";
  if (rooted && end === 1) return "//";
  return path.slice(0, end);
}

/** The last name of `path` (trailing separators ignored). */
export function basename(path: string): string {
  let end = path.length;
  while (end > 0 && path[end - 1] === "/") end--;
  return path.slice(path.lastIndexOf("/", end - 1) + 1, end);
}

/** The relative path from `from` to `to`, both resolved first (`""` when they are the same). */
export function relative(from: string, to: string): string {
  if (from === to) return "";
  const a = resolve(from).split("/").filter((n) => n !== "");
  const b = resolve(to).split("/").filter((n) => n !== "");
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  return [...a.slice(common).map(() => ".."), ...b.slice(common)].join("/");
}

/** The path of a `file:` URL (no host; an encoded `/` in it is refused, as Node refuses it). */
export function fileURLToPath(url: string | URL): string {
  const u = typeof url === "string" ? new URL(url) : url;
  if (u.protocol !== "file:") throw new TypeError(`The URL must be of scheme file: ${u.href}`);
  if (u.hostname !== "") throw new TypeError(`File URL host must be "localhost" or empty on this platform: ${u.href}`);
  if (/%2f/i.test(u.pathname)) throw new TypeError(`File URL path must not include encoded / characters: ${u.href}`);
  return decodeURIComponent(u.pathname);
}

/** The `file:` URL of `path`, resolved (a trailing separator kept). */
export function pathToFileURL(path: string): URL {
  let resolved = resolve(path);
  if (path.endsWith("/") && !resolved.endsWith("/")) resolved += "/";
  const url = new URL("file://");
  url.pathname = resolved.replace(/[%\\\n\r\t]/g, (c) => ESCAPES[c]);
  return url;
}

/** What `node:url` escapes in a path before the URL's own encoding (which leaves these alone). */
const ESCAPES: Record<string, string> = { "%": "%25", "\\": "%5C", "\n": "%0A", "\r": "%0D", "\t": "%09" };
