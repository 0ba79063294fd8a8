/**
 * On-device OCR (tesseract.js, issue 17 essay transcription): where the build puts its files on our own origin (no
 * CDN). `vite-ocr-assets.ts` copies them there from node_modules at build time; `app/lib/ocr.client.ts` points
 * tesseract.js at them. The version is in the path so a new tesseract.js never meets an old cached file.
 */
export const OCR_VERSION = '7.0.0'
export const OCR_BASE = `/ocr/tesseract-${OCR_VERSION}`

/** The worker script, the core (wasm embedded in JS, one file per CPU feature set: LSTM engine only) and the data. */
export const OCR_FILES = {
  worker: 'worker.min.js',
  core: ['tesseract-core-lstm.wasm.js', 'tesseract-core-simd-lstm.wasm.js', 'tesseract-core-relaxedsimd-lstm.wasm.js'],
  /** Traineddata shipped (`@tesseract.js-data/<lang>`, the compact `best_int` LSTM models). */
  languages: ['por', 'eng', 'spa'],
} as const

export type OcrLanguage = (typeof OCR_FILES.languages)[number]

/**
 * The traineddata for an essay's language (CONTENT_LANGUAGES): Portuguese, English and Spanish ship; French, Italian
 * and German essays are read with the English data (same Latin alphabet; accented letters may be missed).
 */
export function ocrLanguage(language: string): OcrLanguage {
  if (language.startsWith('pt')) return 'por'
  if (language.startsWith('es')) return 'spa'
  return 'eng'
}
