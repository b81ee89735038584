/**
 * Per-language file generators for the benchmark corpus (see `corpus.ts`). Each
 * makes a realistic small file from a seeded random source: varied names,
 * imports, classes and functions; `bad` adds typical lint findings, `messy`
 * breaks the formatting.
 *
 * @module
 */

/** A seeded pseudo-random source (mulberry32). */
export class Rng {
  #s: number;
  constructor(seed: number) {
    this.#s = seed >>> 0;
  }
  next(): number {
    let t = (this.#s += 0x6d2b79f5);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)];
  }
}

const WORDS = [
  "user",
  "order",
  "item",
  "cache",
  "node",
  "graph",
  "queue",
  "token",
  "report",
  "config",
  "engine",
  "file",
  "batch",
  "record",
  "session",
  "stream",
  "buffer",
  "index",
  "rule",
  "task",
  "worker",
  "event",
  "price",
  "stock",
  "route",
];
const VERBS = [
  "load",
  "save",
  "parse",
  "render",
  "merge",
  "count",
  "filter",
  "build",
  "check",
  "resolve",
  "update",
  "flush",
];

/** Context for one generated file. */
export interface Gen {
  rng: Rng;
  /** Sequence number of the file. */
  n: number;
  /** Add lint findings. */
  bad: boolean;
  /** Break the formatting. */
  messy: boolean;
  /** Package or directory name (Go needs one per directory). */
  pkg: string;
}

function word(g: Gen): string {
  return g.rng.pick(WORDS);
}
function camel(g: Gen): string {
  return g.rng.pick(VERBS) + word(g).replace(/^./, (c) => c.toUpperCase());
}
function snake(g: Gen): string {
  return `${g.rng.pick(VERBS)}_${word(g)}`;
}
function pascal(g: Gen): string {
  const w = word(g);
  return w[0].toUpperCase() + w.slice(1) + g.rng.pick(["Store", "Service", "Manager", "Builder", "View", "Model"]);
}
function times<T>(n: number, f: (i: number) => T): T[] {
  return Array.from({ length: n }, (_, i) => f(i));
}

/** Generators by language: [extension, generator]. */
export const GENERATORS: Record<string, [string, (g: Gen) => string]> = {
  python: ["py", (g) => {
    const cls = pascal(g);
    const fns = times(2 + g.rng.int(4), () => snake(g));
    const imports = ["import os", "from typing import Optional", ...(g.bad ? ["import sys"] : [])];
    const eq = g.messy ? "=" : " = ";
    const body = fns.map((f, i) =>
      `def ${f}_${i}(items: list[int], limit: Optional[int] = None) -> int:\n    """${
        f.replace("_", " ")
      } over items."""\n    total${eq}0\n` +
      `    for item in items:\n        if item % ${i + 2} == 0${
        g.bad && i === 0 ? " and limit == None" : ""
      }:\n            total += item\n` +
      `    return min(total, limit) if limit is not None else total\n`
    ).join("\n\n");
    return `"""Module ${g.pkg}.${g.n}: ${word(g)} utilities."""\n${imports.join("\n")}\n\n\nclass ${cls}:\n` +
      `    """A ${word(g)} holder."""\n\n    def __init__(self, value: int) -> None:\n        self.value${eq}value\n` +
      `        self.path = os.path.join("data", "${word(g)}")\n\n    def scaled(self, factor: int = ${
        g.rng.int(9) + 1
      }) -> int:\n` +
      `        return self.value * factor\n\n\n${body}`;
  }],
  typescript: ["ts", (g) => {
    const cls = pascal(g);
    const fns = times(2 + g.rng.int(4), () => camel(g));
    const sp = g.messy ? "" : " ";
    return `import { readFile } from "node:fs/promises";\n\nexport interface ${cls}Options {\n  name: string;\n  limit?: number;\n}\n\n` +
      `export class ${cls} {\n  #items: number[] = [];\n  constructor(private readonly options: ${cls}Options) {}\n\n` +
      `  add(value: number): void {\n    this.#items.push(value);\n  }\n\n  get total(): number {\n` +
      `    return this.#items.reduce((a, b) => a + b, 0);\n  }\n}\n\n` +
      fns.map((f, i) =>
        `export async function ${f}${i}(path: string): Promise<number>${sp}{\n  const text${sp}=${sp}await readFile(path, "utf8");\n` +
        (g.bad && i === 0 ? `  if (text.length == 0) {\n    debugger;\n  }\n` : "") +
        `  return text.split("\\n").filter((line) => line.includes("${word(g)}")).length * ${i + 1};\n}\n`
      ).join("\n");
  }],
  javascript: ["js", (g) => {
    const fns = times(2 + g.rng.int(3), () => camel(g));
    return `"use strict";\n\n` +
      fns.map((f, i) =>
        `export function ${f}${i}(list) {\n  ${g.bad && i === 0 ? "var" : "const"} seen = new Set();\n` +
        `  for (const x of list) {\n    if (x ${g.bad ? "==" : "==="} null) continue;\n    seen.add(x${
          g.messy ? "+" : " + "
        }${i});\n  }\n  return [...seen];\n}\n`
      ).join("\n");
  }],
  go: ["go", (g) => {
    const typ = pascal(g);
    const fns = times(2 + g.rng.int(3), () => camel(g).replace(/^./, (c) => c.toUpperCase()));
    const br = g.messy ? "{\n" : " {\n";
    return `package ${g.pkg}\n\nimport (\n\t"fmt"\n\t"strings"\n)\n\n// ${typ} holds ${
      word(g)
    } data.\ntype ${typ}${g.n} struct${br}\tName  string\n\tCount int\n}\n\n` +
      fns.map((f, i) =>
        `// ${f}${g.n}x${i} ${f.toLowerCase()}s the value.\nfunc ${f}${g.n}x${i}(v ${typ}${g.n}) string${br}\tparts := []string{v.Name, "${
          word(g)
        }"}\n` +
        `\tif v.Count > ${i} {\n\t\tparts = append(parts, fmt.Sprintf("${
          g.bad && i === 0 ? "%d" : "%s"
        }", v.Name))\n\t}\n\treturn strings.Join(parts, "-")\n}\n`
      ).join("\n");
  }],
  shell: ["sh", (g) => {
    const fn = snake(g);
    const ind = g.messy ? "      " : "  ";
    return `#!/bin/sh\nset -eu\n\n${fn}() {\n${ind}target="$1"\n${ind}for f in a b c; do\n${ind}${ind}echo "${
      word(g)
    }: $f" >>"$target"\n${ind}done\n}\n\n` +
      `if [ -n "\${1:-}" ]; then\n  ${fn} ${g.bad ? "$1" : '"$1"'}\nelse\n  echo "usage: $0 FILE" >&2\n  exit 1\nfi\n`;
  }],
  toml: ["toml", (g) => {
    const eq = g.messy ? "=" : " = ";
    return `[package]\nname${eq}"${word(g)}-${g.n}"\nversion = "0.${g.rng.int(9)}.${
      g.rng.int(20)
    }"\nedition = "2021"\n\n` +
      `[dependencies]\nserde = { version = "1", features = ["derive"] }\n${word(g)}-core = "${g.rng.int(5)}.${
        g.rng.int(9)
      }"\n` +
      (g.bad ? `serde = "1.0.1"\n` : "") + `\n[features]\ndefault = ["std"]\nstd = []\n`;
  }],
  yaml: ["yaml", (g) => {
    const ind = g.messy ? "    " : "  ";
    return `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n${ind}name: ${
      word(g)
    }-${g.n}\n${ind}labels:\n${ind}${ind}app: ${word(g)}\n` +
      (g.bad ? `${ind}name: duplicate\n` : "") +
      `spec:\n${ind}replicas: ${
        1 + g.rng.int(5)
      }\n${ind}template:\n${ind}${ind}spec:\n${ind}${ind}${ind}containers:\n` +
      `${ind}${ind}${ind}${ind}- name: app\n${ind}${ind}${ind}${ind}  image: "registry/${word(g)}:1.${
        g.rng.int(30)
      }"\n`;
  }],
  markdown: ["md", (g) => {
    const bullet = g.bad ? ["*", "+"] : ["-", "-"];
    return `# ${pascal(g)} ${g.n}\n\nThis module ${g.rng.pick(VERBS)}s ${word(g)} records${
      g.messy ? "  " : ""
    }.\n\n## Usage\n\n` +
      `${bullet[0]} install it\n${bullet[1]} run \`${snake(g)}\`\n\n\`\`\`sh\n${word(g)} --check ${
        g.messy ? "   " : ""
      }.\n\`\`\`\n`;
  }],
  json: ["json", (g) => {
    const obj = {
      name: `${word(g)}-${g.n}`,
      version: `1.${g.rng.int(9)}.0`,
      private: true,
      scripts: { build: "tsc", test: "deno test" },
    };
    return g.messy ? JSON.stringify(obj) + "\n" : JSON.stringify(obj, null, 2) + "\n";
  }],
  css: ["css", (g) => {
    const sp = g.messy ? "" : " ";
    return times(
      3,
      (i) =>
        `.${word(g)}-${i}${sp}{\n  color:${sp}#${(g.rng.int(0xffffff)).toString(16).padStart(6, "0")};\n  margin:${sp}${
          i * 4
        }px;\n}\n`,
    ).join("\n");
  }],
  rust: ["rs", (g) => {
    const typ = pascal(g);
    const sp = g.messy ? "" : " ";
    return `use std::collections::HashMap;\n\n/// ${typ} counts ${
      word(g)
    }s.\npub struct ${typ}${sp}{\n    counts: HashMap<String, usize>,\n}\n\n` +
      `impl ${typ} {\n    pub fn new() -> Self {\n        Self { counts: HashMap::new() }\n    }\n\n    pub fn add(&mut self, key: &str)${sp}{\n` +
      `        *self.counts.entry(key.to_string()).or_insert(0) += ${1 + g.rng.int(3)};\n    }\n}\n`;
  }],
  c: ["c", (g) => {
    const f = snake(g);
    const sp = g.messy ? "" : " ";
    return `#include <stdio.h>\n\nstatic int ${f}(int a,${sp}int b) {\n  return a * ${
      1 + g.rng.int(9)
    } + b;\n}\n\nint main(void) {\n` +
      `  for (int i = 0; i < ${2 + g.rng.int(8)}; i++) {\n    printf("%d\\n", ${f}(i, i));\n  }\n  return 0;\n}\n`;
  }],
  sql: ["sql", (g) => {
    const t = word(g) + "s";
    return g.messy
      ? `select id,name from ${t} where id>${g.rng.int(100)} order by name;\n`
      : `select\n  id,\n  name\nfrom\n  ${t}\nwhere\n  id > ${g.rng.int(100)}\norder by\n  name;\n`;
  }],
  lua: ["lua", (g) => {
    const f = snake(g);
    return g.messy
      ? `local M={}\nfunction M.${f}(a,b) return a+b*${g.rng.int(9)} end\nreturn M\n`
      : `local M = {}\nfunction M.${f}(a, b)\n\treturn a + b * ${g.rng.int(9)}\nend\nreturn M\n`;
  }],
  php: ["php", (g) => {
    const cls = pascal(g);
    return `<?php\n\nnamespace App;\n\nclass ${cls}\n{\n    public function ${
      camel(g)
    }(int $a): int\n    {\n        return $a * ${1 + g.rng.int(9)};\n    }\n}\n`;
  }],
  html: [
    "html",
    (g) =>
      g.messy
        ? `<!doctype html>\n<html><body><div class="${word(g)}"><p>${word(g)}</p></div></body></html>\n`
        : `<!doctype html>\n<html>\n  <body>\n    <div class="${word(g)}">\n      <p>${
          word(g)
        }</p>\n    </div>\n  </body>\n</html>\n`,
  ],
};
