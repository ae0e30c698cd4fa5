import type { TCourse } from '../../../shared/schemas/course.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import type { Executor } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../lib/errors.ts';
import { fileUrl } from '../../lib/files/file-urls.ts';
import { findActive, findByIdForShare, findById, findCatalogueVersion, type TCourseRow } from './courses.repository.ts';

/*
 * The public catalogue: what visitors and learners read, cached per version of the courses table.
 * Course administration (course-admin.service.ts) invalidates it on every change.
 */

export type { TCourseRow };

/** The DTO every screen reads; the image URL is public (course images are shown to visitors). */
export function toCourse(deps: Pick<AppDeps, 'jwtSecret'>, row: TCourseRow): TCourse {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    duration: row.duration,
    price: row.price,
    category: row.category,
    subjects: row.subjects,
    image: row.imageFile
      ? {
          filename: row.imageFile,
          url: fileUrl(deps, 'courseImg', row.imageFile),
          width: row.imageWidth,
          height: row.imageHeight,
        }
      : null,
    isActive: row.isActive,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------
// The public catalogue

/** How long this process trusts its copy of the catalogue before asking the database again. */
export const CATALOGUE_RECHECK_MS = 1000;

export type TCatalogue = {
  /** A weak validator: the same while the active courses are the same. */
  etag: string;
  courses: TCourse[];
  /** Answers derived from this version (the REST body, compressed, say), made once. */
  memo(key: string, make: () => Buffer): Buffer;
};

type TCatalogueCache = {
  version?: string;
  catalogue?: TCatalogue;
  checkedAt: number;
  /** Moves on every change made here: a read begun before it must not be kept. */
  generation: number;
  loading?: { generation: number; promise: Promise<TCatalogue> };
};

// One cache per database, so several portals in one process (tests) never share one.
const catalogueCaches = new WeakMap<object, TCatalogueCache>();
const cacheOf = (deps: Pick<AppDeps, 'db'>) => {
  let cache = catalogueCaches.get(deps.db);
  if (!cache) catalogueCaches.set(deps.db, (cache = { checkedAt: 0, generation: 0 }));
  return cache;
};

/**
 * Forgets this process's copy, so the next read sees a change made here at once (and, in tests,
 * one written straight to the database).
 */
export function invalidateCatalogue(deps: Pick<AppDeps, 'db'>) {
  const cache = cacheOf(deps);
  cache.generation += 1;
  cache.checkedAt = 0;
  cache.version = undefined;
  cache.catalogue = undefined;
}

async function loadCatalogue(deps: Pick<AppDeps, 'db' | 'jwtSecret'>, cache: TCatalogueCache): Promise<TCatalogue> {
  const generation = cache.generation;
  const { active, newest } = await findCatalogueVersion(deps.db);
  const version = `${active}-${newest}`;
  if (cache.catalogue && cache.version === version) {
    cache.checkedAt = Date.now();
    return cache.catalogue;
  }
  const rows = await findActive(deps.db);
  const rendered = new Map<string, Buffer>();
  const catalogue: TCatalogue = {
    etag: `W/"courses-${Number(newest).toString(36)}-${active}"`,
    courses: rows.map((row) => toCourse(deps, row)),
    memo(key, make) {
      let value = rendered.get(key);
      if (value === undefined) rendered.set(key, (value = make()));
      return value;
    },
  };
  // A change committed between the two reads leaves an older version with newer rows: the next
  // check sees the newer version and reloads, so nothing stale outlives one recheck.
  if (cache.generation === generation) Object.assign(cache, { version, catalogue, checkedAt: Date.now() });
  return catalogue;
}

/**
 * The active courses, newest first, as visitors and learners see them. The database is asked
 * for the catalogue's version at most once a second per process (changes made by this process
 * show at once), and the courses are read again only when that version moved.
 */
export async function getCatalogue(deps: Pick<AppDeps, 'db' | 'jwtSecret'>): Promise<TCatalogue> {
  const cache = cacheOf(deps);
  if (cache.catalogue && Date.now() - cache.checkedAt < CATALOGUE_RECHECK_MS) return cache.catalogue;
  // Requests arriving together share one look at the database.
  if (cache.loading?.generation !== cache.generation) {
    const loading = {
      generation: cache.generation,
      promise: loadCatalogue(deps, cache).finally(() => {
        if (cache.loading === loading) cache.loading = undefined;
      }),
    };
    cache.loading = loading;
  }
  return cache.loading.promise;
}

// ---------------------------------------------------------------------------------------------
// Administration

export async function getCourse(deps: Pick<AppDeps, 'db' | 'jwtSecret'>, courseId: string): Promise<TCourse> {
  const row = await findById(deps.db, courseId);
  if (!row) throw notFound(MESSAGES.courses.notFound);
  return toCourse(deps, row);
}

/**
 * Inside the caller's transaction: the course's state, held so that it cannot be deactivated
 * until the caller commits (a request and a deactivation never cross).
 */
export async function lockCourseForEnrolment(tx: Executor, courseId: string): Promise<{ id: string; isActive: boolean } | undefined> {
  return findByIdForShare(tx, courseId);
}
