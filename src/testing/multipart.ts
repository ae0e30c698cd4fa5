/** Small real files, recognised by their bytes, for upload tests. */
/** A 1 × 1 PNG that decodes (pictures are re-encoded on the way in). */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000970485973000003e8000003e801b57b526b0000000d49444154089963e0b68df90f00029f01a470405d670000000049454e44ae426082',
  'hex',
);
/** A 2 × 2 baseline JPEG. */
export const JPEG = Buffer.from(
  '/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAACAAIDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAb/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAABAX/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCZAUgX/9k=',
  'base64',
);
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
export const HTML = Buffer.from('<!doctype html><html><script>alert(document.cookie)</script></html>');
export const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>');
/** The start of an ELF executable. */
export const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(56)]);

export type TFormPart = { name: string; value?: string; file?: Buffer; filename?: string; type?: string };

/** A multipart/form-data body as a browser sends it, for app.inject. */
export function form(parts: TFormPart[]) {
  const boundary = '----portal-test-boundary';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if (part.file) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${part.name}"; filename="${part.filename ?? 'upload.bin'}"\r\nContent-Type: ${part.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        part.file,
        Buffer.from('\r\n'),
      );
    } else {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value ?? ''}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A profile's text fields under the spec's multipart names, as POST /api/userProfile takes them. */
export const PROFILE_SPEC_FIELDS: Readonly<Record<string, string>> = {
  name: 'Arjun Nair',
  gradenumber: 'Grade II',
  phone: '+919876543210',
  DateofBirth: '1990-04-12',
  passportNumber: 'Z1234567',
  passportExpiryDate: '2034-01-31',
  indosNo: '19ZL1234',
  CDCnumber: 'MUM123456',
  CDCexpiryDate: '2033-06-30',
  IDType: 'aadhaar',
  streetAddress: '12 Marine Drive',
  city: 'Mumbai',
  state: 'Maharashtra',
  country: 'India',
  zipCode: '400002',
  consent: 'true',
};
