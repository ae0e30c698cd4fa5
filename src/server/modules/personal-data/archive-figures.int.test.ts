import { unzipSync } from 'fflate';
import { createCertificateRow, createTestRow } from '../../../testing/certificate-rows.ts';
import { createCourse, createProfileWithFiles, createUser } from '../../../testing/factories.ts';
import { renderCertificate } from '../certificates/render-certificate.job.ts';
import { expect, it } from '../../../testing/portal-test.ts';

/*
 * The figure for the learner's data archive: a learner with a profile (three documents) and 20
 * certificates, their PDFs rendered by the real job; the archive is fetched over HTTP five times
 * and the time to its last byte and its size are printed.
 */

const CERTIFICATES = 20;
const ROUNDS = 5;

let authorization: string;

it.beforeAll(async ({ portal, db }) => {
  const learner = await createUser(db, { approvedAt: new Date() });
  await createProfileWithFiles(db, portal.runtime.files, learner.id);
  for (let index = 0; index < CERTIFICATES; index += 1) {
    const course = await createCourse(db, { title: `Course ${index + 1}` });
    const testId = (await createTestRow(db, course.id)).id;
    const certificate = await createCertificateRow(db, { userId: learner.id, courseId: course.id, testId }, { status: 'pending' });
    await renderCertificate({ certificateId: certificate.id }, portal.runtime.jobContext, { isLast: true });
  }
  authorization = portal.authorization(learner);
}, 180_000);

it(`measures the archive of a learner with ${CERTIFICATES} certificates`, async ({ portal }) => {
  const times: number[] = [];
  let bytes = 0;
  let files = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    const answer = await portal.app.inject({ method: 'GET', url: '/api/me/data.zip', headers: { authorization } });
    times.push(performance.now() - started);
    expect(answer.statusCode).toBe(200);
    bytes = answer.rawPayload.length;
    files = Object.keys(unzipSync(answer.rawPayload)).length;
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  console.log(
    `data archive, ${CERTIFICATES} certificates: ${files} files, ${(bytes / 1024).toFixed(1)} KiB; ` +
      `time to last byte median ${median.toFixed(0)} ms (min ${times[0]!.toFixed(0)}, max ${times.at(-1)!.toFixed(0)}) over ${ROUNDS} rounds`,
  );
  expect(files).toBe(2 + 9 + 3 + CERTIFICATES);
});
