/**
 * zod probes for `new Function` the first time a schema is built, to compile fast parsers. Our
 * Content Security Policy forbids eval, so the probe only fills the console with a violation
 * report. This module is imported first, before any schema exists, and turns the probe off.
 *
 * zod keeps its configuration on `globalThis.__zod_globalConfig`, so that every copy of the
 * library shares one; setting it there, rather than through `z.config`, keeps zod itself out of
 * the entry file, which the home page loads and which builds no schema (decision 032).
 * zod-without-eval.test.ts checks that zod reads it.
 */
type TZodGlobal = typeof globalThis & { __zod_globalConfig?: { jitless?: boolean } };

const zodGlobal = globalThis as TZodGlobal;
zodGlobal.__zod_globalConfig ??= {};
zodGlobal.__zod_globalConfig.jitless = true;

export {};
