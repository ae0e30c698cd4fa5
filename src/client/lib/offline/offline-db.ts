import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import type { TOfflinePackage, TOfflineWatchRecord } from '../../../shared/schemas/offline.ts';

/*
 * What the device keeps for study without a link, in the browser's own storage for the site
 * (IndexedDB), never as files: each learner's downloaded courses, their media in chunks, and the
 * watch records waiting to be sent. Every row carries the learner's id, and every read asks for
 * one learner's rows: on a shared PC the next learner sees nothing of the previous one's
 * (decision 050).
 */

export const OFFLINE_DB_NAME = 'academy-offline';
const OFFLINE_DB_VERSION = 1;

/** A course on the device: the package the server gave and how far its download has got. */
export type TStoredDownload = {
  /** `${userId}:${courseId}` */
  key: string;
  userId: string;
  courseId: string;
  package: TOfflinePackage;
  /** 'downloading' (or waiting to resume), 'paused' by the learner, 'complete'. */
  state: 'downloading' | 'paused' | 'complete';
  /** Bytes of media on the device, over every part. */
  storedBytes: number;
  /** Bytes stored of each part (by video id); a part is complete at its package `bytes`. */
  partBytes: Record<string, number>;
  /** When the package was last confirmed by the server (ms). */
  checkedAt: number;
  /** Why the last attempt stopped, in words for the learner, or null. */
  error: string | null;
};

/** One piece of a part's media: a Blob of CHUNK_BYTES (the last one shorter). */
export type TStoredChunk = {
  /** [download key, video id, chunk index] */
  key: [string, string, number];
  userId: string;
  blob: Blob;
};

/**
 * A watch record made on the device while offline, signed, with its sync state: 'pending' until
 * the server answered it, then 'sent' with the server's outcome (kept so the course home can say
 * what was credited; removed at logout).
 */
export type TStoredRecord = {
  id: string;
  userId: string;
  courseId: string;
  downloadId: string;
  record: TOfflineWatchRecord;
  state: 'pending' | 'sent';
  outcome: 'credited' | 'duplicate' | 'refused' | null;
  reason: string | null;
  creditedSeconds: number;
};

/** The device's place in each download's sequence of records: the next seq and the last signature. */
export type TRecordChain = { downloadId: string; userId: string; nextSeq: number; lastSignature: string | null };

export interface OfflineDb extends DBSchema {
  downloads: { key: string; value: TStoredDownload; indexes: { byUser: string } };
  chunks: { key: [string, string, number]; value: TStoredChunk; indexes: { byUser: string } };
  records: { key: string; value: TStoredRecord; indexes: { byUser: string; byDownloadSeq: [string, number] } };
  chains: { key: string; value: TRecordChain; indexes: { byUser: string } };
}

/** Media is fetched and stored in pieces of this size: a dropped link loses at most one. */
export const CHUNK_BYTES = 1024 * 1024;

let opened: Promise<IDBPDatabase<OfflineDb>> | null = null;

/** The device's offline store, opened once per tab. */
export function offlineDb(): Promise<IDBPDatabase<OfflineDb>> {
  opened ??= openDB<OfflineDb>(OFFLINE_DB_NAME, OFFLINE_DB_VERSION, {
    upgrade(db) {
      db.createObjectStore('downloads', { keyPath: 'key' }).createIndex('byUser', 'userId');
      db.createObjectStore('chunks', { keyPath: 'key' }).createIndex('byUser', 'userId');
      const records = db.createObjectStore('records', { keyPath: 'id' });
      records.createIndex('byUser', 'userId');
      records.createIndex('byDownloadSeq', ['downloadId', 'record.seq']);
      db.createObjectStore('chains', { keyPath: 'downloadId' }).createIndex('byUser', 'userId');
    },
  });
  return opened;
}

export const downloadKey = (userId: string, courseId: string) => `${userId}:${courseId}`;
