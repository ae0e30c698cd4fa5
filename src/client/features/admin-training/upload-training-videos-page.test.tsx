import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TCourse } from '../../../shared/schemas/course.ts';
import { Toaster } from '@/components/ui/sonner.tsx';
import { UploadTrainingVideosPage } from '@/features/admin-training/upload-training-videos-page.tsx';
import { trpc } from '@/lib/trpc.ts';
import { FakeXhr, tokenExpiringIn } from '@/testing/fake-xhr.ts';
import { fakeTrpcLink } from '@/testing/fake-trpc.tsx';

const T = MESSAGES.training;

function course(id: string, title: string, isActive = true): TCourse {
  return {
    id,
    title,
    description: 'Shipboard training.',
    duration: '3 days',
    price: 12500,
    category: 'STCW',
    subjects: ['Survival'],
    image: null,
    isActive,
    createdAt: '2026-11-20T09:00:00.000Z',
    updatedAt: '2026-11-20T09:00:00.000Z',
  };
}

const PST = '0b7f2c1e-4a5d-4e8f-9a1b-2c3d4e5f6a70';
const FIRE = '1c8a3d2f-5b6e-4f9a-8b2c-3d4e5f6a7b81';
const COURSES = [
  course(PST, 'Personal Survival Techniques'),
  course(FIRE, 'Fire Prevention and Fire Fighting'),
  // The same course twice, and one closed: each active course is offered once.
  course(PST, 'Personal Survival Techniques'),
  course('2d9b4e3a-6c7f-4a0b-9c3d-4e5f6a7b8c92', 'Tanker Familiarisation', false),
];

const fakeServer = fakeTrpcLink((path) => (path === 'courses.adminList' ? COURSES : []));

function renderPage(options: Parameters<typeof userEvent.setup>[0] = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const client = trpc.createClient({ links: [fakeServer] });
  render(
    <trpc.Provider client={client} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={['/admin-dashboard/training-video']}>
          <UploadTrainingVideosPage />
        </MemoryRouter>
        <Toaster />
      </QueryClientProvider>
    </trpc.Provider>,
  );
  return userEvent.setup(options);
}

const video = (name: string) => new File([new Uint8Array(2048)], name, { type: 'video/mp4' });
const fileInput = (number: number) => screen.getByLabelText(`Video file ${number}`, { selector: 'input' }) as HTMLInputElement;
/** The list item of a file row. */
const row = (number: number) => fileInput(number).closest('li')!;

async function chooseCourse(user: ReturnType<typeof userEvent.setup>, title: string) {
  await user.click(screen.getByRole('combobox', { name: 'Course' }));
  await user.click(await screen.findByRole('option', { name: title }));
}

/** The multipart fields of a sent upload. */
function fieldsOf(xhr: FakeXhr) {
  const body = xhr.body as FormData;
  return { courseId: body.get('courseId'), title: body.get('title'), file: (body.get('trainingVideo') as File).name };
}

beforeEach(() => {
  FakeXhr.reset();
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  localStorage.setItem('accessToken', tokenExpiringIn(600, { sub: 'admin-1', role: 'admin' }));
  // Radix's Select measures and scrolls what jsdom does not lay out.
  Element.prototype.scrollIntoView = () => {};
  Element.prototype.hasPointerCapture = () => false;
  Element.prototype.releasePointerCapture = () => {};
});

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  toast.dismiss();
});

