import { useMemo } from 'react';
import type { TOfflineApi } from '@/lib/offline/downloads.ts';
import { trpc } from '@/lib/trpc.ts';

/**
 * The server calls a download on this device makes (lib/offline/downloads.ts), outside React
 * Query: training.offlinePackage makes a new download on the server (with its record key) and
 * answers its parts, sizes and media links; offlineResume gives the same download fresh links for
 * this session (and renews the stream pass); offlineStatus says which of the device's downloads
 * still work.
 */
export function useOfflineApi(): TOfflineApi {
  const utils = trpc.useUtils();
  return useMemo(
    () => ({
      offlinePackage: (input) => utils.client.training.offlinePackage.mutate(input),
      offlineResume: (input) => utils.client.training.offlineResume.query(input),
      offlineStatus: (input) => utils.client.training.offlineStatus.query(input),
    }),
    [utils],
  );
}
