import Fastify, { type FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger, redactUrl } from './logger.ts';

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
  it('never holds a signed link with its signature', async () => {
    const lines: string[] = [];
    const logger = createLogger('info', 'portal', { write: (line: string) => void lines.push(line) });
    const app = Fastify({ loggerInstance: logger as FastifyBaseLogger });
    app.get('/api/files/:area/:name', async () => 'file');
    await app.inject('/api/files/id_documents/abc.pdf?expires=1800000000&signature=s3cr3tsignature');
    await app.close();
    const log = lines.join('');
    expect(log).toContain('/api/files/id_documents/abc.pdf?[redacted]');
    expect(log).not.toContain('s3cr3tsignature');
    expect(log).not.toContain('expires=1800000000');
  });
});
