import { Readable } from 'node:stream';

/** A whole list: its size, counted first, and its rows a batch at a time. */
export type TWholeList<T> = { total: number; batches: AsyncIterable<T[]> };

/** Rows fetched a batch at a time, so a whole list never sits in memory at once. */
export async function* inBatches<T>(fetch: (limit: number, offset: number) => Promise<T[]>, size = 500): AsyncGenerator<T[]> {
  for (let offset = 0; ; offset += size) {
    const items = await fetch(size, offset);
    if (items.length > 0) yield items;
    if (items.length < size) return;
  }
}

/**
 * True when a list call named a page: the spec's lists are answered whole otherwise. Read from
 * the address as sent, since the route's schema gives every query its defaults.
 */
export function asksForAPage(request: { raw: { url?: string | undefined } }): boolean {
  const query = new URLSearchParams(request.raw.url?.split('?')[1] ?? '');
  return ['page', 'pageSize', 'limit'].some((key) => query.has(key));
}

/**
 * A JSON array written as its batches arrive (`[...]`, or `{"data":[...]}` with `key`), for
 * Fastify to send chunked: 100 000 rows go out without being held at once.
 */
export function jsonListStream<T>(batches: AsyncIterable<T[]>, toJson: (item: T) => unknown, key?: string): Readable {
  // The batches are read as the client takes them, so a slow link holds one batch, not the list.
  async function* chunks() {
    yield key ? `{${JSON.stringify(key)}:[` : '[';
    let first = true;
    for await (const batch of batches) {
      const text = batch.map((item) => JSON.stringify(toJson(item))).join(',');
      yield first ? text : `,${text}`;
      first = false;
    }
    yield key ? ']}' : ']';
  }
  return Readable.from(chunks());
}

/** Sends a whole list streamed, with its size in X-Total-Count as the paged answers give it. */
export function sendWholeList<T>(
  reply: { header(name: string, value: string): unknown; type(type: string): { send(body: Readable): unknown } },
  list: TWholeList<T>,
  toJson: (item: T) => unknown,
  key?: string,
) {
  reply.header('x-total-count', String(list.total));
  return reply.type('application/json').send(jsonListStream(list.batches, toJson, key));
}
