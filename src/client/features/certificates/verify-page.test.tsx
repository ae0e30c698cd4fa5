import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TCertificateState, TCertificateVerification } from '../../../shared/schemas/certificate.ts';
import { VerifyPage, numberFromPath } from '@/features/certificates/verify-page.tsx';
import { TEST_SITE, currentLocation, networkError, renderWithServer, serverError } from '@/testing/fake-trpc.tsx';

const C = MESSAGES.certificate;

const ARJUN_CODE = 'Kq3vX9_wTz-5bN7pLm2rYc4sHd';

type TStored = {
  number: string;
  code: string;
  /** The code of the version a re-issue replaced, if any. */
  oldCode?: string;
  version?: number;
  state: TCertificateState;
  validUntil?: string;
  courseCode?: string;
  approvalNumber?: string;
  supersededBy?: { number: string; courseTitle: string };
  holderName: string;
  maskedName: string;
  courseTitle: string;
  issuedAt: string;
  dateOfBirth: string;
  indosNo: string;
};

/** certificates.verify and certificates.verifyByHolder over two certificates, one of them revoked. */
const server = {
  certificates: [] as TStored[],
  asked: [] as string[],
  fail: null as Error | null,
  failHolder: null as Error | null,
};

function full(found: TStored): TCertificateVerification {
  return {
    detail: 'full',
    number: found.number,
    version: found.version ?? 1,
    state: found.state,
    holderName: found.holderName,
    courseTitle: found.courseTitle,
    courseCode: found.courseCode ?? null,
    approvalNumber: found.approvalNumber ?? null,
    issuedAt: found.issuedAt,
    validUntil: found.validUntil ?? null,
    supersededBy: found.supersededBy ?? null,
    renews: null,
  };
}
function masked(found: TStored): TCertificateVerification {
  return { detail: 'masked', number: found.number, state: found.state, maskedName: found.maskedName, issuedAt: found.issuedAt, validUntil: found.validUntil ?? null };
}

function answer(path: string, input: Record<string, unknown>): unknown {
  const found = server.certificates.find((item) => item.number === input.number);
  if (path === 'certificates.verify') {
    server.asked.push(input.code ? `${String(input.number)} with ${String(input.code)}` : String(input.number));
    if (server.fail) throw server.fail;
    if (!found) throw serverError(404, C.unknownNumber);
    if (found.oldCode && input.code === found.oldCode) {
      return { detail: 'superseded-version', number: found.number, version: (found.version ?? 1) - 1, currentVersion: found.version ?? 1 };
    }
    return input.code === found.code ? full(found) : masked(found);
  }
  if (path === 'certificates.verifyByHolder') {
    server.asked.push(`${String(input.number)} by ${JSON.stringify({ dateOfBirth: input.dateOfBirth, indosNo: input.indosNo })}`);
    if (server.failHolder) throw server.failHolder;
    if (!found) throw serverError(404, C.unknownNumber);
    const matches = (!input.dateOfBirth || input.dateOfBirth === found.dateOfBirth) && (!input.indosNo || input.indosNo === found.indosNo);
    return matches ? full(found) : masked(found);
  }
  throw new Error(`unexpected call ${path}`);
}

const renderAt = (url: string) => renderWithServer(<VerifyPage />, { url, pattern: '/verify/*', answer });
const holderName = () => screen.getByTestId('holder-name').textContent;

beforeEach(() => {
  server.asked = [];
  server.fail = null;
  server.failHolder = null;
  server.certificates = [
    {
      number: 'MTA/2026/000123',
      code: ARJUN_CODE,
      state: 'valid',
      holderName: 'Arjun Nair',
      maskedName: 'A. N***',
      courseTitle: 'Fire Prevention and Fire Fighting',
      issuedAt: '2026-11-24T09:03:05.000Z',
      dateOfBirth: '1990-04-12',
      indosNo: '13EL4567',
    },
    {
      number: 'MTA/2026/000124',
      code: 'Zr8wQ2_pLk-7mN3vBx5tYh9cGf',
      state: 'revoked',
      holderName: 'Meera Iyer',
      maskedName: 'M. I***',
      courseTitle: 'Personal Survival Techniques',
      issuedAt: '2026-10-02T11:00:00.000Z',
      dateOfBirth: '1992-01-05',
      indosNo: '14AB0001',
    },
  ];
  document.head.querySelector('meta[name="robots"]')?.remove();
});

