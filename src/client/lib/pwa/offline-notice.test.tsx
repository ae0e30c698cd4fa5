import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import { useShowsDeviceCopy } from '@/lib/pwa/device-copy.ts';
import { OfflineNotice } from '@/lib/pwa/offline-notice.tsx';

const C = MESSAGES.connection;

/** A screen that shows the course kept on the device while `fromDevice`. */
function Screen({ fromDevice }: { fromDevice: boolean }) {
  useShowsDeviceCopy(fromDevice);
  return null;
}

/** The line above a screen with nothing kept from the server; `showDeviceCopy` changes what the screen shows. */
function renderNotice(fromDevice: boolean) {
  const client = new QueryClient();
  const page = (shown: boolean) => (
    <QueryClientProvider client={client}>
      <OfflineNotice />
      <Screen fromDevice={shown} />
    </QueryClientProvider>
  );
  const view = render(page(fromDevice));
  return { showDeviceCopy: (shown: boolean) => view.rerender(page(shown)) };
}

afterEach(() => vi.restoreAllMocks());

describe('the offline line', () => {
  it('says the player plays from the device when nothing of the server is kept but the downloaded course is on screen', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const { showDeviceCopy } = renderNotice(true);
    expect((await screen.findByRole('status')).textContent).toBe(C.offlinePlayingFromDevice);
    // The screen moves on from the device's copy: the line says what is true again.
    showDeviceCopy(false);
    expect(screen.getByRole('status').textContent).toBe(C.offlineNothingKept);
  });

  it('says nothing online', () => {
    renderNotice(true);
    expect(screen.getByRole('status').textContent).toBe('');
  });
});
