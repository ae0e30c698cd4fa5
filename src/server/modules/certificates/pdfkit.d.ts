/** The part of pdfkit (react-pdf's PDF writer, shipped without types) the certificate uses. */
declare module 'pdfkit' {
  import type { Readable } from 'node:stream';

  export default class PDFDocument extends Readable {
    constructor(options?: Record<string, unknown>);
    addNamedDestination(name: string, ...args: unknown[]): this;
    /** Writes operators to the current page's content stream. */
    addContent(data: string): this;
    /** Opens a marked-content sequence: with tag 'Span' and `actual`, the text a reader takes for what is drawn inside. */
    markContent(tag: string, options?: { actual?: string }): this;
    endMarkedContent(): this;
  }
}
