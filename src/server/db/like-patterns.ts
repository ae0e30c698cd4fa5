/** Text with LIKE's wildcards (`%`, `_`) and its escape character (`\`) taken literally. */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** `%text%`: values that contain the text. */
export const containsPattern = (text: string) => `%${likeLiteral(text)}%`;

/** `text%`: values that start with the text. */
export const prefixPattern = (text: string) => `${likeLiteral(text)}%`;
