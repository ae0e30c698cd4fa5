import { act, renderHook } from '@testing-library/react';
import { type ReactNode, useEffect } from 'react';
import { type Location, MemoryRouter, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { refreshAccessToken } from '@/lib/session/session-refresh.ts';
import { sendForm } from '@/lib/upload/send-form.ts';
import { useUpload } from '@/lib/upload/use-upload.ts';
import { FakeXhr, tokenExpiringIn } from '@/testing/fake-xhr.ts';

vi.mock('@/lib/session/session-refresh.ts', () => ({ EXPIRY_MARGIN_MS: 5_000, refreshAccessToken: vi.fn() }));
const refresh = vi.mocked(refreshAccessToken);

const FRESH = tokenExpiringIn(600, { sub: 'learner-1' });
const RENEWED = tokenExpiringIn(900, { sub: 'learner-1', renewed: true });

function form(): FormData {
  const body = new FormData();
  body.append('name', 'Kavya Menon');
  return body;
}

/** Where the router is, as the last render saw it. */
const seen: { location?: Location } = {};

function LocationProbe() {
  const current = useLocation();
  useEffect(() => {
    seen.location = current;
  }, [current]);
  return null;
}

function renderUpload(loginPath = '/login', at = '/updateUserProfile?step=2') {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MemoryRouter initialEntries={[at]}>
      {children}
      <LocationProbe />
    </MemoryRouter>
  );
  return renderHook(() => useUpload({ loginPath }), { wrapper });
}

/** Waits for the `index`-th request to be sent. */
async function sent(index: number): Promise<FakeXhr> {
  return vi.waitFor(() => FakeXhr.nth(index));
}

