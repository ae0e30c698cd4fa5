import { Document, Page, Path, StyleSheet, Svg, Text, View, type Styles } from '@react-pdf/renderer';
import QRCode from 'qrcode';
import { fittedText, FONT_STACKS, loadCertificateFonts, loadedFonts, type TFittedText, type TTextBox } from './certificate-fonts.ts';
import { ReadAs, renderPdf } from './certificate-pdf.tsx';

/** What a certificate says; every value is already the text to print, and null is not printed. */
export type TCertificateContent = {
  academyName: string;
  academyCity: string;
  /** As on the certificate's holder snapshot, written as the holder writes it. */
  holderName: string;
  indosNo: string | null;
  dateOfBirth: string | null;
  passportNumber: string | null;
  courseTitle: string;
  courseCode: string | null;
  approvalNumber: string | null;
  number: string;
  /** 1 for the certificate as first issued; a re-issue prints its version. */
  version: number;
  issuedOn: string;
  /** The day this version was made, on a re-issue. */
  reissuedOn: string | null;
  /** The last day it is valid; null when it does not expire. */
  validUntil: string | null;
  /**
   * The public page that confirms the certificate, with its secret code beside the number: the QR
   * code holds it and the foot of the page prints it.
   */
  verifyUrl: string;
};

const NAVY = '#0b2545';
const SEA = '#0f766e';
const GOLD = '#b08d3c';
const MUTED = '#4a5b70';
const SERIF = FONT_STACKS.serif;
const SANS = FONT_STACKS.sans;

/** The width inside the frame: A4 landscape less the page's padding, both borders and the inner padding. */
const CONTENT_WIDTH = 841.89 - 2 * 22 - 2 * (3 + 5) - 2 * (1 + 48);
/** The holder's name and the course title keep these boxes whatever their length: the layout below never moves. */
const HOLDER_BOX: TTextBox = { width: CONTENT_WIDTH, height: 66, maxSize: 32, maxLines: 2 };
const COURSE_BOX: TTextBox = { width: CONTENT_WIDTH, height: 50, maxSize: 19, maxLines: 2 };

const styles = StyleSheet.create({
  page: { backgroundColor: '#fdfcf8', padding: 22, fontFamily: SANS, color: NAVY },
  outer: { flexGrow: 1, borderWidth: 3, borderColor: NAVY, padding: 5 },
  inner: { flexGrow: 1, borderWidth: 1, borderColor: GOLD, paddingVertical: 24, paddingHorizontal: 48, alignItems: 'center' },
  academy: { fontSize: 15, letterSpacing: 3, textTransform: 'uppercase', fontWeight: 700, color: SEA, textAlign: 'center' },
  city: { fontSize: 8.5, letterSpacing: 1.5, color: MUTED, marginTop: 1, textTransform: 'uppercase' },
  title: { fontFamily: SERIF, fontWeight: 700, fontSize: 34, marginTop: 16, letterSpacing: 0.5 },
  rule: { width: 120, height: 2, backgroundColor: GOLD, marginTop: 4 },
  lead: { fontFamily: SERIF, fontStyle: 'italic', fontSize: 13, color: MUTED, marginTop: 14 },
  box: { width: '100%', justifyContent: 'center', overflow: 'hidden' },
  holderBox: { height: HOLDER_BOX.height, marginTop: 4 },
  holder: { fontFamily: SERIF, fontWeight: 700, textAlign: 'center' },
  facts: { fontSize: 9.5, color: MUTED, marginTop: 3, letterSpacing: 0.3, textAlign: 'center' },
  factValue: { color: NAVY, fontWeight: 700 },
  courseBox: { height: COURSE_BOX.height, marginTop: 4 },
  course: { fontWeight: 700, textAlign: 'center', color: SEA },
  footer: { flexDirection: 'row', width: '100%', marginTop: 'auto', alignItems: 'flex-end', justifyContent: 'space-between' },
  column: { width: 210 },
  label: { fontSize: 7.5, color: MUTED, textTransform: 'uppercase', letterSpacing: 1 },
  value: { fontSize: 11.5, fontWeight: 700, marginTop: 1, marginBottom: 6 },
  version: { fontSize: 8, color: MUTED, marginBottom: 6 },
  signature: { width: 210, alignItems: 'center' },
  signatureLine: { width: 190, borderBottomWidth: 1, borderColor: NAVY, height: 36 },
  signatureName: { fontSize: 10, marginTop: 5, fontWeight: 700 },
  signatureRole: { fontSize: 8, color: MUTED, marginTop: 2, textAlign: 'center' },
  qr: { width: 210, alignItems: 'flex-end' },
  qrCaption: { fontSize: 7, color: MUTED, marginTop: 3, textAlign: 'right', width: 210 },
  link: { fontSize: 7.5, color: MUTED, marginTop: 8, textAlign: 'center', width: '100%' },
  linkUrl: { color: NAVY },
});

/** The QR code as one vector path (crisp at any zoom and in print), one unit per module. */
function qrPath(text: string): { size: number; d: string } {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const size = qr.modules.size;
  const parts: string[] = [];
  for (let row = 0; row < size; row += 1) {
    for (let col = 0; col < size; col += 1) {
      if (qr.modules.get(row, col)) parts.push(`M${col} ${row}h1v1h-1z`);
    }
  }
  return { size, d: parts.join('') };
}

