import { useEffect, useState } from 'react';
import { isPartStored, partBlob, partPoster, storedPackage, subscribeDownloads } from '@/lib/offline/downloads.ts';
import { type TStoredDownload, downloadKey } from '@/lib/offline/offline-db.ts';

/**
 * This learner's download of the course on this device, read again when it changes (in this tab
 * or another): undefined while reading, null when there is none.
 */
export function useDeviceCourse(userId: string | null, courseId: string): TStoredDownload | null | undefined {
  const supported = userId !== null && typeof indexedDB !== 'undefined';
  const key = downloadKey(userId ?? '', courseId);
  const [read, setRead] = useState<{ key: string; row: TStoredDownload | null } | undefined>(undefined);
  useEffect(() => {
    if (!supported || !userId) return;
    let live = true;
    const read = () =>
      storedPackage(userId, courseId).then(
        (row) => live && setRead({ key, row }),
        () => live && setRead({ key, row: null }),
      );
    void read();
    const unsubscribe = subscribeDownloads((changed, kind) => {
      if (changed === key && kind === 'row') void read();
    });
    return () => {
      live = false;
      unsubscribe();
    };
  }, [supported, userId, courseId, key]);
  if (!supported) return null;
  return read?.key === key ? read.row : undefined;
}

export type TDeviceMedia = { src: string; poster: string | undefined };

/**
 * A part kept on the device as Blob URLs (media, and poster when stored) for the player: made
 * when the part is wholly stored, revoked when the part changes or the player goes. Undefined
 * while reading or when the part is not on the device. Seeking works on a Blob URL as on a stream.
 */
export function useDeviceMedia(download: TStoredDownload | null | undefined, videoId: string | null): TDeviceMedia | undefined {
  const stored = Boolean(download && videoId && isPartStored(download, videoId));
  const userId = download?.userId ?? null;
  const courseId = download?.courseId ?? null;
  const [media, setMedia] = useState<{ videoId: string; media: TDeviceMedia } | undefined>(undefined);
  useEffect(() => {
    if (!stored || !userId || !courseId || !videoId) return;
    let live = true;
    const urls: string[] = [];
    void Promise.all([partBlob(userId, courseId, videoId), partPoster(userId, courseId, videoId).catch(() => null)]).then(([blob, poster]) => {
      if (!live) return;
      if (!blob) return;
      const src = URL.createObjectURL(blob);
      urls.push(src);
      const posterUrl = poster ? URL.createObjectURL(poster) : undefined;
      if (posterUrl) urls.push(posterUrl);
      setMedia({ videoId, media: { src, poster: posterUrl } });
    });
    return () => {
      live = false;
      for (const url of urls) URL.revokeObjectURL(url);
    };
  }, [stored, userId, courseId, videoId]);
  return stored && media && media.videoId === videoId ? media.media : undefined;
}
