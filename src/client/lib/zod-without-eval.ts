import { z } from 'zod';

/**
 * zod probes for `new Function` the first time a schema is built, to compile fast parsers. Our
 * Content Security Policy forbids eval, so the probe only fills the console with a violation
 * report. This module is imported first, before any schema exists, and turns the probe off.
 */
z.config({ jitless: true });
