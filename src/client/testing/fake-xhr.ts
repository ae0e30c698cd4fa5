/**
 * A stand-in for XMLHttpRequest in jsdom (which has no server to send to): each request is kept in
 * `FakeXhr.sent` for the test to answer, report progress on, or fail.
 */
export class FakeXhr {
  static sent: FakeXhr[] = [];

  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  responseText = '';
  aborted = false;
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }

  send(body: unknown) {
    this.body = body;
    FakeXhr.sent.push(this);
  }

  abort() {
    this.aborted = true;
    this.onabort?.();
  }

  /** The browser has sent `loaded` of `total` bytes. */
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }

  /** The server answers. */
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.onload?.();
  }

  /** No answer: the connection failed. */
  fail() {
    this.onerror?.();
  }

  static reset() {
    FakeXhr.sent = [];
  }

  /** The request sent `index`-th, or a clear failure when it was never sent. */
  static nth(index: number): FakeXhr {
    const xhr = FakeXhr.sent[index];
    if (!xhr) throw new Error(`Only ${FakeXhr.sent.length} request(s) were sent, not ${index + 1}.`);
    return xhr;
  }
}

/** An unsigned JWT-shaped token that expires `secondsFromNow` from now (the client only reads it). */
export function tokenExpiringIn(secondsFromNow: number, claims: Record<string, unknown> = {}): string {
  const encode = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${encode({ alg: 'none' })}.${encode({ exp: Math.floor(Date.now() / 1000) + secondsFromNow, ...claims })}.signature`;
}