beforeEach(() => {
  FakeXhr.reset();
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  localStorage.clear();
  localStorage.setItem('accessToken', FRESH);
  localStorage.setItem('hasRefreshCookie', 'true');
  refresh.mockReset();
  seen.location = undefined;
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('useUpload', () => {
  it('sends the form with the stored token, shows progress in whole percent and answers what the server saved', async () => {
    const { result } = renderUpload();
    expect(result.current.percent).toBeNull();

    let done!: Promise<unknown>;
    act(() => {
      done = result.current.upload({ method: 'PUT', url: '/api/userProfile/update', body: form() });
    });
    const xhr = await sent(0);
    expect(xhr.method).toBe('PUT');
    expect(xhr.url).toBe('/api/userProfile/update');
    expect(xhr.headers.Authorization).toBe(`Bearer ${FRESH}`);
    expect(xhr.body).toBeInstanceOf(FormData);
    expect(result.current.percent).toBe(0);

    act(() => xhr.progress(1, 3));
    expect(result.current.percent).toBe(33);
    act(() => xhr.progress(3, 3));
    expect(result.current.percent).toBe(100);

    await act(async () => {
      xhr.respond(200, { message: 'Profile updated', data: { _id: 'p1' } });
      await done;
    });
    await expect(done).resolves.toEqual({ outcome: 'saved', status: 200, body: { message: 'Profile updated', data: { _id: 'p1' } } });
    expect(result.current.percent).toBeNull();
    expect(refresh).not.toHaveBeenCalled();
  });

  it('answers a refusal with its message, the course routes’ error and the messages per field', async () => {
    const { result } = renderUpload('/backend', '/admin-dashboard/create-course');
    let done!: Promise<unknown>;
    act(() => {
      done = result.current.upload({ method: 'POST', url: '/api/courses', body: form() });
    });
    const xhr = await sent(0);
    await act(async () => {
      xhr.respond(400, {
        message: 'Please correct the highlighted fields.',
        error: 'Please correct the highlighted fields.',
        errors: { title: 'Title is required', 'subjects.1': 'Subject is required', ignored: 42 },
      });
      await done;
    });
    await expect(done).resolves.toEqual({
      outcome: 'refused',
      status: 400,
      message: 'Please correct the highlighted fields.',
      error: 'Please correct the highlighted fields.',
      errors: { title: 'Title is required', 'subjects.1': 'Subject is required' },
    });
    expect(seen.location?.pathname).toBe('/admin-dashboard/create-course');
  });

  it('stops the upload on cancel and answers that it was cancelled', async () => {
    const { result } = renderUpload();
    let done!: Promise<unknown>;
    act(() => {
      done = result.current.upload({ method: 'POST', url: '/api/userProfile', body: form() });
    });
    const xhr = await sent(0);
    act(() => xhr.progress(10, 100));
    await act(async () => {
      result.current.cancel();
      await done;
    });
    expect(xhr.aborted).toBe(true);
    await expect(done).resolves.toEqual({ outcome: 'cancelled' });
    expect(result.current.percent).toBeNull();
  });

  it('stops the upload when the screen goes away', async () => {
    const { result, unmount } = renderUpload();
    let done!: Promise<unknown>;
    act(() => {
      done = result.current.upload({ method: 'POST', url: '/api/userProfile', body: form() });
    });
    const xhr = await sent(0);
    unmount();
    expect(xhr.aborted).toBe(true);
    await expect(done).resolves.toEqual({ outcome: 'cancelled' });
  });

  it('answers a network failure when no answer comes', async () => {
    const { result } = renderUpload();
    let done!: Promise<unknown>;
    act(() => {
      done = result.current.upload({ method: 'POST', url: '/api/userProfile', body: form() });
    });
    const xhr = await sent(0);
    await act(async () => {
      xhr.fail();
      await done;
    });
    await expect(done).resolves.toEqual({ outcome: 'network' });
  });

  it('after a 401 renews the session once and sends the form again with the new token', async () => {
    refresh.mockImplementation(async () => {
      localStorage.setItem('accessToken', RENEWED);
      return RENEWED;
    });
    const { result } = renderUpload();
    let done!: Promise<unknown>;
    act(() => {
      done = result.current.upload({ method: 'POST', url: '/api/userProfile', body: form() });
    });
    const first = await sent(0);
    act(() => first.progress(50, 100));
    expect(result.current.percent).toBe(50);
    act(() => first.respond(401, { message: 'Session expired' }));

    const second = await sent(1);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(second.headers.Authorization).toBe(`Bearer ${RENEWED}`);
    expect(result.current.percent).toBe(0);
    await act(async () => {
      second.respond(201, { message: 'Profile submitted' });
      await done;
    });
    await expect(done).resolves.toMatchObject({ outcome: 'saved', status: 201 });
    expect(FakeXhr.sent).toHaveLength(2);
    expect(seen.location?.pathname).toBe('/updateUserProfile');
  });

  it('retries only once: a second 401 sends the user to the caller’s login screen, remembering the page', async () => {
    refresh.mockResolvedValue(RENEWED);
    const { result } = renderUpload('/backend', '/admin-dashboard/create-course?edit=c1');
    let done!: Promise<unknown>;
    act(() => {
      done = result.current.upload({ method: 'PUT', url: '/api/courses/c1', body: form() });
    });
    act(() => FakeXhr.nth(0).respond(401, { message: 'Unauthorized' }));
    const second = await sent(1);
    await act(async () => {
      second.respond(401, { message: 'Unauthorized' });
      await done;
    });
    await expect(done).resolves.toMatchObject({ outcome: 'refused', status: 401 });
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(FakeXhr.sent).toHaveLength(2);
    expect(seen.location?.pathname).toBe('/backend');
    expect(seen.location?.state).toEqual({ from: '/admin-dashboard/create-course?edit=c1' });
  });

  it('does not send again when the session cannot be renewed', async () => {
    refresh.mockResolvedValue(null);
    const { result } = renderUpload('/login', '/profile');
    let done!: Promise<unknown>;
    act(() => {
      done = result.current.upload({ method: 'POST', url: '/api/userProfile', body: form() });
    });
    await act(async () => {
      FakeXhr.nth(0).respond(401, { message: 'Unauthorized' });
      await done;
    });
    await expect(done).resolves.toMatchObject({ outcome: 'refused', status: 401 });
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(FakeXhr.sent).toHaveLength(1);
    expect(seen.location?.pathname).toBe('/login');
    expect(seen.location?.state).toEqual({ from: '/profile' });
  });

  it('renews an expired token before sending rather than sending the files to be refused', async () => {
    localStorage.setItem('accessToken', tokenExpiringIn(-60));
    refresh.mockResolvedValue(RENEWED);
    const { result } = renderUpload();
    act(() => {
      void result.current.upload({ method: 'POST', url: '/api/userProfile', body: form() });
    });
    const xhr = await sent(0);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(xhr.headers.Authorization).toBe(`Bearer ${RENEWED}`);
  });
});

describe('sendForm', () => {
  beforeEach(() => {
    FakeXhr.reset();
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
  });

  it('sends nothing when already cancelled', async () => {
    const abort = new AbortController();
    abort.abort();
    await expect(sendForm({ method: 'POST', url: '/api/courses', body: form() }, { token: null, signal: abort.signal })).resolves.toEqual({
      outcome: 'cancelled',
    });
    expect(FakeXhr.sent).toHaveLength(0);
  });

  it('sends no Authorization header without a token, and reads a refusal that is not JSON', async () => {
    const done = sendForm({ method: 'POST', url: '/api/courses', body: form() }, { token: null });
    const xhr = FakeXhr.nth(0);
    expect(xhr.headers.Authorization).toBeUndefined();
    expect(xhr.headers.Accept).toBe('application/json');
    xhr.respond(413, '<html>Request Entity Too Large</html>');
    await expect(done).resolves.toEqual({ outcome: 'refused', status: 413, message: undefined, error: undefined, errors: undefined });
  });
});
