import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TCertificateVerification } from '../../../shared/schemas/certificate.ts';
import { VerifyPage, numberFromPath } from '@/features/certificates/verify-page.tsx';
import { TEST_SITE, currentLocation, networkError, renderWithServer, serverError } from '@/testing/fake-trpc.tsx';

const C = MESSAGES.certificate;

/** certificates.verify over two certificates, one of them revoked. */
const server = {
  certificates: [] as TCertificateVerification[],
  asked: [] as string[],
  fail: null as Error | null,
};

function answer(path: string, input: Record<string, unknown>): unknown {
  if (path !== 'certificates.verify') throw new Error(`unexpected call ${path}`);
  server.asked.push(String(input.number));
  if (server.fail) throw server.fail;
  const found = server.certificates.find((item) => item.number === input.number);
  if (!found) throw serverError(404, C.unknownNumber);
  return found;
}

const renderAt = (url: string) => renderWithServer(<VerifyPage />, { url, pattern: '/verify/*', answer });

beforeEach(() => {
  server.asked = [];
  server.fail = null;
  server.certificates = [
    { number: 'MTA/2026/000123', state: 'valid', holderName: 'Arjun Nair', courseTitle: 'Fire Prevention and Fire Fighting', issuedAt: '2026-11-24T09:03:05.000Z' },
    { number: 'MTA/2026/000124', state: 'revoked', holderName: 'Meera Iyer', courseTitle: 'Personal Survival Techniques', issuedAt: '2026-10-02T11:00:00.000Z' },
  ];
  document.head.querySelector('meta[name="robots"]')?.remove();
});

describe('the certificate check', { timeout: 20_000 }, () => {
  it('reads the number from the plain path and shows a valid certificate: holder, course and date, nothing more', async () => {
    renderAt('/verify/MTA/2026/000123');
    const card = await screen.findByRole('region', { name: 'Valid certificate' });
    expect(within(card).getByText('Arjun Nair')).toBeTruthy();
    expect(within(card).getByText('Fire Prevention and Fire Fighting')).toBeTruthy();
    expect(within(card).getByText('24 Nov 2026')).toBeTruthy();
    expect(within(card).getByText('MTA/2026/000123')).toBeTruthy();
    expect(within(card).getAllByRole('definition')).toHaveLength(4);
    expect(within(card).getByText(`Issued by ${TEST_SITE.name} to the person named below.`)).toBeTruthy();
    expect(server.asked).toEqual(['MTA/2026/000123']);
    expect((screen.getByRole('textbox', { name: 'Certificate number' }) as HTMLInputElement).value).toBe('MTA/2026/000123');
    expect(document.title).toBe(`Certificate MTA/2026/000123 · ${TEST_SITE.name}`);
    // A page about one person is not for search engines.
    expect(document.head.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
  });

  it('reads the number from one encoded segment, and says when a certificate is revoked', async () => {
    renderAt('/verify/MTA%2F2026%2F000124');
    const card = await screen.findByRole('region', { name: 'Revoked certificate' });
    expect(within(card).getByText(`${C.revoked} It is no longer valid.`)).toBeTruthy();
    expect(within(card).getByText('Meera Iyer')).toBeTruthy();
    expect(server.asked).toEqual(['MTA/2026/000124']);
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
