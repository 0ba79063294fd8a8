import { unzipSync } from 'fflate'
import { sentences } from './retrieval'

/**
 * Text extraction of knowledge files (issue 16 "knowledge": PDF with a library that runs in Workers, PPTX by reading
 * the slide XML, TXT as is) and their cutting into retrieval chunks. Each section keeps where it came from (a page, a
 * slide), so a quoted passage can say so.
 */

export type KnowledgeFileType = 'pdf' | 'pptx' | 'txt'

/** A part of a document: a PDF page, a slide, or the whole text file. */
export interface Section {
  /** 1-based page or slide number (1 for a text file). */
  at: number
  text: string
}

/** Why a file could not be read (the knowledge item fails with it). */
export class ExtractError extends Error {
  constructor(readonly reason: 'unreadable' | 'empty' | 'too_large') {
    super(reason)
  }
}

/** Largest uncompressed slide XML read from a PPTX (a zip bomb stops here). */
const MAX_SLIDE_BYTES = 5 * 1024 * 1024
/** Most slides read from one presentation. */
const MAX_SLIDES = 1000

/** The sections of a file's text; fails `unreadable` for a file that is not what its type says, `empty` without text. */
export async function extractSections(type: KnowledgeFileType, bytes: Uint8Array): Promise<Section[]> {
  const sections = type === 'pdf' ? await pdfSections(bytes) : type === 'pptx' ? pptxSections(bytes) : [{ at: 1, text: decodeText(bytes) }]
  const kept = sections.map((s) => ({ at: s.at, text: normalize(s.text) })).filter((s) => s.text)
  if (!kept.length) throw new ExtractError('empty')
  return kept
}

/** PDF pages with pdf.js's serverless build (unpdf), loaded only when a PDF is read. */
async function pdfSections(bytes: Uint8Array): Promise<Section[]> {
  const { extractText, getDocumentProxy } = await import('unpdf')
  try {
    // verbosity 0: pdf.js logs only errors (a broken file is our refusal, not a console warning).
    const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 })
    const { text } = await extractText(pdf, { mergePages: false })
    return text.map((t, i) => ({ at: i + 1, text: t }))
  } catch {
    throw new ExtractError('unreadable')
  }
}

/** Slides of a PPTX: `ppt/slides/slideN.xml` in slide order, each paragraph's runs (`<a:t>`) joined. */
function pptxSections(bytes: Uint8Array): Section[] {
  let files: Record<string, Uint8Array>
  try {
    files = unzipSync(bytes, {
      filter: (f) => /^ppt\/slides\/slide\d+\.xml$/.test(f.name) && f.originalSize <= MAX_SLIDE_BYTES,
    })
  } catch {
    throw new ExtractError('unreadable')
  }
  const slides = Object.keys(files)
    .map((name) => ({ name, n: Number(/slide(\d+)\.xml$/.exec(name)?.[1]) }))
    .sort((a, b) => a.n - b.n)
    .slice(0, MAX_SLIDES)
  if (!slides.length) throw new ExtractError('unreadable')
  const decoder = new TextDecoder()
  return slides.map(({ name, n }) => ({ at: n, text: slideText(decoder.decode(files[name])) }))
}

/** The text of one slide's XML: each `<a:p>` a line, its `<a:t>` runs joined. */
export function slideText(xml: string): string {
  const lines: string[] = []
  for (const p of xml.match(/<a:p\b[\s\S]*?<\/a:p>/g) ?? []) {
    const runs = [...p.matchAll(/<a:t>([\s\S]*?)<\/a:t>/g)].map((m) => xmlText(m[1]))
    const line = runs.join('')
    if (line.trim()) lines.push(line)
  }
  return lines.join('\n')
}

function xmlText(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|amp|quot|apos);/gi, (_, e: string) => {
    const lower = e.toLowerCase()
    if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16))
    if (lower.startsWith('#')) return String.fromCodePoint(parseInt(lower.slice(1), 10))
    return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }[lower] ?? ''
  })
}

/** A text file: UTF-8 (a BOM dropped), else Windows-1252 (older Portuguese and Spanish files). */
export function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes)
  } catch {
    return new TextDecoder('windows-1252').decode(bytes)
  }
}

/** Spaces and line ends tidied: runs of spaces to one, blank lines kept as paragraph breaks, control characters dropped. */
function normalize(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/\p{Cc}/gu, (c) => (c === '\n' ? c : ''))
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

/** A retrieval chunk of a knowledge item: its position, the page or slide it starts on, and its text. */
export interface TextChunk {
  position: number
  at: number
  text: string
}

/** Target size of a chunk in characters: a few sentences, enough to answer from and short enough to quote. */
export const CHUNK_CHARS = 800

/**
 * The chunks of a document: each section's sentences packed in order into chunks of about CHUNK_CHARS (a sentence
 * is never split unless it alone is longer), one sentence a line, never across a page or slide, so each chunk names
 * where it is.
 */
export function chunkSections(sections: Section[], size = CHUNK_CHARS): TextChunk[] {
  const out: TextChunk[] = []
  for (const section of sections) {
    let current = ''
    const flush = () => {
      if (current.trim()) out.push({ position: out.length, at: section.at, text: current.trim() })
      current = ''
    }
    for (const sentence of sentences(section.text)) {
      const pieces = sentence.length > size ? (sentence.match(new RegExp(`[\\s\\S]{1,${size}}(?=\\s|$)`, 'g')) ?? [sentence]) : [sentence]
      for (const [i, piece] of pieces.entries()) {
        if (current && current.length + 1 + piece.length > size) flush()
        // Sentences (and lines, such as a slide's title) stay one a line, so a quote never runs two together.
        current = current ? `${current}${i === 0 ? '\n' : ' '}${piece}` : piece
      }
    }
    flush()
  }
  return out
}
