import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { forgetPersistedQueries, persistQueries, persistedKey, type TPersistStorage } from '@/lib/pwa/query-persistence.ts';
import { PERSISTED_MAX_AGE_MS } from '@/lib/pwa/persisted-queries.ts';

/** A Map standing in for IndexedDB. */
function memoryStorage() {
  const map = new Map<string, unknown>();
  const storage: TPersistStorage = {
    get: async (key) => map.get(key),
    set: async (key, value) => void map.set(key, structuredClone(value)),
    del: async (key) => void map.delete(key),
  };
  return { map, storage };
}

const ME = [['auth', 'me'], { type: 'query' }];
const COURSE_HOME = [['enrolments', 'courseHome'], { input: { courseId: 'c1' }, type: 'query' }];
const ADMIN_LIST = [['users', 'listApproved'], { type: 'query' }];
const PROFILE = [['profiles', 'mine'], { type: 'query' }];

const settle = async () => {
  await vi.advanceTimersByTimeAsync(1_500);
};

describe("the learner's data kept on the device", () => {
  beforeEach(() => vi.useFakeTimers({ now: new Date('2026-11-27T08:00:00Z') }));
  afterEach(() => vi.useRealTimers());

  it("keeps only the learner's screens' answers, under the user's key, and restores them into a new cache", async () => {
    const { map, storage } = memoryStorage();
    const first = new QueryClient();
    const stop = persistQueries(first, 'u1', { storage, isSignedIn: () => true });
    await settle();
    first.setQueryData(ME, { id: 'u1', name: 'Asha' });
    first.setQueryData(COURSE_HOME, { title: 'Fire fighting' });
    first.setQueryData(ADMIN_LIST, ['secret']);
    first.setQueryData(PROFILE, { passportUrl: '/api/files/documents/x?signature=y' });
    await settle();
    stop();
    expect([...map.keys()]).toEqual([persistedKey('u1')]);

    const second = new QueryClient();
    persistQueries(second, 'u1', { storage, isSignedIn: () => true });
    await settle();
    expect(second.getQueryData(ME)).toEqual({ id: 'u1', name: 'Asha' });
    expect(second.getQueryData(COURSE_HOME)).toEqual({ title: 'Fire fighting' });
    expect(second.getQueryData(ADMIN_LIST)).toBeUndefined();
    expect(second.getQueryData(PROFILE)).toBeUndefined();
    // When the kept data was fetched, for the offline line.
    expect(second.getQueryState(ME)?.dataUpdatedAt).toBe(new Date('2026-11-27T08:00:01.500Z').getTime());

    const someoneElse = new QueryClient();
    persistQueries(someoneElse, 'u2', { storage, isSignedIn: () => true });
    await settle();
    expect(someoneElse.getQueryData(ME)).toBeUndefined();
  });

  it('writes nothing once the user is no longer signed in, so logout removes the record for good', async () => {
    const { map, storage } = memoryStorage();
    let signedIn = true;
    const client = new QueryClient();
    persistQueries(client, 'u1', { storage, isSignedIn: () => signedIn });
    await settle();
    client.setQueryData(ME, { id: 'u1' });
    // Logged out before the write was due.
    signedIn = false;
    await forgetPersistedQueries('u1', storage);
    await settle();
    expect(map.size).toBe(0);
  });

  it('drops answers older than the kept age, and a record of another format', async () => {
    const { map, storage } = memoryStorage();
    const client = new QueryClient();
    persistQueries(client, 'u1', { storage, isSignedIn: () => true });
    await settle();
    client.setQueryData(ME, { id: 'u1' });
    await settle();

    const later = new QueryClient();
    persistQueries(later, 'u1', { storage, isSignedIn: () => true, now: () => Date.now() + PERSISTED_MAX_AGE_MS + 60_000 });
    await settle();
    expect(later.getQueryData(ME)).toBeUndefined();

    map.set(persistedKey('u3'), { version: 0, state: { queries: [], mutations: [] } });
    persistQueries(new QueryClient(), 'u3', { storage, isSignedIn: () => false });
    await settle();
    expect(map.has(persistedKey('u3'))).toBe(false);
  });

  it('a newer answer already in the cache is not replaced by the kept one', async () => {
    const { storage } = memoryStorage();
    const client = new QueryClient();
    persistQueries(client, 'u1', { storage, isSignedIn: () => true });
    await settle();
    client.setQueryData(ME, { name: 'old' });
    await settle();

    const next = new QueryClient();
    await vi.advanceTimersByTimeAsync(10_000);
    next.setQueryData(ME, { name: 'fresh' });
    persistQueries(next, 'u1', { storage, isSignedIn: () => true });
    await settle();
    expect(next.getQueryData(ME)).toEqual({ name: 'fresh' });
  });

  it('a query already asking the server waits for its answer; it gets the kept one only if none comes', async () => {
    const { storage } = memoryStorage();
    const before = new QueryClient();
    persistQueries(before, 'u1', { storage, isSignedIn: () => true });
    await settle();
    before.setQueryData(ME, { name: 'kept' });
    before.setQueryData(COURSE_HOME, { title: 'kept' });
    await settle();

    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let answer!: (value: unknown) => void;
    const asking = client.fetchQuery({ queryKey: ME, queryFn: () => new Promise((resolve) => (answer = resolve)) });
    let fail!: (error: Error) => void;
    const failing = client.fetchQuery({ queryKey: COURSE_HOME, queryFn: () => new Promise((_resolve, reject) => (fail = reject)) }).catch(() => undefined);
    persistQueries(client, 'u1', { storage, isSignedIn: () => true });
    await settle();
    expect(client.getQueryData(ME)).toBeUndefined();
    expect(client.getQueryData(COURSE_HOME)).toBeUndefined();

    answer({ name: 'fresh' });
    await asking;
    expect(client.getQueryData(ME)).toEqual({ name: 'fresh' });
    // No answer at all (a network failure): the kept one.
    fail(new TypeError('Failed to fetch'));
    await failing;
    expect(client.getQueryData(COURSE_HOME)).toEqual({ title: 'kept' });
  });
});
