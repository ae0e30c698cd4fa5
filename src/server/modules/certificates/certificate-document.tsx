import { Document, Page, Path, renderToBuffer, StyleSheet, Svg, Text, View } from '@react-pdf/renderer';
import QRCode from 'qrcode';

/** What a certificate says; every value is already the text to print. */
export type TCertificateContent = {
  academyName: string;
  academyCity: string;
  holderName: string;
  indosNo: string | null;
  courseTitle: string;
  /** The day the course was completed (the passing attempt), as printed. */
  completedOn: string;
  number: string;
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

const styles = StyleSheet.create({
  page: { backgroundColor: '#fdfcf8', padding: 22, fontFamily: 'Helvetica', color: NAVY },
  outer: { flexGrow: 1, borderWidth: 3, borderColor: NAVY, padding: 5 },
  inner: { flexGrow: 1, borderWidth: 1, borderColor: GOLD, paddingVertical: 26, paddingHorizontal: 48, alignItems: 'center' },
  academy: { fontSize: 15, letterSpacing: 3, textTransform: 'uppercase', fontFamily: 'Helvetica-Bold', color: SEA },
  city: { fontSize: 9, letterSpacing: 1.5, color: MUTED, marginTop: 3, textTransform: 'uppercase' },
  title: { fontFamily: 'Times-Bold', fontSize: 40, marginTop: 30, letterSpacing: 1 },
  rule: { width: 120, height: 2, backgroundColor: GOLD, marginTop: 10 },
  lead: { fontFamily: 'Times-Italic', fontSize: 15, color: MUTED, marginTop: 24 },
  holder: { fontFamily: 'Times-Bold', fontSize: 34, marginTop: 10, textAlign: 'center' },
  indos: { fontSize: 10, color: MUTED, marginTop: 5, letterSpacing: 0.5 },
  course: { fontFamily: 'Helvetica-Bold', fontSize: 20, marginTop: 10, textAlign: 'center', color: SEA },
  footer: { flexDirection: 'row', width: '100%', marginTop: 'auto', alignItems: 'flex-end', justifyContent: 'space-between' },
  column: { width: 210 },
  label: { fontSize: 8, color: MUTED, textTransform: 'uppercase', letterSpacing: 1 },
  value: { fontSize: 12, fontFamily: 'Helvetica-Bold', marginTop: 2, marginBottom: 8 },
  signature: { width: 210, alignItems: 'center' },
  signatureLine: { width: 190, borderBottomWidth: 1, borderColor: NAVY, height: 36 },
  signatureName: { fontSize: 10, marginTop: 5, fontFamily: 'Helvetica-Bold' },
  signatureRole: { fontSize: 8, color: MUTED, marginTop: 2 },
  qr: { width: 210, alignItems: 'flex-end' },
  qrCaption: { fontSize: 7, color: MUTED, marginTop: 4, textAlign: 'right', width: 210 },
  link: { fontSize: 7.5, color: MUTED, marginTop: 10, textAlign: 'center', width: '100%' },
  linkUrl: { fontFamily: 'Courier', color: NAVY },
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

function CertificateDocument({ content }: { content: TCertificateContent }) {
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
            <Text style={styles.holder}>{content.holderName}</Text>
            {content.indosNo ? <Text style={styles.indos}>INDOS No. {content.indosNo}</Text> : null}
            <Text style={styles.lead}>has successfully completed the course</Text>
            <Text style={styles.course}>{content.courseTitle}</Text>
            <View style={styles.footer}>
              <View style={styles.column}>
                <Text style={styles.label}>Certificate No.</Text>
                <Text style={styles.value}>{content.number}</Text>
                <Text style={styles.label}>Date of completion</Text>
                <Text style={styles.value}>{content.completedOn}</Text>
              </View>
              <View style={styles.signature}>
                <View style={styles.signatureLine} />
                <Text style={styles.signatureName}>Director of Training</Text>
                <Text style={styles.signatureRole}>{content.academyName}</Text>
              </View>
              <View style={styles.qr}>
                <Svg width={96} height={96} viewBox={`-4 -4 ${box} ${box}`}>
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

/** The certificate as a one-page A4 landscape PDF. */
export function renderCertificatePdf(content: TCertificateContent): Promise<Buffer> {
  return renderToBuffer(<CertificateDocument content={content} />);
}
