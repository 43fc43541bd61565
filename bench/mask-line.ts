/** How the benches print a line of a real note: its values hidden (bench/real-credentials/README.md). */
/**
 * The line with anything that could be a value hidden: code spans, quoted text, the text after a
 * `:`/`=`/`/`, and every token holding a digit or a symbol; plain words (any script) stay, so
 * the shape of the sentence shows.
 */
export function maskLine(line: string): string {
  return line
    .replace(/`[^`]*`/g, '`⟦…⟧`')
    .replace(/"[^"]*"|'[^'\s][^']*'/g, '"⟦…⟧"')
    .replace(/([:=：/]\s*)(?!⟦)[^\s|,;)]+/g, '$1⟦…⟧')
    .replace(/[^\s|,;()[\]{}⟦⟧`"*]*[0-9!@#$%^&+~_\\-][^\s|,;()[\]{}⟦⟧`"*]*/gu, (t) =>
      /^[\p{L}]+$/u.test(t) || t.length < 3 ? t : '⟦…⟧',
    )
    .slice(0, 240);
}
