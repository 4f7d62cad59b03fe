/** Plain-text (stdout) and Markdown renderings of one table: a header row and rows of cells. */

export interface Table {
  headers: string[];
  rows: string[][];
  /** Columns that hold numbers: right-aligned in text, `---:` in Markdown. */
  numeric?: boolean[];
}

export function renderText(table: Table): string {
  const widths = table.headers.map((h, c) => Math.max(h.length, ...table.rows.map((row) => (row[c] ?? '').length)));
  const line = (cells: string[]): string =>
    cells.map((cell, c) => (table.numeric?.[c] ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ').trimEnd();
  return [line(table.headers), widths.map((w) => '-'.repeat(w)).join('  '), ...table.rows.map(line)].join('\n');
}

export function renderMarkdown(table: Table): string {
  const escape = (cell: string): string => cell.replace(/\|/g, '\\|');
  const rule = table.headers.map((_, c) => (table.numeric?.[c] ? '---:' : '---'));
  return [table.headers, rule, ...table.rows].map((cells) => `| ${cells.map(escape).join(' | ')} |`).join('\n');
}
