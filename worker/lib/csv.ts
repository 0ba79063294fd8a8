/**
 * RFC 4180 CSV reading: quoted fields with doubled quotes and line breaks inside quotes, CRLF or LF lines, a UTF-8
 * BOM dropped. The delimiter is `,` or `;` (spreadsheets in pt-BR save with `;`), chosen from the header line.
 * Each row keeps the line number it starts on, for reports.
 */
export function parseCsv(text: string): { header: string[]; rows: { line: number; cells: string[] }[] } {
  const src = text.replace(/^\uFEFF/, '')
  const firstLine = src.slice(0, src.search(/\r?\n|$/))
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ','
  const records: { line: number; cells: string[] }[] = []
  let cells: string[] = []
  let cell = ''
  let quoted = false
  let line = 1
  let start = 1
  for (let i = 0; i < src.length; i++) {
    const ch = src[i]
    if (quoted) {
      if (ch === '"' && src[i + 1] === '"') {
        cell += '"'
        i++
      } else if (ch === '"') quoted = false
      else {
        if (ch === '\n') line++
        cell += ch
      }
    } else if (ch === '"' && cell === '') quoted = true
    else if (ch === delimiter) {
      cells.push(cell)
      cell = ''
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && src[i + 1] === '\n') i++
      cells.push(cell)
      records.push({ line: start, cells })
      cells = []
      cell = ''
      line++
      start = line
    } else cell += ch
  }
  if (cell !== '' || cells.length) {
    cells.push(cell)
    records.push({ line: start, cells })
  }
  const nonEmpty = records.filter((r) => r.cells.some((c) => c.trim() !== ''))
  const [head, ...rows] = nonEmpty
  return { header: (head?.cells ?? []).map((h) => h.trim().toLowerCase()), rows }
}
