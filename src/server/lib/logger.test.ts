import Fastify, { type FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger, redactUrl, requestLogOptions } from './logger.ts';

describe('redactUrl', () => {
  it('drops the whole query of a file link and the value of any signature elsewhere', () => {
    expect(redactUrl('/api/files/id_documents/abc.pdf?expires=1800000000&signature=s3cr3t')).toBe('/api/files/id_documents/abc.pdf?[redacted]');
    expect(redactUrl('/files/x.png?expires=1&signature=s3cr3t')).toBe('/files/x.png?[redacted]');
    expect(redactUrl('/api/thing?a=1&sig=s3cr3t&b=2')).toBe('/api/thing?a=1&sig=[redacted]&b=2');
    expect(redactUrl('/api/trainingVideo/stream/v1/360?viewer=u1&expires=1&signature=s3cr3t')).toBe('/api/trainingVideo/stream/v1/360?viewer=u1&expires=1&signature=[redacted]');
    expect(redactUrl('/reset-password?token=s3cr3t')).toBe('/reset-password?token=[redacted]');
    expect(redactUrl('/api/courses/active')).toBe('/api/courses/active');
    // A certificate's verification code: in the page's address and in the check's input.
    expect(redactUrl('/verify/MTA%2F2026%2F000001?code=s3cr3t')).toBe('/verify/MTA%2F2026%2F000001?code=[redacted]');
    expect(redactUrl('/trpc/certificates.verify?input=%7B%22code%22%3A%22s3cr3t%22%7D')).toBe('/trpc/certificates.verify?[redacted]');
    expect(redactUrl('/trpc/site.config,certificates.verify?batch=1&input=x')).toBe('/trpc/site.config,certificates.verify?[redacted]');
  });
});

describe('the request log', () => {
  async function logOf(url: string, level = 'info') {
    const lines: string[] = [];
    const logger = createLogger(level, 'portal', { write: (line: string) => void lines.push(line) });
    const app = Fastify({ loggerInstance: logger as FastifyBaseLogger, ...requestLogOptions(logger) });
    app.get('/api/files/:area/:name', async () => 'file');
    app.post('/api/notes', async (request) => {
      request.log.debug('below the level');
      request.log.warn({ ship: 'MV Sagar', password: 'hunter2-secret' }, 'a note');
      request.log.info('another note');
      return 'noted';
    });
    await app.inject({ url, method: url === '/api/notes' ? 'POST' : 'GET', remoteAddress: '127.0.0.7' });
    await app.close();
    return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  it('never holds a signed link with its signature', async () => {
    const log = JSON.stringify(await logOf('/api/files/id_documents/abc.pdf?expires=1800000000&signature=s3cr3tsignature'));
    expect(log).toContain('/api/files/id_documents/abc.pdf?[redacted]');
    expect(log).not.toContain('s3cr3tsignature');
    expect(log).not.toContain('expires=1800000000');
  });

  it('writes one line per request, once it is answered, with what an operator looks for', async () => {
    const lines = await logOf('/api/files/photos/a.png');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, msg: 'answered', method: 'GET', url: '/api/files/photos/a.png', status: 200, ip: '127.0.0.7' });
    expect(lines[0]!.reqId).toEqual(expect.any(String));
    expect(lines[0]!.ms).toEqual(expect.any(Number));
    const missing = await logOf('/nowhere');
    expect(missing.filter((line) => line.msg === 'answered')).toMatchObject([{ status: 404, url: '/nowhere' }]);
  });

  it('writes the request as it comes in at debug, with its credentials taken out', async () => {
    const lines = await logOf('/api/files/photos/a.png?expires=1&signature=s3cr3tsignature', 'debug');
    expect(lines.map((line) => line.msg)).toEqual(['incoming request', 'answered']);
    expect(lines[0]).toMatchObject({ level: 20, req: { method: 'GET', url: '/api/files/photos/a.png?[redacted]' } });
    expect(JSON.stringify(lines)).not.toContain('s3cr3tsignature');
  });

  it('writes a request’s own lines at their level, with the request’s id and the redaction', async () => {
    const noted = await logOf('/api/notes');
    expect(noted.map((line) => line.msg)).toEqual(['a note', 'another note', 'answered']);
    expect(noted[0]).toMatchObject({ level: 40, ship: 'MV Sagar', password: '[redacted]', reqId: noted[2]!.reqId });
    expect(noted[1]).toMatchObject({ level: 30, reqId: noted[2]!.reqId });
    expect(JSON.stringify(noted)).not.toContain('hunter2-secret');
  });
});