describe('Upload Training Videos', () => {
  it('offers each active course once; choosing one fills the title, which stays editable', async () => {
    const user = renderPage();
    await user.click(screen.getByRole('combobox', { name: 'Course' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['Fire Prevention and Fire Fighting', 'Personal Survival Techniques']);
    await user.click(screen.getByRole('option', { name: 'Personal Survival Techniques' }));
    const title = screen.getByLabelText('Title') as HTMLInputElement;
    expect(title.value).toBe('Personal Survival Techniques');
    await user.clear(title);
    await user.type(title, 'PST: sea survival');
    expect(title.value).toBe('PST: sea survival');
  });

  it('says what is missing, keeps at least one row, and refuses a file that is not a video', async () => {
    // The file picker offers videos only; a file dropped on it need not be one.
    const user = renderPage({ applyAccept: false });
    expect(screen.queryByRole('button', { name: 'Remove video file 1' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText(T.courseRequired)).toBeTruthy();
    expect(within(row(1)).getByText(T.videoRequired)).toBeTruthy();

    await user.upload(fileInput(1), new File(['%PDF'], 'drill-notes.pdf', { type: 'application/pdf' }));
    await user.click(screen.getByRole('button', { name: 'Add another video' }));
    expect(document.activeElement).toBe(fileInput(2));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await within(row(1)).findByText(T.notAVideo)).toBeTruthy();
    expect(within(row(2)).getByText('Choose a video file for this row, or remove the row.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Remove video file 2' }));
    expect(screen.queryByLabelText('Video file 2', { selector: 'input' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove video file 1' })).toBeNull();
    expect(FakeXhr.sent).toEqual([]);
  });

  it('sends each file on its own, in order, each row with its own progress; then a fresh row on the same course', async () => {
    const user = renderPage();
    await chooseCourse(user, 'Personal Survival Techniques');
    await user.upload(fileInput(1), video('muster.mp4'));
    await user.click(screen.getByRole('button', { name: 'Add another video' }));
    await user.upload(fileInput(2), video('liferaft.mp4'));
    await user.click(screen.getByRole('button', { name: 'Upload' }));

    const first = await vi.waitFor(() => FakeXhr.nth(0));
    expect(first.method).toBe('POST');
    expect(first.url).toBe('/api/trainingVideo');
    expect(fieldsOf(first)).toEqual({ courseId: PST, title: 'Personal Survival Techniques', file: 'muster.mp4' });
    // The second waits its turn, and can be called off meanwhile.
    expect(FakeXhr.sent).toHaveLength(1);
    expect(within(row(2)).getByText('Waiting for the files before it to finish')).toBeTruthy();

    first.progress(512, 2048);
    const bar = await within(row(1)).findByRole('progressbar');
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('25'));
    expect(within(row(1)).getByText('Uploading video file 1… 25%')).toBeTruthy();
    first.respond(201, { message: T.uploaded(1), data: {} });

    const second = await vi.waitFor(() => FakeXhr.nth(1));
    expect(fieldsOf(second)).toEqual({ courseId: PST, title: 'Personal Survival Techniques', file: 'liferaft.mp4' });
    expect(within(row(1)).getByText('Uploaded. It is being prepared for playback.')).toBeTruthy();
    second.respond(201, { message: T.uploaded(1), data: {} });

    expect(await screen.findByText('2 videos uploaded. They are being prepared for playback.')).toBeTruthy();
    expect(screen.getAllByText(T.uploaded(1)).length).toBeGreaterThan(0);
    expect(screen.queryByLabelText('Video file 2', { selector: 'input' })).toBeNull();
    expect(fileInput(1).value).toBe('');
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Personal Survival Techniques');
  });

  it('shows a refusal beside its file and goes on with the rest; the next Upload sends those files again; a refusal of the course is said at the course', async () => {
    const user = renderPage();
    await chooseCourse(user, 'Fire Prevention and Fire Fighting');
    await user.upload(fileInput(1), video('renamed-document.mp4'));
    await user.click(screen.getByRole('button', { name: 'Add another video' }));
    await user.upload(fileInput(2), video('hose-handling.mp4'));
    await user.click(screen.getByRole('button', { name: 'Add another video' }));
    await user.upload(fileInput(3), video('breathing-apparatus.mp4'));
    await user.click(screen.getByRole('button', { name: 'Upload' }));

    (await vi.waitFor(() => FakeXhr.nth(0))).respond(415, { message: T.notAVideo, errors: { trainingVideo: T.notAVideo } });
    const second = await vi.waitFor(() => FakeXhr.nth(1));
    await user.click(within(row(2)).getByRole('button', { name: 'Cancel upload' }));
    expect(second.aborted).toBe(true);
    const third = await vi.waitFor(() => FakeXhr.nth(2));
    third.fail();

    expect(await within(row(3)).findByText(T.uploadFailed)).toBeTruthy();
    expect(within(row(1)).getByText(T.notAVideo)).toBeTruthy();
    expect(within(row(2)).getByText('Upload cancelled. Press Upload to send it again.')).toBeTruthy();
    expect(screen.getByText(/0 of 3 videos uploaded; 2 could not be uploaded/)).toBeTruthy();
    // Focus goes to the first file that failed.
    await waitFor(() => expect(document.activeElement).toBe(fileInput(1)));

    // Row 1 gets a real video; Upload sends rows 1 to 3 again.
    await user.upload(fileInput(1), video('fire-drill.mp4'));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    (await vi.waitFor(() => FakeXhr.nth(3))).respond(201, { message: T.uploaded(1), data: {} });
    (await vi.waitFor(() => FakeXhr.nth(4))).respond(201, { message: T.uploaded(1), data: {} });
    const last = await vi.waitFor(() => FakeXhr.nth(5));
    expect(fieldsOf(last).file).toBe('breathing-apparatus.mp4');
    last.respond(400, { message: T.courseNotFound, errors: { courseId: T.courseNotFound } });
    // About the form, not the file: said at the course.
    expect(await screen.findByText(T.courseNotFound)).toBeTruthy();
    expect(within(row(3)).queryByText(T.courseNotFound)).toBeNull();
  });
});
