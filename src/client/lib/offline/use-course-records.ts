import { useEffect, useState } from 'react';
import type { TStoredRecord } from '@/lib/offline/offline-db.ts';
import { recordsOfCourse, subscribeRecords } from '@/lib/offline/watch-records.ts';

/** The learner's watch records of a course on this device, read again whenever this tab changes them; undefined while reading. */
export function useCourseRecords(userId: string | null, courseId: string): TStoredRecord[] | undefined {
  const supported = userId !== null && typeof indexedDB !== 'undefined';
  const key = `${userId ?? ''}:${courseId}`;
  const [read, setRead] = useState<{ key: string; rows: TStoredRecord[] } | undefined>(undefined);
  useEffect(() => {
    if (!supported || !userId) return;
    let live = true;
    const read = () =>
      recordsOfCourse(userId, courseId).then(
        (rows) => live && setRead({ key, rows }),
        () => live && setRead({ key, rows: [] }),
      );
    void read();
    const unsubscribe = subscribeRecords(() => void read());
    return () => {
      live = false;
      unsubscribe();
    };
  }, [supported, userId, courseId, key]);
  if (!supported) return [];
  return read?.key === key ? read.rows : undefined;
}
