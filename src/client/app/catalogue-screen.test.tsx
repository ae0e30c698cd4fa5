import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TEnrolmentStatus } from '../../shared/constants.ts';
import type { TCourse } from '../../shared/schemas/course.ts';
import { CatalogueScreen } from '@/app/catalogue-screen.tsx';
import { paths } from '@/config/paths.ts';
import { clearStoredSession } from '@/lib/session/session.ts';
import { storeSession } from '@/lib/session/session-store.ts';
import { currentLocation, renderWithServer } from '@/testing/fake-trpc.tsx';
import { tokenExpiringIn } from '@/testing/fake-xhr.ts';

/*
 * /courses as the app composes it: the catalogue's cards (features/catalogue) with enrolment's
 * action under each price (features/enrolments).
 */

function course(id: string, title: string): TCourse {
  return {
    id,
    title,
    description: `${title}, as the STCW convention asks.`,
    duration: '5 days',
    price: 4500,
    category: 'STCW',
    subjects: [],
    image: null,
    isActive: true,
    createdAt: '2026-11-01T09:00:00.000Z',
    updatedAt: '2026-11-01T09:00:00.000Z',
  };
}

const CATALOGUE = [course('c-1', 'Basic Safety'), course('c-2', 'Fire Fighting'), course('c-3', 'Medical Care'), course('c-4', 'Survival Craft')];

function renderCatalogue(mine: Array<[string, TEnrolmentStatus]> = []) {
  const requests: unknown[] = [];
  const rendered = renderWithServer(<CatalogueScreen />, {
    url: paths.courses,
    pattern: paths.courses,
    answer: (path, input) => {
      if (path === 'courses.catalogue') return CATALOGUE;
      if (path === 'enrolments.mine') {
        return mine.map(([courseId, status]) => ({ id: `e-${courseId}`, courseId, status, requestedAt: '2026-11-02T09:00:00.000Z', decidedAt: null }));
      }
      if (path === 'enrolments.request') {
        requests.push(input);
        return { id: 'e-new', courseId: input.courseId, status: 'pending', requestedAt: '2026-11-02T09:00:00.000Z', decidedAt: null };
      }
      throw new Error(`unexpected call ${path}`);
    },
  });
  return { ...rendered, requests };
}

const card = (title: string) => screen.getByRole('article', { name: title });

describe('the catalogue screen', () => {
  afterEach(() => clearStoredSession());

  it('offers a visitor Enroll Now on every course, under its price, and sends them to log in first', async () => {
    const { user, requests } = renderCatalogue();
    await screen.findByRole('article', { name: 'Basic Safety' });
    for (const { title } of CATALOGUE) {
      expect(within(card(title)).getByText(/4,500/).textContent).toMatch(/Price: .*4,500/);
      expect(within(card(title)).getByRole<HTMLButtonElement>('button', { name: 'Enroll Now' }).disabled).toBe(false);
    }
    await user.click(within(card('Fire Fighting')).getByRole('button', { name: 'Enroll Now' }));
    expect(currentLocation.pathname).toBe(paths.login);
    expect(requests).toEqual([]);
  });

  it("shows a learner where they stand with each course, and requests the one they choose", async () => {
    storeSession(tokenExpiringIn(600, { role: 'learner', sub: 'u-1' }));
    const { user, requests } = renderCatalogue([
      ['c-1', 'approved'],
      ['c-2', 'pending'],
      ['c-3', 'rejected'],
    ]);
    const opened = await within(await screen.findByRole('article', { name: 'Basic Safety' })).findByRole('link', { name: 'Open course' });
    expect(opened.getAttribute('href')).toBe(paths.courseContent('c-1'));
    expect(within(card('Fire Fighting')).getByRole<HTMLButtonElement>('button', { name: 'Request pending' }).disabled).toBe(true);
    expect(within(card('Fire Fighting')).queryByText('The academy is reviewing your request.')).not.toBeNull();
    expect(within(card('Medical Care')).queryByText('Your last request was not approved. You may ask again.')).not.toBeNull();
    expect(within(card('Medical Care')).getByRole<HTMLButtonElement>('button', { name: 'Request again' }).disabled).toBe(false);
    expect(within(card('Survival Craft')).queryByText(/academy is reviewing|not approved/)).toBeNull();

    await user.click(within(card('Survival Craft')).getByRole('button', { name: 'Enroll Now' }));
    await expect.poll(() => requests).toEqual([{ courseId: 'c-4' }]);
  });
});
