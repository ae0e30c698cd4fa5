import { Font, pdf, View, type DocumentProps } from '@react-pdf/renderer';
import layoutDocument from '@react-pdf/layout';
import renderDocument from '@react-pdf/render';
import PDFDocument from 'pdfkit';
import type { ReactElement, ReactNode } from 'react';

/*
 * react-pdf's renderToBuffer, with one thing added: text that a reader must take as written, not
 * as drawn. A PDF's text layer is its glyphs in the order they are drawn, each mapped to its
 * characters; Devanagari draws a vowel sign before the consonant it follows in writing (कि is
 * drawn ि, क) and a reph after the letters it precedes (र्मा), so copying, searching or a
 * regulator's machine read "िकरण शमार्" for "किरण शर्मा". A marked-content span with ActualText
 * (PDF 1.5) gives readers the text itself for the glyphs drawn inside it.
 *
 * react-pdf draws no such span and hands its PDF writer to nobody, so this renders as it does (its
 * reconciler, layout and drawing; pdfkit the writer) into a writer of our own. A line to be read
 * as written is announced by an empty View before it and closed by one after it: react-pdf hands
 * the writer every id where it stands in the drawing. The line's runs (each drawn apart, in one
 * font, as one text object) are known beforehand (drawnRuns); the writer wraps each text object
 * in a span of its run's text, inside the text object's own coordinates, where readers place it.
 */

const READ_AS = 'certificate:read-as:';
const READ_AS_END = 'certificate:read-as-end';

/** pdfkit, taking the two ids above as the start and end of a line whose runs it marks with their text. */
class CertificateWriter extends PDFDocument {
  /** The texts of the runs of the line being drawn still to come; undefined outside such a line. */
  private runs: string[] | undefined;
  private inRun = false;

  override addNamedDestination(name: string, ...args: unknown[]): this {
    if (name.startsWith(READ_AS)) {
      this.runs = JSON.parse(name.slice(READ_AS.length)) as string[];
      return this;
    }
    if (name === READ_AS_END) {
      const left = this.runs?.length ?? 0;
      this.runs = undefined;
      if (left > 0) throw new Error(`a line was drawn in fewer runs than measured (${left} left)`);
      return this;
    }
    return super.addNamedDestination(name, ...args);
  }

  override addContent(data: string): this {
    if (data === 'BT' && this.runs) {
      const text = this.runs.shift();
      if (text === undefined) throw new Error('a line was drawn in more runs than measured');
      this.markContent('Span', { actual: text });
      this.inRun = true;
    }
    super.addContent(data);
    if (data === 'ET' && this.inRun) {
      this.inRun = false;
      this.endMarkedContent();
    }
    return this;
  }
}

/** `children` (one line, in one style) read as the texts of its runs, in order. */
export function ReadAs({ runs, children }: { runs: string[]; children: ReactNode }) {
  return (
    <>
      <View id={`${READ_AS}${JSON.stringify(runs)}`} />
      {children}
      <View id={READ_AS_END} />
    </>
  );
}

/** The PDF of a react-pdf Document, every ReadAs read as its text. */
export async function renderPdf(document: ReactElement<DocumentProps>): Promise<Buffer> {
  const { title, author, subject, creator, producer } = document.props;
  const writer = new CertificateWriter({
    compress: true,
    // ActualText came with PDF 1.5.
    pdfVersion: '1.5',
    autoFirstPage: false,
    displayTitle: true,
    info: Object.fromEntries(
      Object.entries({ Title: title, Author: author, Subject: subject, Creator: creator, Producer: producer, CreationDate: new Date() }).filter(([, value]) => value !== undefined),
    ),
  });
  const tree: unknown = pdf(document).container.document;
  const layout = await (layoutDocument as (value: unknown, fonts: typeof Font) => ReturnType<typeof layoutDocument>)(tree, Font);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    writer.on('data', (chunk: Buffer) => chunks.push(chunk));
    writer.on('end', () => resolve(Buffer.concat(chunks)));
    writer.on('error', reject);
  });
  (renderDocument as unknown as (ctx: PDFDocument, doc: Awaited<ReturnType<typeof layoutDocument>>) => PDFDocument)(writer, layout);
  return done;
}
