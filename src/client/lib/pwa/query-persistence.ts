import { dehydrate, hydrate, type DehydratedState, type QueryClient } from '@tanstack/react-query';
import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import { serverAnswered } from '@/lib/api-errors.ts';
import { PERSISTED_MAX_AGE_MS, isPersistedQuery } from '@/lib/pwa/persisted-queries.ts';
import { readStoredUser } from '@/lib/session/session-store.ts';

/*
 * The learner's last data kept on the device (IndexedDB), one record per user, so the app shows
 * it with no network (decision 050). React Query's own dehydrate and hydrate do the work; this file
 * only says when, under which key, and guards the user. (TanStack's persist-client packages pin an
 * older query-core than ours, which would put a second copy of it in the bundle.) Loaded only once
 * someone is signed in (app/providers.tsx).
 */

/** Bump when what a kept answer looks like changes in a way the screens cannot read. */
const FORMAT_VERSION = 1;
/**
 * Changes come in bursts (a screen's queries answer together, in one batched request): one write
 * for each burst. Short, and flushed when the page is hidden, so a page left at once still keeps
 * what it last fetched.
 */
const WRITE_DELAY_MS = 200;

export type TPersistStorage = {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  del(key: string): Promise<void>;
};

type TPersisted = { version: number; savedAt: number; state: DehydratedState };

let database: UseStore | undefined;

/** The browser's IndexedDB, in a database of its own. */
function indexedDbStorage(): TPersistStorage {
  database ??= createStore('academy-offline-data', 'query-cache');
  const store = database;
  return { get: (key) => get(key, store), set: (key, value) => set(key, value, store), del: (key) => del(key, store) };
}

export const persistedKey = (userId: string) => `queries:${userId}`;

function isPersisted(value: unknown): value is TPersisted {
  return typeof value === 'object' && value !== null && 'version' in value && value.version === FORMAT_VERSION && 'state' in value;
}

export type TPersistOptions = {
  storage?: TPersistStorage;
  /** Whether `userId` is still the signed-in user: nothing is written for anyone else. */
  isSignedIn?: () => boolean;
  now?: () => number;
};

/**
 * Restores `userId`'s kept answers into `client` (an answer already there and newer stays), then
 * keeps them as they change. Writes only while `userId` is the signed-in user, so a write due
 * after logout cannot bring the removed record back. Returns the function that stops it.
 */
export function persistQueries(client: QueryClient, userId: string, options: TPersistOptions = {}): () => void {
  const storage = options.storage ?? indexedDbStorage();
  const isSignedIn = options.isSignedIn ?? (() => readStoredUser()?._id === userId);
  const now = options.now ?? Date.now;
  const key = persistedKey(userId);
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unsubscribe = () => {};
  /** Kept answers of queries that were already asking the server when the record was read. */
  const held = new Map<string, DehydratedState['queries'][number]>();

  async function write() {
    timer = undefined;
    if (stopped || !isSignedIn()) return;
    const state = dehydrate(client, {
      shouldDehydrateQuery: (query) => query.state.status === 'success' && isPersistedQuery(query.queryKey),
      shouldDehydrateMutation: () => false,
    });
    // Kept answers still waiting for the server's stay kept until it answers.
    const written = new Set(state.queries.map((query) => query.queryHash));
    for (const [hash, query] of held) if (!written.has(hash)) state.queries.push(query);
    const record: TPersisted = { version: FORMAT_VERSION, savedAt: now(), state };
    await storage.set(key, record).catch(() => undefined);
  }
  function schedule() {
    if (!stopped && timer === undefined) timer = setTimeout(() => void write(), WRITE_DELAY_MS);
  }
  function flush() {
    if (timer === undefined || document.visibilityState !== 'hidden') return;
    clearTimeout(timer);
    void write();
  }
  document.addEventListener('visibilitychange', flush);

  void (async () => {
    const saved = await storage.get(key).catch(() => undefined);
    if (stopped) return;
    if (isPersisted(saved)) {
      const fresh = saved.state.queries.filter((query) => now() - query.state.dataUpdatedAt <= PERSISTED_MAX_AGE_MS);
      const cache = client.getQueryCache();
      // A query already asking the server keeps waiting for its answer, as it would without a kept
      // copy (a screen that wants the server's word, such as where the player resumes, gets it);
      // its kept answer is shown only if no answer comes.
      for (const query of fresh) {
        if (cache.get(query.queryHash)?.state.fetchStatus === 'fetching') held.set(query.queryHash, query);
      }
      hydrate(client, { mutations: [], queries: fresh.filter((query) => !held.has(query.queryHash)) });
    } else if (saved !== undefined) {
      await storage.del(key).catch(() => undefined);
    }
    if (stopped) return;
    // Only after the restore: a write before it would replace the record with part of it.
    unsubscribe = client.getQueryCache().subscribe((event) => {
      if (!isPersistedQuery(event.query.queryKey)) return;
      const kept = held.get(event.query.queryHash);
      if (kept && event.type === 'updated' && (event.action.type === 'success' || event.action.type === 'error')) {
        held.delete(event.query.queryHash);
        // No answer at all, and nothing to show: the kept answer, as when offline.
        if (event.action.type === 'error' && event.query.state.data === undefined && !serverAnswered(event.action.error)) {
          hydrate(client, { mutations: [], queries: [kept] });
        }
      }
      if (event.type === 'removed' || (event.type === 'updated' && event.action.type === 'success')) schedule();
    });
    schedule();
  })();

  return () => {
    stopped = true;
    document.removeEventListener('visibilitychange', flush);
    unsubscribe();
    if (timer !== undefined) clearTimeout(timer);
  };
}

/** Removes what the device kept of `userId`'s data (at logout). */
export async function forgetPersistedQueries(userId: string, storage: TPersistStorage = indexedDbStorage()): Promise<void> {
  await storage.del(persistedKey(userId)).catch(() => undefined);
}
