import { OCR_BASE, ocrLanguage } from '#shared/ocr'

/** What on-device transcription reports while it works: the page being read (1-based) and its progress (0..1). */
export type OcrProgress = { page: number; pages: number; progress: number }

/**
 * Reads the text of an essay's photographed pages on the student's device with tesseract.js (issue 17: no vision
 * provider in the realm). Loaded only when the student transcribes (this module is imported dynamically, and imports
 * tesseract.js dynamically): nothing of it is in the page's initial JS. The worker script, the wasm core and the
 * language data come from our own origin (`OCR_BASE`, copied there at build time), never a CDN; the worker is loaded
 * from its URL (not a blob), so the page's Content-Security-Policy stays as it is. The pages' texts are joined by a
 * blank line; an empty result is the caller's "no text detected".
 */
export async function recognizePages(images: (Blob | string)[], language: string, onProgress?: (p: OcrProgress) => void): Promise<string> {
  const { createWorker, OEM } = await import('tesseract.js')
  let page = 0
  const worker = await createWorker(ocrLanguage(language), OEM.LSTM_ONLY, {
    workerPath: `${OCR_BASE}/worker.min.js`,
    corePath: `${OCR_BASE}/core`,
    langPath: `${OCR_BASE}/lang`,
    workerBlobURL: false,
    gzip: true,
    logger: (m) => {
      if (m.status === 'recognizing text') onProgress?.({ page, pages: images.length, progress: m.progress })
    },
  })
  try {
    const texts: string[] = []
    for (const image of images) {
      page += 1
      onProgress?.({ page, pages: images.length, progress: 0 })
      const { data } = await worker.recognize(image)
      const text = data.text.replace(/[ \t]+\n/g, '\n').trim()
      if (text) texts.push(text)
    }
    return texts.join('\n\n')
  } finally {
    await worker.terminate()
  }
}
