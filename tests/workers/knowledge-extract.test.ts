import { inject } from 'vitest'
import { describe, expect, it } from 'vitest'
import { zipSync, strToU8 } from 'fflate'
import { chunkSections, decodeText, extractSections, ExtractError, slideText } from '../../worker/ai/extract'

const fixture = (name: string) => Uint8Array.from(atob(inject('knowledgeFixtures')[name]), (c) => c.charCodeAt(0))

async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p
  } catch (err) {
    return err
  }
  throw new Error('expected a failure')
}

describe('knowledge text extraction (real files)', () => {
  it('reads a PDF page by page with the PDF library, accents included', async () => {
    const pages = await extractSections('pdf', fixture('biologia.pdf'))
    expect(pages.map((p) => p.at)).toEqual([1, 2])
    expect(pages[0].text).toContain('A fotossíntese acontece nos cloroplastos das células das folhas.')
    expect(pages[1].text).toContain('A respiração celular acontece nas mitocôndrias.')
  })

  it('reads a PPTX slide by slide in slide order (not the zip’s), paragraph per line, entities decoded', async () => {
    const slides = await extractSections('pptx', fixture('sistema-solar.pptx'))
    expect(slides.map((s) => s.at)).toEqual([1, 2, 3])
    expect(slides[0].text).toBe('O sistema solar\nO Sol é a estrela do sistema solar.\nOito planetas giram ao redor do Sol.')
    expect(slides[1].text).toContain('Mercúrio, Vênus, Terra e Marte são planetas rochosos & pequenos.')
    expect(slideText('<a:p><a:r><a:t>A</a:t></a:r><a:r><a:t>&lt;b&gt; &#233;</a:t></a:r></a:p>')).toBe('A<b> é')
  })

  it('reads a TXT as UTF-8, or as Windows-1252 when it is not UTF-8', async () => {
    const [txt] = await extractSections('txt', fixture('ciclo-da-agua.txt'))
    expect(txt.text.startsWith('O ciclo da água\n\nA água evapora')).toBe(true)
    expect(decodeText(Uint8Array.from([0x61, 0xe7, 0xe3, 0x6f]))).toBe('ação')
    expect(decodeText(Uint8Array.from([0xef, 0xbb, 0xbf, 0x6f, 0x69]))).toBe('oi')
  })

  it('fails a file that is not what its type says, and one without text', async () => {
    expect(await failure(extractSections('pdf', fixture('ciclo-da-agua.txt')))).toMatchObject({ reason: 'unreadable' })
    expect(await failure(extractSections('pptx', fixture('biologia.pdf')))).toBeInstanceOf(ExtractError)
    expect(await failure(extractSections('pptx', zipSync({ 'word/document.xml': strToU8('<w:document/>') })))).toMatchObject({ reason: 'unreadable' })
    expect(await failure(extractSections('txt', strToU8('  \n\n  ')))).toMatchObject({ reason: 'empty' })
  })

  it('cuts sections into chunks of whole sentences that never cross a page', async () => {
    const pages = await extractSections('pdf', fixture('biologia.pdf'))
    const chunks = chunkSections(pages, 80)
    expect(chunks.every((c) => c.text.length <= 80 || !c.text.includes('. '))).toBe(true)
    expect(new Set(chunks.map((c) => c.at))).toEqual(new Set([1, 2]))
    expect(chunks.map((c) => c.position)).toEqual(chunks.map((_, i) => i))
    expect(chunks.map((c) => c.text).join(' ')).toContain('As plantas usam luz, água e gás carbônico para produzir glicose e liberar oxigênio.')
    const long = chunkSections([{ at: 1, text: 'palavra '.repeat(300) }], 100)
    expect(long.every((c) => c.text.length <= 100)).toBe(true)
    expect(
      long
        .map((c) => c.text)
        .join(' ')
        .split(' ').length,
    ).toBe(300)
  })
})
