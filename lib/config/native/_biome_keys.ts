/**
 * The keys of a biome configuration that biome itself would reject: a key its
 * JSON schema (the `configuration_schema.json` shipped with `@biomejs/biome`
 * of the same version) does not know where `additionalProperties` is false —
 * above all the biome 1 keys (`files.include`, `files.ignore`) a biome 2
 * command line refuses to start with. Values are left to biome's own checks.
 * The schema (~600 KB) is loaded only when a repository has a biome file.
 *
 * @module
 */

type Schema = Record<string, unknown>;

let schema: Promise<Schema> | undefined;

function loadSchema(): Promise<Schema> {
  schema ??= import("@biomejs/biome/configuration_schema.json", { with: { type: "json" } }).then((m) =>
    m.default as Schema
  );
  return schema;
}

function isObject(v: unknown): v is Schema {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The object-typed branches a (sub)schema stands for, `$ref`s followed. */
function objectBranches(node: unknown, defs: Record<string, Schema>, depth = 0): Schema[] {
  if (!isObject(node) || depth > 8) return [];
  if (typeof node.$ref === "string") return objectBranches(defs[node.$ref.split("/").pop()!], defs, depth + 1);
  const alternatives = (node.anyOf ?? node.oneOf ?? node.allOf) as unknown[] | undefined;
  if (alternatives) return alternatives.flatMap((a) => objectBranches(a, defs, depth + 1));
  return isObject(node.properties) || node.type === "object" ? [node] : [];
}

function unknownIn(value: Schema, node: unknown, defs: Record<string, Schema>, path: string): string | undefined {
  const branches = objectBranches(node, defs);
  if (branches.length === 0) return undefined;
  let firstProblem: string | undefined;
  for (const branch of branches) {
    const props = isObject(branch.properties) ? branch.properties : {};
    const closed = branch.additionalProperties === false;
    let problem: string | undefined;
    for (const [k, v] of Object.entries(value)) {
      const child = props[k];
      if (child === undefined) {
        if (closed) {
          problem = path ? `${path}.${k}` : k;
          break;
        }
        continue;
      }
      if (isObject(v)) {
        problem = unknownIn(v, child, defs, path ? `${path}.${k}` : k);
        if (problem) break;
      }
    }
    if (!problem) return undefined;
    firstProblem ??= problem;
  }
  return firstProblem;
}

/** The dotted path of the first key biome's schema rejects in `config`, or undefined. */
export async function unknownBiomeKey(config: Record<string, unknown>): Promise<string | undefined> {
  const root = await loadSchema();
  const defs = (root.$defs ?? {}) as Record<string, Schema>;
  return unknownIn(config, root, defs, "");
}
