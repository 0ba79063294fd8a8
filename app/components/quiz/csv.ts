/** A CSV file's text (RFC 4180 quoting) and a `data:` URL to download it from an anchor, built in the browser. */
export function csvText(rows: (string | number | boolean | null)[][]): string {
  return rows.map((r) => r.map((c) => (c === null ? '' : /[",\n;]/.test(String(c)) ? `"${String(c).replace(/"/g, '""')}"` : String(c))).join(',')).join('\r\n')
}
export const csvHref = (rows: (string | number | boolean | null)[][]) => `data:text/csv;charset=utf-8,${encodeURIComponent(`\uFEFF${csvText(rows)}`)}`
