/**
 * The napi side of rule languages: napi's name for each parser, and the dynamic
 * parsers (`languages.ts`, {@link parserFiles}) registered with it once per process.
 * Loading this module loads @ast-grep/napi.
 *
 * @module
 */
import { Lang, registerDynamicLanguage } from "@ast-grep/napi";
import { type LangPackage, parserFiles, type ParserName } from "./languages.ts";

/** Napi's enum value or dynamic-language name for a parser. */
export function napiLang(parser: ParserName): Lang | string {
  switch (parser) {
    case "JavaScript":
      return Lang.JavaScript;
    case "TypeScript":
      return Lang.TypeScript;
    case "Tsx":
      return Lang.Tsx;
    case "Html":
      return Lang.Html;
    case "Css":
      return Lang.Css;
    default:
      return parser;
  }
}

let registered: Promise<Readonly<Record<string, Readonly<LangPackage>>>> | undefined;

/**
 * Registers the dynamic parsers once per process. In a compiled binary the
 * parser libraries live in the executable's virtual file system, which the
 * native loader cannot open, so they are first copied to the cache directory.
 */
export async function ensureLanguages(): Promise<void> {
  await parserLibraries();
}

/**
 * The dynamic parsers as registered with napi (library paths on the real file
 * system, extracted from a compiled binary first), by parser name. The batch
 * path hands the same libraries to the ast-grep command line.
 */
export function parserLibraries(): Promise<Readonly<Record<string, Readonly<LangPackage>>>> {
  registered ??= parserFiles().then((registrations) => {
    registerDynamicLanguage(registrations);
    return registrations;
  });
  return registered;
}
