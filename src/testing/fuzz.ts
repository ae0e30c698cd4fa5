import fc from 'fast-check';

/** A JSON Schema node, as z.toJSONSchema writes them (only what the generator reads). */
export type TJsonSchema = {
  type?: string | string[];
  properties?: Record<string, TJsonSchema>;
  required?: string[];
  items?: TJsonSchema;
  anyOf?: TJsonSchema[];
  oneOf?: TJsonSchema[];
  allOf?: TJsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
};

const HOSTILE_CHARACTERS = [
  '\uD800', // a lone high surrogate
  '\uDFFF', // a lone low surrogate
  '\u202E', // right-to-left override
  '\u2066', // left-to-right isolate
  '\u200B', // zero-width space
  '\uFEFF', // byte order mark
  '\u0000', // NUL, which PostgreSQL cannot store
  '\u0007',
  '\r\n',
  'e\u0301', // a combining accent
  '\u{1F6A2}', // a ship, outside the basic plane
  '%00',
  "'; drop table users; --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '${7*7}',
];

/** Text built from hostile pieces and ordinary letters. */
export const hostileText = fc
  .array(fc.oneof(fc.constantFrom(...HOSTILE_CHARACTERS), fc.string({ maxLength: 6 })), { maxLength: 8 })
  .map((parts) => parts.join(''));

const deepArray = (depth: number): unknown => {
  let value: unknown = [];
  for (let i = 0; i < depth; i += 1) value = [value];
  return value;
};
const deepObject = (depth: number): unknown => {
  let value: unknown = {};
  for (let i = 0; i < depth; i += 1) value = { a: value };
  return value;
};

/** Values no field expects: wrong types, extremes, huge texts and lists, deep nesting, prototype keys. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, -0, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, '', ' ', 'null', 'NaN', '0x10', '1e999', [], {}),
  hostileText,
  fc.integer({ min: 1_000, max: 120_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 1_000, max: 10_000 }).map((n) => Array.from({ length: n }, (_, i) => i)),
  fc.integer({ min: 100, max: 2_000 }).map((n) => Array.from({ length: n }, () => ({ a: 'b' }))),
  fc.integer({ min: 50, max: 600 }).map(deepArray),
  fc.integer({ min: 50, max: 600 }).map(deepObject),
  fc.constantFrom(
    JSON.parse('{"__proto__": {"role": "admin", "isAdmin": true}}') as unknown,
    JSON.parse('{"constructor": {"prototype": {"role": "admin"}}}') as unknown,
    JSON.parse('{"__proto__": null}') as unknown,
    { toString: 'x', valueOf: 1, hasOwnProperty: 'y' },
  ),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Values shaped by a JSON Schema (mostly valid), to be mutated into near misses. */
export function fromSchema(schema: TJsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.jsonValue({ maxDepth: 2 });
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((option) => fromSchema(option, depth + 1)));
  if (schema.allOf?.length) return fromSchema(schema.allOf[0], depth + 1);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const properties = schema.properties ?? {};
      const keys = Object.keys(properties);
      if (keys.length === 0) return fc.constant({});
      const shape = Object.fromEntries(keys.map((key) => [key, fromSchema(properties[key], depth + 1)]));
      return fc.record(shape, { requiredKeys: (schema.required ?? []).filter((key) => keys.includes(key)) });
    }
    case 'array':
      return fc.array(fromSchema(schema.items, depth + 1), { maxLength: Math.min(schema.maxItems ?? 4, 4) });
    case 'string':
      if (schema.format === 'email') return fc.emailAddress();
      if (schema.format === 'uuid') return fc.uuid({ version: 4 });
      if (schema.format === 'date') return fc.date({ min: new Date('1950-01-01'), max: new Date('2060-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      return fc.string({ minLength: Math.min(schema.minLength ?? 0, 20), maxLength: Math.min(schema.maxLength ?? 40, 40) });
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? -1000, -1e6), max: Math.min(schema.maximum ?? 1000, 1e6) });
    case 'number':
      return fc.double({ min: Math.max(schema.minimum ?? -1000, -1e6), max: Math.min(schema.maximum ?? 1000, 1e6), noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Text for a URL: lone surrogates become U+FFFD (they cannot be percent-encoded), the rest encoded. */
export const urlText = (text: string) =>
  encodeURIComponent(text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));

/** Percent sequences that do not decode: a stray %, a bad hex pair, an encoded lone surrogate, NUL. */
export const brokenPercent = fc.constantFrom('%', '%zz', '%ED%A0%80', '%C0%AF', '%00', '%E2%80%AE', '%%41');

/** Every path to a value inside a JSON value (the root included). */
function pathsOf(value: unknown, path: Array<string | number> = [], out: Array<Array<string | number>> = []) {
  out.push(path);
  if (path.length > 8) return out;
  if (Array.isArray(value)) value.forEach((item, index) => pathsOf(item, [...path, index], out));
  else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) pathsOf(item, [...path, key], out);
  return out;
}

/** A copy of `value` with the thing at `path` replaced (or a key added beside it). */
function replaceAt(value: unknown, path: Array<string | number>, replacement: unknown, addKey?: string): unknown {
  if (path.length === 0) {
    if (addKey !== undefined && value && typeof value === 'object' && !Array.isArray(value)) {
      const copy = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
      Object.defineProperty(copy, addKey, { value: replacement, enumerable: true, configurable: true, writable: true });
      return copy;
    }
    return replacement;
  }
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, index) => (index === head ? replaceAt(item, rest, replacement, addKey) : item));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    Object.defineProperty(copy, key, { value: key === head ? replaceAt(item, rest, replacement, addKey) : item, enumerable: true, configurable: true, writable: true });
  }
  return copy;
}

/** A mutation of a value: something replaced by a hostile value, a field dropped, or a key added. */
export const mutation = fc.record({
  pick: fc.nat(),
  kind: fc.constantFrom('replace', 'replace', 'replace', 'drop', 'add'),
  value: hostileValue,
  key: fc.constantFrom('__proto__', 'constructor', 'prototype', 'role', 'isAdmin', 'approved', 'id', '_id', '', 'x'.repeat(300), '\u202Eevil'),
});
export type TMutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

export function mutate(value: unknown, change: TMutation): unknown {
  const paths = pathsOf(value);
  const path = paths[change.pick % paths.length]!;
  if (change.kind === 'add') {
    const objectPaths = paths.filter((p) => {
      const at = p.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], value);
      return at !== null && typeof at === 'object' && !Array.isArray(at);
    });
    if (objectPaths.length > 0) return replaceAt(value, objectPaths[change.pick % objectPaths.length]!, change.value, change.key);
  }
  if (change.kind === 'drop' && path.length > 0) {
    const parentPath = path.slice(0, -1);
    const parent = parentPath.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], value);
    const last = path[path.length - 1]!;
    const without = Array.isArray(parent)
      ? parent.filter((_, index) => index !== last)
      : Object.fromEntries(Object.entries(parent as Record<string, unknown>).filter(([key]) => key !== last));
    return replaceAt(value, parentPath, without);
  }
  return replaceAt(value, path, change.value);
}

/** JSON text that does not parse, or parses into something odd. */
export const malformedJson = fc.oneof(
  fc.constantFrom('{', '{"a":', '[1,2', '{"a":1,}', "{'a':1}", 'undefined', 'NaN', '{"a":01}', '\u0000', '{"a":"\\ud800"}', '{"a":"\\u0000"}', '"just text"', '123', 'true', 'null', '[]', '{}{}', '\uFEFF{}'),
  fc.string({ maxLength: 50 }),
  fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value)?.slice(0, -1) ?? ''),
);
