import { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';

/**
 * Access this process granted a moment ago, so that the calls that repeat it cost no query after
 * the first: the Range requests of a playing part (decision 055) and the session check of every
 * authenticated call (decision 060). Only grants are kept, never refusals, each at most its TTL and
 * never past the session's end. Whatever can take access away revokes at once through `revoke`
 * after its change commits: here, and, on Redis, in every other process through a pub/sub
 * channel. A grant looked up from the database while a revocation came in is not kept (it may
 * have read the state from before it). While this process's subscription to the channel is down,
 * nothing is served from memory, and everything kept is dropped when it comes back: a revocation
 * it missed cannot leave a viewer playing or a signed-out session calling.
 */

/** What a grant is about: who, in which session, which course's training (none for a session check). */
export type TGrantTags = { userId: string; sessionId: string; setId?: string };
/** What a grant allows: a stream's Range requests, or a session's calls. Each kind has its own TTL. */
export type TGrantKind = 'stream' | 'session';
/** Which grants a change ends. `all` is for the rare change that touches everyone. */
export type TGrantScope = { userId: string } | { sessionId: string } | { setId: string } | 'all';

export type AccessGrants = {
  /** `shared`: revocations reach every process; `local`: one process; `bypassed`: nothing served from memory now. */
  readonly state: 'local' | 'shared' | 'bypassed' | 'off';
  /**
   * The grant kept under `key`, or `load`'s. `load` throws to refuse (never kept); it answers the
   * grant with its tags and, when it ends sooner than the TTL, when it ends (ms since the epoch).
   * `kind` names the TTL it is kept for.
   */
  remember<T>(key: string, load: () => Promise<{ grant: T; tags: TGrantTags; endsAt?: number }>, kind?: TGrantKind): Promise<T>;
  /** Ends the grants of the scope here and, on Redis, in every process; resolves once sent. */
  revoke(scope: TGrantScope): Promise<void>;
  /** How many grants are kept (for the bench and the tests). */
  size(): number;
  close(): Promise<void>;
};

const SCOPE_FIELDS = new Set(['userId', 'sessionId', 'setId']);

function parseScope(text: string): TGrantScope | undefined {
  try {
    const message = JSON.parse(text) as { scope?: unknown };
    if (message.scope === 'all') return 'all';
    if (typeof message.scope !== 'object' || message.scope === null) return undefined;
    const fields = Object.entries(message.scope);
    if (fields.length !== 1 || !SCOPE_FIELDS.has(fields[0]![0]) || typeof fields[0]![1] !== 'string') return undefined;
    return Object.fromEntries(fields) as TGrantScope;
  } catch {
    return undefined;
  }
}

export function createAccessGrants(options: {
  /** How long a grant is kept, by kind (one figure for both); 0 keeps none (every request asks the database). */
  ttlMs: number | Record<TGrantKind, number>;
  maxEntries?: number;
  logger: Logger;
  /** Every API process on this Redis hears the others' revocations. */
  redisUrl?: string | undefined;
  prefix?: string;
  now?: () => number;
}): AccessGrants {
  const now = options.now ?? Date.now;
  const ttlOf: Record<TGrantKind, number> = typeof options.ttlMs === 'number' ? { stream: options.ttlMs, session: options.ttlMs } : options.ttlMs;
  // The least recently used grant goes first when full; each grant lives its own TTL.
  const cache = new LRUCache<string, { grant: unknown; tags: TGrantTags }>({ max: options.maxEntries ?? 50_000, ttlResolution: 0, perf: { now } });
  // Bumped by every revocation and every clearing: a load that saw it change is not kept.
  let epoch = 0;
  function evict(scope: TGrantScope) {
    epoch += 1;
    if (scope === 'all') return cache.clear();
    const [field, value] = Object.entries(scope)[0] as [keyof TGrantTags, string];
    for (const [key, entry] of cache.entries()) if (entry.tags[field] === value) cache.delete(key);
  }
  const { logger } = options;
  const enabled = ttlOf.stream > 0 || ttlOf.session > 0;
  const channel = `${options.prefix ?? 'portal'}:access-grants:revoked`;

  // Two connections: one in subscriber mode cannot publish.
  const publisher = enabled && options.redisUrl ? new Redis(options.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 1000, commandTimeout: 1000 }) : undefined;
  const subscriber = enabled && options.redisUrl ? new Redis(options.redisUrl, { connectTimeout: 1000, maxRetriesPerRequest: null }) : undefined;
  let listening = false;
  if (publisher) publisher.on('error', () => {});
  if (subscriber) {
    subscriber.on('error', () => {});
    subscriber.on('message', (from: string, text: string) => {
      if (from !== channel) return;
      const scope = parseScope(text);
      if (scope) evict(scope);
    });
    // On every (re)connection: what was kept may have missed a revocation while the link was down.
    subscriber.on('ready', () => {
      subscriber
        .subscribe(channel)
        .then(() => {
          evict('all');
          listening = true;
          logger.info('access grants: listening for revocations from every process');
        })
        .catch((err: unknown) => logger.warn({ err }, 'access grants: could not subscribe to revocations; every stream request and session check asks the database'));
    });
    subscriber.on('close', () => {
      if (listening) logger.warn('access grants: the revocation channel is down; every stream request and session check asks the database until it is back');
      listening = false;
      evict('all');
    });
  }

  const usable = () => enabled && (!subscriber || listening);

  return {
    get state() {
      if (!enabled) return 'off';
      if (!subscriber) return 'local';
      return listening ? 'shared' : 'bypassed';
    },
    async remember(key, load, kind = 'stream') {
      const ttlMs = ttlOf[kind];
      const keeps = usable() && ttlMs > 0;
      const kept = keeps ? cache.get(key) : undefined;
      if (kept) return kept.grant as never;
      const since = epoch;
      const { grant, tags, endsAt } = await load();
      // lru-cache still answers an entry as old as its TTL; a grant ends at that millisecond.
      const ttl = Math.min(ttlMs, (endsAt ?? Number.POSITIVE_INFINITY) - now()) - 1;
      if (keeps && usable() && since === epoch && ttl > 0) cache.set(key, { grant, tags }, { ttl });
      return grant;
    },
    async revoke(scope) {
      evict(scope);
      if (!publisher) return;
      try {
        await publisher.publish(channel, JSON.stringify({ scope }));
      } catch (err) {
        // The other processes keep what they hold until their TTL or their own reconnection.
        logger.error({ err, scope }, 'access grants: a revocation was not sent to the other processes');
      }
    },
    size: () => cache.size,
    async close() {
      listening = false;
      evict('all');
      await Promise.all([publisher?.quit().catch(() => {}), subscriber?.quit().catch(() => {})]);
    },
  };
}
