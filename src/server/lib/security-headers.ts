import { createHash } from 'node:crypto';
import { PAGE_HEAD_SCRIPT } from '../../shared/prerender.ts';

/** The one inline script a page may run: the public pages' head script (decisions 026 and 033). */
const PAGE_HEAD_SCRIPT_HASH = `'sha256-${createHash('sha256').update(PAGE_HEAD_SCRIPT).digest('base64')}'`;

/**
 * The security headers every answer carries. They never change while the process runs, so they
 * are built once here instead of per request (helmet rebuilt them on every answer, which cost
 * about half of the API's throughput).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "base-uri 'self'",
  "font-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "img-src 'self' data: blob:",
  "object-src 'none'",
  `script-src 'self' ${PAGE_HEAD_SCRIPT_HASH}`,
  "script-src-attr 'none'",
  // Radix and sonner set inline styles; no inline script is allowed but the public pages' head script.
  "style-src 'self' 'unsafe-inline'",
  "media-src 'self' blob:",
  "connect-src 'self'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'x-dns-prefetch-control': 'off',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
});

/**
 * The headers of the build's hashed files (/assets/: scripts, styles, pictures). The policies of a
 * document (CSP, framing, opener, referrer...) do nothing on a script or a stylesheet the page
 * loads, and a screen loads some thirty of them: sent on each, they were 600 bytes more per file
 * than many files themselves, about 18 KB a page on a ship's link (decision 026). What does apply
 * to a subresource stays.
 */
export const ASSET_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'strict-transport-security': SECURITY_HEADERS['strict-transport-security']!,
  'x-content-type-options': SECURITY_HEADERS['x-content-type-options']!,
  'cross-origin-resource-policy': SECURITY_HEADERS['cross-origin-resource-policy']!,
});

/**
 * The headers of the API's answers (JSON from /api and /trpc, and the health checks). A JSON answer
 * is never a document a browser renders with scripts, styles or frames of its own, so the
 * document's policies (its CSP of sources, referrer, opener, agent cluster, DNS prefetch, Flash and
 * XSS-filter switches) do nothing on it; they were 8 of its 21 headers and about 580 bytes of each
 * answer (decision 058). What stays is what guards a JSON answer: a CSP that lets it load nothing
 * and be framed by no one, HSTS, no sniffing, no cross-origin reads. A page served under /api (the
 * API's own documentation page) sets the document's headers itself.
 */
export const API_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'strict-transport-security': SECURITY_HEADERS['strict-transport-security']!,
  'x-content-type-options': SECURITY_HEADERS['x-content-type-options']!,
  'x-frame-options': SECURITY_HEADERS['x-frame-options']!,
  'cross-origin-resource-policy': SECURITY_HEADERS['cross-origin-resource-policy']!,
});

/** Which set of security headers an answer to this address carries. */
export function securityHeadersFor(url: string): Readonly<Record<string, string>> {
  if (url.startsWith('/assets/')) return ASSET_HEADERS;
  if (url.startsWith('/api/') || url.startsWith('/trpc/') || url === '/healthz' || url === '/readyz') return API_HEADERS;
  return SECURITY_HEADERS;
}
