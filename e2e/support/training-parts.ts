import { eq } from 'drizzle-orm';
import type { TRole } from '../../src/shared/constants.ts';
import { trainingVideos, trainingVideoSets } from '../../src/server/db/schema.ts';
import { form } from '../../src/testing/multipart.ts';
import type { BrowserHarness } from './browser.ts';

/** The parts' file names on the administrator's computer: their titles become "Fire drill", "Abandon ship". */
const PART_FILE_NAMES = ['Fire_drill.mp4', 'Abandon_ship.mp4'];

/**
 * Uploads `clips` as the course's training parts as an administrator would (POST /api/trainingVideo),
 * one after the other so they keep their order, transcodes each, and answers the parts in order.
 */
export async function uploadTrainingParts(harness: BrowserHarness, admin: { id: string; role: TRole }, course: { id: string; title: string }, clips: readonly Buffer[]) {
  const db = harness.portal.runtime.db;
  for (const [index, clip] of clips.entries()) {
    const upload = form([
      { name: 'courseId', value: course.id },
      { name: 'title', value: course.title },
      { name: 'trainingVideo', file: clip, filename: PART_FILE_NAMES[index] ?? `Part_${index + 1}.mp4`, type: 'video/mp4' },
    ]);
    const uploaded = await harness.portal.app.inject({
      method: 'POST',
      url: '/api/trainingVideo',
      headers: { ...upload.headers, authorization: harness.portal.authorization(admin) },
      payload: upload.payload,
    });
    if (uploaded.statusCode !== 201) throw new Error(`upload failed: ${uploaded.body}`);
    await harness.portal.drainJobs();
  }
  const [set] = await db.select().from(trainingVideoSets).where(eq(trainingVideoSets.courseId, course.id));
  return (await db.select().from(trainingVideos).where(eq(trainingVideos.setId, set!.id))).sort((a, b) => a.serial - b.serial);
}