describe('the certificate check', { timeout: 20_000 }, () => {
  it('opened from the QR code (number and code), shows the verdict, the holder, the course and the date', async () => {
    renderAt(`/verify/MTA/2026/000123?code=${ARJUN_CODE}`);
    const card = await screen.findByRole('region', { name: 'Valid certificate' });
    expect(holderName()).toBe('Arjun Nair');
    expect(within(card).getByText('Fire Prevention and Fire Fighting')).toBeTruthy();
    expect(within(card).getByText('24 Nov 2026')).toBeTruthy();
    expect(within(card).getByText('MTA/2026/000123')).toBeTruthy();
    expect(within(card).getByText('Does not expire')).toBeTruthy();
    expect(within(card).getAllByRole('definition')).toHaveLength(4);
    expect(within(card).getByText(`Issued by ${TEST_SITE.name} to`)).toBeTruthy();
    expect(server.asked).toEqual([`MTA/2026/000123 with ${ARJUN_CODE}`]);
    // Nothing more to ask for, and the verdict comes before the form for another number.
    expect(screen.queryByRole('form', { name: /holder/ })).toBeNull();
    const search = screen.getByRole('search', { name: 'Check a certificate' });
    expect(card.compareDocumentPosition(search) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Certificate check' })).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Certificate number' }) as HTMLInputElement).value).toBe('MTA/2026/000123');
    expect(document.title).toBe(`Certificate MTA/2026/000123 · ${TEST_SITE.name}`);
    // A page about one person is not for search engines.
    expect(document.head.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
  });

  it('with the number alone shows the verdict and the masked name only, and the details once the date of birth matches', async () => {
    const { user } = renderAt('/verify/MTA/2026/000123');
    const card = await screen.findByRole('region', { name: 'Valid certificate' });
    expect(holderName()).toBe('A. N*** (initials only)');
    expect(within(card).queryByText('Fire Prevention and Fire Fighting')).toBeNull();
    // The state's dates are not the holder's: they show with the number alone.
    expect(within(card).getByText('24 Nov 2026')).toBeTruthy();
    expect(within(card).getAllByRole('definition')).toHaveLength(3);

    const form = screen.getByRole('form', { name: "See the holder's name, course and date" });
    await user.click(within(form).getByRole('button', { name: 'Show details' }));
    expect(within(form).getByText(C.holderDetailRequired)).toBeTruthy();
    expect(server.asked).toEqual(['MTA/2026/000123']);

    await user.type(within(form).getByLabelText('Date of birth'), '1990-04-13');
    await user.click(within(form).getByRole('button', { name: 'Show details' }));
    await within(form).findByText(C.holderNotMatched);
    expect(holderName()).toBe('A. N*** (initials only)');

    await user.clear(within(form).getByLabelText('Date of birth'));
    await user.type(within(form).getByLabelText('Date of birth'), '1990-04-12');
    await user.click(within(form).getByRole('button', { name: 'Show details' }));
    await waitFor(() => expect(holderName()).toBe('Arjun Nair'));
    expect(screen.getByText('Fire Prevention and Fire Fighting')).toBeTruthy();
    expect(screen.queryByRole('form', { name: "See the holder's name, course and date" })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Valid certificate' }));
    expect(server.asked.slice(1)).toEqual([
      'MTA/2026/000123 by {"dateOfBirth":"1990-04-13"}',
      'MTA/2026/000123 by {"dateOfBirth":"1990-04-12"}',
    ]);
    // The date of birth never reaches the address.
    expect(currentLocation.pathname + currentLocation.search).toBe('/verify/MTA/2026/000123');
  });

  it('checks the INDOS number too, and says so when checks are held back', async () => {
    server.failHolder = serverError(429, C.tooManyHolderChecks(60));
    const { user } = renderAt('/verify/MTA/2026/000123');
    const form = await screen.findByRole('form', { name: "See the holder's name, course and date" });
    await user.type(within(form).getByRole('textbox', { name: 'INDOS number' }), '13EL4567');
    await user.click(within(form).getByRole('button', { name: 'Show details' }));
    await within(form).findByText(C.tooManyHolderChecks(60));
    server.failHolder = null;
    await user.click(within(form).getByRole('button', { name: 'Show details' }));
    await waitFor(() => expect(holderName()).toBe('Arjun Nair'));
  });

  it('reads the number from one encoded segment, and says when a certificate is revoked', async () => {
    renderAt('/verify/MTA%2F2026%2F000124');
    const card = await screen.findByRole('region', { name: 'Revoked certificate' });
    expect(within(card).getByText(`${C.revoked} It is no longer valid. It was issued to`)).toBeTruthy();
    expect(holderName()).toBe('M. I*** (initials only)');
    expect(server.asked).toEqual(['MTA/2026/000124']);
  });

  it("says so when a link's code is not the certificate's, or is cut short, and checks the number alone", async () => {
    const first = renderAt('/verify/MTA/2026/000123?code=Zr8wQ2_pLk-7mN3vBx5tYh9cGf');
    await screen.findByRole('region', { name: 'Valid certificate' });
    expect(screen.getByText(C.codeNotMatched)).toBeTruthy();
    expect(holderName()).toBe('A. N*** (initials only)');
    first.view.unmount();

    server.asked = [];
    renderAt('/verify/MTA/2026/000123?code=Kq3v');
    await screen.findByRole('region', { name: 'Valid certificate' });
    expect(screen.getByText(C.codeFormat)).toBeTruthy();
    expect(server.asked).toEqual(['MTA/2026/000123']);
  });

  it("shows the server's state with its dates: expiring, expired, renewed by the refresher's certificate", async () => {
    const stored = server.certificates[0]!;
    Object.assign(stored, { state: 'expiring', validUntil: '2027-01-15', version: 2, courseCode: 'FPFF', approvalNumber: 'DGS/FPFF/2024/17' });
    const first = renderAt(`/verify/MTA/2026/000123?code=${ARJUN_CODE}`);
    let card = await screen.findByRole('region', { name: 'Valid certificate, expiring soon' });
    expect(within(card).getByText(`Valid until 15 Jan 2027, then it expires. Issued by ${TEST_SITE.name} to`)).toBeTruthy();
    expect(within(card).getByText('15 Jan 2027')).toBeTruthy();
    expect(within(card).getByText('version 2')).toBeTruthy();
    expect(within(card).getByText('FPFF')).toBeTruthy();
    expect(within(card).getByText('DGS/FPFF/2024/17')).toBeTruthy();
    first.view.unmount();

    stored.state = 'expired';
    const second = renderAt('/verify/MTA/2026/000123');
    card = await screen.findByRole('region', { name: 'Expired certificate' });
    expect(within(card).getByText('It was valid until 15 Jan 2027 and is no longer valid. It was issued to')).toBeTruthy();
    second.view.unmount();

    Object.assign(stored, { state: 'superseded', supersededBy: { number: 'MTA/2027/000301', courseTitle: 'FPFF Refresher' } });
    renderAt(`/verify/MTA/2026/000123?code=${ARJUN_CODE}`);
    card = await screen.findByRole('region', { name: 'Superseded certificate' });
    expect(within(card).getByText('It was renewed by MTA/2027/000301 and is no longer the current certificate. It was issued to')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'MTA/2027/000301' }).getAttribute('href')).toBe('/verify/MTA/2027/000301');
  });

  it("says an earlier version's code is not the current certificate, and checks the number for the one that is", async () => {
    Object.assign(server.certificates[0]!, { version: 3, oldCode: 'Old9vX9_wTz-5bN7pLm2rYc4sHd' });
    const { user } = renderAt('/verify/MTA/2026/000123?code=Old9vX9_wTz-5bN7pLm2rYc4sHd');
    const card = await screen.findByRole('region', { name: 'Not the current version' });
    expect(within(card).getByText(C.supersededVersion(3))).toBeTruthy();
    expect(within(card).getByText('Version 2 (current: version 3)')).toBeTruthy();
    // Nothing of the holder on a document that is no longer current.
    expect(screen.queryByTestId('holder-name')).toBeNull();
    await user.click(within(card).getByRole('link', { name: 'Check the current certificate' }));
    await screen.findByRole('region', { name: 'Valid certificate' });
    expect(currentLocation.pathname + currentLocation.search).toBe('/verify/MTA/2026/000123');
  });

  it('checks a typed number (any case, spaces around) and puts it in the address', async () => {
    const { user } = renderAt('/verify');
    expect(document.head.querySelector('meta[name="robots"]')).toBeNull();
    expect(document.head.querySelector('meta[name="description"]')?.getAttribute('content')).toContain(`Check a ${TEST_SITE.name} certificate`);
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText(C.numberRequired)).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Certificate number' }).getAttribute('aria-invalid')).toBe('true');

    await user.type(screen.getByRole('textbox', { name: 'Certificate number' }), 'MTA-2026-123');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText(C.numberFormat)).toBeTruthy();
    expect(server.asked).toEqual([]);

    await user.clear(screen.getByRole('textbox', { name: 'Certificate number' }));
    await user.type(screen.getByRole('textbox', { name: 'Certificate number' }), '  mta/2026/000123 {Enter}');
    await screen.findByRole('region', { name: 'Valid certificate' });
    expect(currentLocation.pathname).toBe('/verify/MTA/2026/000123');
    expect(currentLocation.search).toBe('');
    expect(screen.queryByText(C.numberFormat)).toBeNull();
    expect(server.asked).toEqual(['MTA/2026/000123']);
  });

  it('says so when no certificate has the number, and when the check could not be made', async () => {
    const first = renderAt('/verify/MTA/2026/999999');
    await screen.findByText(C.unknownNumber);
    expect(screen.getByText('No certificate found for MTA/2026/999999')).toBeTruthy();
    expect(screen.queryByRole('region', { name: /certificate$/ })).toBeNull();
    first.view.unmount();

    server.fail = networkError();
    const { user } = renderAt('/verify/MTA/2026/000123');
    await screen.findByText(C.loadFailed);
    server.fail = null;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('region', { name: 'Valid certificate' });
  });

  it('does not ask the server about an address that holds no certificate number', async () => {
    renderAt('/verify/not-a-number');
    await waitFor(() => expect(screen.getByText(C.numberFormat)).toBeTruthy());
    expect(server.asked).toEqual([]);
  });
});

describe('numberFromPath', () => {
  it('takes the plain path, one encoded segment and a trailing slash', () => {
    expect(numberFromPath('MTA/2026/000123')).toBe('MTA/2026/000123');
    expect(numberFromPath('MTA%2F2026%2F000123')).toBe('MTA/2026/000123');
    expect(numberFromPath('MTA/2026/000123/')).toBe('MTA/2026/000123');
    expect(numberFromPath('%E0%A4%A')).toBe('%E0%A4%A');
    expect(numberFromPath(undefined)).toBe('');
  });
});
