/**
 * The release a JavaScript lockfile installs for one package (lib/config/native/_js_lock.ts), in each lockfile's own
 * layout: npm's nearest `node_modules` entry, pnpm's importer, yarn's descriptor, bun's hoisted entry.
 */
import { equal } from "node:assert/strict";
import { lockedVersion } from "../../../lib/config/native/_js_lock.ts";

const npm = JSON.stringify({
  name: "mono",
  lockfileVersion: 3,
  packages: {
    "": { devDependencies: { prettier: "^3.0.0" } },
    "node_modules/prettier": { version: "3.5.3" },
    "packages/old/node_modules/prettier": { version: "2.8.8" },
    "node_modules/prettier-plugin-x": { version: "1.0.0" },
  },
});

Deno.test("npm: the entry Node's resolution reaches from the package's folder", () => {
  equal(lockedVersion("package-lock.json", { text: npm }, "", "prettier", "^3.0.0"), "3.5.3");
  equal(lockedVersion("package-lock.json", { text: npm }, "packages/app", "prettier", "^3.0.0"), "3.5.3", "hoisted");
  equal(
    lockedVersion("npm-shrinkwrap.json", { text: npm }, "packages/old", "prettier", "^2.0.0"),
    "2.8.8",
    "its own copy",
  );
  equal(lockedVersion("package-lock.json", { text: npm }, "", "eslint", "^9.0.0"), undefined, "not installed");
  equal(lockedVersion("package-lock.json", { text: "{ not json" }, "", "prettier", "^3.0.0"), undefined);
  // Lockfile version 1 has no `packages`: the range stands.
  equal(
    lockedVersion("package-lock.json", { text: '{"lockfileVersion":1,"dependencies":{}}' }, "", "prettier", "^3"),
    undefined,
  );
});

const pnpm = `lockfileVersion: '9.0'

settings:
  autoInstallPeers: true

importers:

  .:
    devDependencies:
      prettier:
        specifier: ^3.5.3
        version: 3.5.3
      prettier-plugin-astro:
        specifier: ^0.14.0
        version: 0.14.1(prettier@3.5.3)

  'packages/app':
    dependencies:
      prettier:
        specifier: 3.4.2
        version: 3.4.2(typescript@5.8.2)

  packages/lib:
    dependencies:
      zod:
        specifier: ^3
        version: 3.25.0

packages:

  prettier@3.5.3:
    resolution: {integrity: sha512-x}
`;

Deno.test("pnpm: the package's importer and its version of the dependency", () => {
  equal(lockedVersion("pnpm-lock.yaml", { text: pnpm }, "", "prettier", "^3.5.3"), "3.5.3");
  equal(
    lockedVersion("pnpm-lock.yaml", { text: pnpm }, "packages/app", "prettier", "3.4.2"),
    "3.4.2",
    "a quoted key, a peer suffix",
  );
  equal(
    lockedVersion("pnpm-lock.yaml", { text: pnpm }, "packages/lib", "prettier", "^3"),
    undefined,
    "not its dependency",
  );
  equal(
    lockedVersion("pnpm-lock.yaml", { text: pnpm }, "packages/none", "prettier", "^3"),
    undefined,
    "no such importer",
  );
  equal(lockedVersion("pnpm-lock.yaml", { text: "lockfileVersion: 5.4\n" }, "", "prettier", "^3"), undefined);
});

Deno.test("yarn: the entry one of whose descriptors is the manifest's range", () => {
  const classic = `# yarn lockfile v1


prettier@^2.0.0:
  version "2.8.8"
  resolved "https://registry.yarnpkg.com/prettier/-/prettier-2.8.8.tgz"

prettier@^3.0.0, prettier@^3.3.0:
  version "3.5.3"
  resolved "https://registry.yarnpkg.com/prettier/-/prettier-3.5.3.tgz"
`;
  equal(lockedVersion("yarn.lock", { text: classic }, "", "prettier", "^3.3.0"), "3.5.3");
  equal(lockedVersion("yarn.lock", { text: classic }, "", "prettier", "^2.0.0"), "2.8.8");
  equal(lockedVersion("yarn.lock", { text: classic }, "", "prettier", "^3.4.0"), undefined, "no entry for that range");
  const berry = `__metadata:
  version: 8

"prettier@npm:^3.0.0, prettier@npm:^3.5.0":
  version: 3.6.2
  resolution: "prettier@npm:3.6.2"
`;
  equal(lockedVersion("yarn.lock", { text: berry }, "packages/app", "prettier", "^3.5.0"), "3.6.2");
});

Deno.test("bun: the hoisted entry, in a text lockfile with trailing commas", () => {
  const bun = `{
  "lockfileVersion": 1,
  "workspaces": {
    "": { "devDependencies": { "prettier": "^3.0.0", }, },
  },
  "packages": {
    "prettier": ["prettier@3.5.3", "", { "bin": { "prettier": "bin/prettier.cjs" } }, "sha512-x"],
    "prettier-plugin-x": ["prettier-plugin-x@1.0.0", "", {}, "sha512-y"],
  },
}
`;
  equal(lockedVersion("bun.lock", { text: bun }, "", "prettier", "^3.0.0"), "3.5.3");
  equal(lockedVersion("bun.lock", { text: bun }, "", "eslint", "^9.0.0"), undefined);
  equal(
    lockedVersion("bun.lockb", { text: "\0binary" }, "", "prettier", "^3.0.0"),
    undefined,
    "the binary lockfile says nothing",
  );
});
