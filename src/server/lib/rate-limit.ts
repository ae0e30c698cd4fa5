import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from './errors.ts';

/** Hits in the current window (this one included) and the milliseconds until it starts again from zero. */
export type TRateLimitHit = { count: number; resetInMs: number };
export type TRateLimitRule = { limit: number; windowMs: number };

/**
 * Fixed-window counters (rate-limiter-flexible) for throttling. The count is taken before the
 * guarded work is done, so fifty requests arriving together cannot all slip under the limit.
 */
export type RateLimitStore = {
  kind: 'redis' | 'memory';
  hit(key: string, windowMs: number): Promise<TRateLimitHit>;
  /** The current window's count without adding to it (0 when there is none). */
  peek(key: string): Promise<TRateLimitHit>;
  /** Takes `count` hits back from the current window (never below zero), its end unchanged. */
  takeBack(key: string, count: number): Promise<void>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
};

/** Counts a hit and says whether it went over the rule's limit. */
export async function consume(store: RateLimitStore, key: string, rule: TRateLimitRule) {
  const { count, resetInMs } = await store.hit(key, rule.windowMs);
  return { allowed: count <= rule.limit, retryAfterSeconds: Math.max(1, Math.ceil(resetInMs / 1000)) };
}

/**
 * Counts one hit on each limit in turn and refuses with 429 at the first one over its limit, with
 * the caller's message for the minutes left (and Retry-After). The one throttle every form uses.
 */
export async function throttle(
  deps: { rateLimit: RateLimitStore; logger: Logger },
  limits: ReadonlyArray<readonly [key: string, rule: TRateLimitRule]>,
  tooMany: (minutes: number) => string,
): Promise<void> {
  for (const [key, rule] of limits) {
    const gate = await consume(deps.rateLimit, key, rule);
    if (gate.allowed) continue;
    deps.logger.warn({ key }, 'throttled');
    throw new AppError('TOO_MANY_REQUESTS', tooMany(Math.ceil(gate.retryAfterSeconds / 60)), { retryAfterSeconds: gate.retryAfterSeconds });
  }
}

/**
 * The library's limiter used as a plain counter, each hit with its rule's window: the rules' limits
 * are compared by `consume`, so call sites can also read a count and take hits back.
 */
function counters(kind: RateLimitStore['kind'], limiter: RateLimiterAbstract, close: () => void): RateLimitStore {
  const peek = async (key: string) => {
    const now = await limiter.get(key);
    return now && now.msBeforeNext > 0 ? { count: Math.max(0, now.consumedPoints), resetInMs: now.msBeforeNext } : { count: 0, resetInMs: 0 };
  };
  return {
    kind,
    hit: async (key, windowMs) => {
      const res = await limiter.consume(key, 1, { customDuration: windowMs / 1000 });
      return { count: res.consumedPoints, resetInMs: res.msBeforeNext };
    },
    peek,
    async takeBack(key, count) {
      const { count: now } = await peek(key);
      if (now > 0) await limiter.reward(key, Math.min(now, count));
    },
    reset: async (key) => void (await limiter.delete(key)),
    close: async () => close(),
  };
}

// Never over: a counter is refused by the rule comparing it, not by the library.
const COUNTER = { points: Number.MAX_SAFE_INTEGER, duration: 60 };

export function createMemoryRateLimitStore(): RateLimitStore {
  return counters('memory', new RateLimiterMemory(COUNTER), () => {});
}

/** How long a throttle check may wait for Redis before it counts in this process instead. */
export const REDIS_LIMIT_TIMEOUT_MS = 150;

/**
 * Counters shared by every API process. When Redis is down or slow, each check falls back to this
 * process's own counters within REDIS_LIMIT_TIMEOUT_MS (limits still hold, per process), and the
 * log says so once when that starts and once when Redis answers again.
 */
export function createRedisRateLimitStore(redisUrl: string, logger: Logger, prefix = 'portal'): RateLimitStore {
  // Without a connection a command fails at once instead of waiting in a queue.
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: REDIS_LIMIT_TIMEOUT_MS, connectTimeout: 1000 });
  // Reported through `degraded` below, once, rather than at every reconnection attempt.
  redis.on('error', () => {});
  const shared = counters('redis', new RateLimiterRedis({ ...COUNTER, storeClient: redis, keyPrefix: `${prefix}:rl` }), () => redis.disconnect());
  const local = createMemoryRateLimitStore();
  let degraded = false;

  function either<A extends unknown[], T>(call: (store: RateLimitStore) => (key: string, ...rest: A) => Promise<T>) {
    return async (key: string, ...rest: A): Promise<T> => {
      if (redis.status !== 'ready') {
        if (!degraded) logger.warn({ key, status: redis.status }, 'Redis is not connected: rate limits are counted in this process until it is');
        degraded = true;
        return call(local)(key, ...rest);
      }
      try {
        const result = await call(shared)(key, ...rest);
        if (degraded) logger.info('rate limits are counted in Redis again');
        degraded = false;
        return result;
      } catch (err) {
        if (!degraded) logger.warn({ err, key }, 'Redis did not answer a rate-limit check: counting in this process until it does');
        degraded = true;
        return call(local)(key, ...rest);
      }
    };
  }

  return {
    kind: 'redis',
    hit: either((store) => store.hit),
    peek: either((store) => store.peek),
    takeBack: either((store) => store.takeBack),
    reset: either((store) => async (key) => void (await Promise.all([store.reset(key), local.reset(key)]))),
    close: () => Promise.all([local.close(), shared.close()]).then(() => {}),
  };
}
