import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';
import { createAccessGrants, type TGrantTags } from './access-grants.ts';

const logger = createLogger('silent');
const tags = (userId: string, sessionId = `${userId}-session`, setId = 'set-1'): TGrantTags => ({ userId, sessionId, setId });

function clock(start = 1_000_000) {
  let at = start;
  return { now: () => at, advance: (ms: number) => void (at += ms) };
}

/** A load that counts its calls and grants `value`. */
function loader(value: string, grantTags: TGrantTags, endsAt?: number) {
  const calls = { count: 0 };
  const load = async () => {
    calls.count += 1;
    return { grant: value, tags: grantTags, ...(endsAt === undefined ? {} : { endsAt }) };
  };
  return { calls, load };
}

describe('access grants', () => {
  it('keep a grant for the TTL, then ask again', async () => {
    const time = clock();
    const grants = createAccessGrants({ ttlMs: 60_000, logger, now: time.now });
    const { calls, load } = loader('part', tags('a'));
    for (let i = 0; i < 10; i += 1) expect(await grants.remember('k', load)).toBe('part');
    expect(calls.count).toBe(1);
    time.advance(59_999);
    await grants.remember('k', load);
    expect(calls.count).toBe(1);
    time.advance(1);
    await grants.remember('k', load);
    expect(calls.count).toBe(2);
  });

  it('never keep a refusal', async () => {
    const grants = createAccessGrants({ ttlMs: 60_000, logger });
    let calls = 0;
    const refuse = async (): Promise<never> => {
      calls += 1;
      throw new Error('locked');
    };
    await expect(grants.remember('k', refuse)).rejects.toThrow('locked');
    await expect(grants.remember('k', refuse)).rejects.toThrow('locked');
    expect(calls).toBe(2);
    expect(grants.size()).toBe(0);
  });

  it('keep a grant no longer than its session lasts', async () => {
    const time = clock();
    const grants = createAccessGrants({ ttlMs: 60_000, logger, now: time.now });
    const { calls, load } = loader('part', tags('a'), time.now() + 5_000);
    await grants.remember('k', load);
    time.advance(5_000);
    await grants.remember('k', load);
    expect(calls.count).toBe(2);
  });

  it('end the grants of a learner, a session or a training, and only those', async () => {
    const grants = createAccessGrants({ ttlMs: 60_000, logger });
    const a = loader('a', tags('a', 's-a', 'set-1'));
    const b = loader('b', tags('b', 's-b', 'set-2'));
    const again = async () => {
      await grants.remember('a', a.load);
      await grants.remember('b', b.load);
    };
    await again();
    await grants.revoke({ userId: 'a' });
    await again();
    expect([a.calls.count, b.calls.count]).toEqual([2, 1]);
    await grants.revoke({ sessionId: 's-b' });
    await again();
    expect([a.calls.count, b.calls.count]).toEqual([2, 2]);
    await grants.revoke({ setId: 'set-1' });
    await again();
    expect([a.calls.count, b.calls.count]).toEqual([3, 2]);
    await grants.revoke('all');
    await again();
    expect([a.calls.count, b.calls.count]).toEqual([4, 3]);
  });

  it('do not keep a grant read while a revocation came in (it may be from before the change)', async () => {
    const grants = createAccessGrants({ ttlMs: 60_000, logger });
    let calls = 0;
    const slow = async () => {
      calls += 1;
      // The revocation lands between the database's answer and the grant being kept.
      await grants.revoke({ userId: 'a' });
      return { grant: 'stale', tags: tags('a') };
    };
    expect(await grants.remember('k', slow)).toBe('stale');
    expect(grants.size()).toBe(0);
    await grants.remember('k', slow);
    expect(calls).toBe(2);
  });

  it('hold at most maxEntries, the least recently used going first', async () => {
    const grants = createAccessGrants({ ttlMs: 60_000, logger, maxEntries: 3 });
    const loads = ['1', '2', '3', '4'].map((key) => loader(key, tags(key)));
    for (const [index, { load }] of loads.entries()) await grants.remember(String(index), load);
    expect(grants.size()).toBe(3);
    await grants.remember('0', loads[0]!.load);
    expect(loads[0]!.calls.count).toBe(2);
    await grants.remember('3', loads[3]!.load);
    expect(loads[3]!.calls.count).toBe(1);
  });

  it('keep each kind for its own TTL: a session check 30 s, a stream a minute, none when its TTL is 0', async () => {
    const time = clock();
    const grants = createAccessGrants({ ttlMs: { stream: 60_000, session: 30_000 }, logger, now: time.now });
    const stream = loader('part', tags('a'));
    const session = loader('caller', { userId: 'a', sessionId: 'a-session' });
    await grants.remember('stream', stream.load, 'stream');
    await grants.remember('session', session.load, 'session');
    time.advance(30_000);
    await grants.remember('stream', stream.load, 'stream');
    await grants.remember('session', session.load, 'session');
    expect([stream.calls.count, session.calls.count]).toEqual([1, 2]);
    // A session's revocation ends its stream grants too.
    await grants.revoke({ sessionId: 'a-session' });
    await grants.remember('stream', stream.load, 'stream');
    await grants.remember('session', session.load, 'session');
    expect([stream.calls.count, session.calls.count]).toEqual([2, 3]);

    const sessionsOff = createAccessGrants({ ttlMs: { stream: 60_000, session: 0 }, logger });
    const off = loader('caller', { userId: 'a', sessionId: 'a-session' });
    await sessionsOff.remember('session', off.load, 'session');
    await sessionsOff.remember('session', off.load, 'session');
    expect(off.calls.count).toBe(2);
    expect(sessionsOff.size()).toBe(0);
  });

  it('keep nothing with a TTL of 0', async () => {
    const grants = createAccessGrants({ ttlMs: 0, logger });
    const { calls, load } = loader('part', tags('a'));
    await grants.remember('k', load);
    await grants.remember('k', load);
    expect(calls.count).toBe(2);
    expect(grants.state).toBe('off');
  });
});
