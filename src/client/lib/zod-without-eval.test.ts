import { describe, expect, it } from 'vitest';

describe('zod without eval', () => {
  it('zod reads the setting made before it loads: no parser is compiled with new Function', async () => {
    await import('@/lib/zod-without-eval.ts');
    const { z } = await import('zod');
    expect(z.config().jitless).toBe(true);

    const compiled: string[] = [];
    const original = globalThis.Function;
    globalThis.Function = new Proxy(original, {
      construct(target, args: string[]) {
        compiled.push(args.join(','));
        return Reflect.construct(target, args) as object;
      },
    });
    try {
      const schema = z.object({ email: z.email(), age: z.number().int() });
      expect(schema.parse({ email: 'mate@ship.example', age: 30 })).toEqual({ email: 'mate@ship.example', age: 30 });
    } finally {
      globalThis.Function = original;
    }
    expect(compiled).toEqual([]);
  });
});