/** Label and value pairs on one line, those without a value left out. */
function Facts({ facts }: { facts: Array<[string, string | null]> }) {
  const present = facts.filter((fact): fact is [string, string] => Boolean(fact[1]));
  if (present.length === 0) return null;
  return (
    <Text style={styles.facts}>
      {present.map(([label, value], index) => (
        <Text key={label}>
          {index > 0 ? '   ·   ' : ''}
          {label} <Text style={styles.factValue}>{value}</Text>
        </Text>
      ))}
    </Text>
  );
}

/**
 * Text set in its box as fitted: each line its own, centred, read as written (a Devanagari line's
 * glyphs are not drawn in the order it is written).
 */
function FittedLines({ text, style }: { text: TFittedText; style: Styles[string] }) {
  return text.lines.map((line, index) => (
    <ReadAs key={index} runs={line.runs}>
      <Text style={[style, { fontSize: text.size }]}>{line.text}</Text>
    </ReadAs>
  ));
}

type TSet = { holder: TFittedText; course: TFittedText };

function CertificateDocument({ content, set }: { content: TCertificateContent; set: TSet }) {
  const qr = qrPath(content.verifyUrl);
  // A quiet zone of four modules around the code, as readers expect.
  const box = qr.size + 8;
  return (
    <Document title={`Certificate ${content.number}`} author={content.academyName} subject={content.courseTitle} creator={content.academyName} producer={content.academyName}>
      <Page size="A4" orientation="landscape" style={styles.page}>
        <View style={styles.outer}>
          <View style={styles.inner}>
            <Text style={styles.academy}>{content.academyName}</Text>
            <Text style={styles.city}>{content.academyCity}</Text>
            <Text style={styles.title}>Certificate of Completion</Text>
            <View style={styles.rule} />
            <Text style={styles.lead}>This is to certify that</Text>
            <View style={[styles.box, styles.holderBox]}>
              <FittedLines text={set.holder} style={styles.holder} />
            </View>
            <Facts
              facts={[
                ['INDOS No.', content.indosNo],
                ['Date of birth', content.dateOfBirth],
                ['Passport No.', content.passportNumber],
              ]}
            />
            <Text style={styles.lead}>has successfully completed the course</Text>
            <View style={[styles.box, styles.courseBox]}>
              <FittedLines text={set.course} style={styles.course} />
            </View>
            <Facts
              facts={[
                ['Course code', content.courseCode],
                ['Approval No.', content.approvalNumber],
              ]}
            />
            <View style={styles.footer}>
              <View style={styles.column}>
                <Text style={styles.label}>Certificate No.</Text>
                <Text style={[styles.value, content.version > 1 ? { marginBottom: 1 } : {}]}>{content.number}</Text>
                {content.version > 1 ? (
                  <Text style={styles.version}>{`Version ${content.version}${content.reissuedOn ? `, re-issued ${content.reissuedOn}` : ''}`}</Text>
                ) : null}
                <Text style={styles.label}>Date of issue</Text>
                <Text style={styles.value}>{content.issuedOn}</Text>
                {content.validUntil ? (
                  <>
                    <Text style={styles.label}>Valid until</Text>
                    <Text style={styles.value}>{content.validUntil}</Text>
                  </>
                ) : null}
              </View>
              <View style={styles.signature}>
                <View style={styles.signatureLine} />
                <Text style={styles.signatureName}>Director of Training</Text>
                <Text style={styles.signatureRole}>{content.academyName}</Text>
              </View>
              <View style={styles.qr}>
                <Svg width={92} height={92} viewBox={`-4 -4 ${box} ${box}`}>
                  <Path d={qr.d} fill={NAVY} />
                </Svg>
                <Text style={styles.qrCaption}>Scan to verify</Text>
              </View>
            </View>
            {/* The whole link on one line across the foot: it is too long for the QR code's column. */}
            <Text style={styles.link}>
              Verify this certificate at <Text style={styles.linkUrl}>{content.verifyUrl}</Text>
            </Text>
          </View>
        </View>
      </Page>
    </Document>
  );
}

/**
 * The certificate as a one-page A4 landscape PDF, every font embedded. Text is normalised (NFC) so
 * a letter and its accent typed apart print as one glyph from one font; the name and the course
 * title are broken into lines here, between words, at the size that fits their boxes.
 */
export async function renderCertificatePdf(content: TCertificateContent): Promise<Buffer> {
  await loadCertificateFonts();
  const normalised = { ...content, holderName: content.holderName.normalize('NFC'), courseTitle: content.courseTitle.normalize('NFC') };
  const [serifBold, sansBold] = await Promise.all([loadedFonts('serif', 700), loadedFonts('sans', 700)]);
  const set = { holder: fittedText(serifBold, normalised.holderName, HOLDER_BOX), course: fittedText(sansBold, normalised.courseTitle, COURSE_BOX) };
  return renderPdf(<CertificateDocument content={normalised} set={set} />);
}
