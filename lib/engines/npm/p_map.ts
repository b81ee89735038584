/**
 * npm `p-map` (bounded concurrency over promises), loaded through
 * `lazy.npmPMap` by the host engines that start one tool process per group of
 * files (shellcheck, go vet), so the engine registry's start-up graph names no
 * npm package.
 *
 * @module
 */
export { default as pMap } from "p-map";
