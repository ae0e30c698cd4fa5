import { describe, expect, it } from 'vitest';
import { csvCell, csvRow, csvStream } from './csv.ts';

describe('csv', () => {
  it('quotes cells with commas, quotes and line breaks, doubling the quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('Menon, Kavya')).toBe('"Menon, Kavya"');
    expect(csvCell('the "Bridge"')).toBe('"the ""Bridge"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(75.5)).toBe('75.5');
    expect(csvCell(true)).toBe('true');
  });

  it('keeps text a spreadsheet would run as a formula as text', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+91 98765')).toBe("'+91 98765");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    // Numbers are ours, not typed by anyone: a negative number stays a number.
    expect(csvCell(-2)).toBe('-2');
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('ends rows with CRLF and streams the header then every batch', async () => {
    expect(csvRow(['a', 1])).toBe('a,1\r\n');
    async function* batches() {
      yield [1, 2];
      yield [3];
    }
    let text = '';
    for await (const chunk of csvStream(['n'], batches(), (n) => [n])) text += String(chunk);
    expect(text).toBe('\uFEFFn\r\n1\r\n2\r\n3\r\n');
  });
});
