import { type TSignedRecordFields, offlineRecordText } from '../../../shared/offline-record.ts';

/*
 * The device's signature of a watch record: HMAC-SHA256 over offlineRecordText with the
 * download's record key (the key's text, UTF-8, as the HMAC key), base64url without padding:
 * exactly what the server checks, so a record edited after it was signed is refused.
 */

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

function hmacKey(recordKey: string): Promise<CryptoKey> {
  let key = keys.get(recordKey);
  if (!key) {
    key = crypto.subtle.importKey('raw', encoder.encode(recordKey), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    keys.set(recordKey, key);
  }
  return key;
}

function base64url(bytes: ArrayBuffer): string {
  let binary = '';
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

export async function signRecord(recordKey: string, downloadId: string, record: TSignedRecordFields): Promise<string> {
  const signature = await crypto.subtle.sign('HMAC', await hmacKey(recordKey), encoder.encode(offlineRecordText(downloadId, record)));
  return base64url(signature);
}
