/**
 * The essay checker's spellers (worker/lib/speller.ts): build time and heap of each language's dictionary, and the
 * time to check a 300-word essay, in Node's V8 (the engine workerd runs; inside workerd the clock does not move
 * during synchronous work, so it cannot time itself). Prints figures, asserts nothing:
 * `node --expose-gc --import tsx tests/bench/speller-build.ts`.
 */
import { readFileSync } from 'node:fs'
import { hunspell } from '../../worker/lib/speller'

const ESSAY: Record<string, string> = {
  pt: 'A escola mudou muinto com a tecnologia e os alunos aprendem de outras formas. ',
  en: 'The school has changed a lot with technology and the studens learn in other ways. ',
  es: 'La escuela cambió mucho con la tecnologia y los alumnos aprenden de otras formas. ',
}
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {})
for (const lang of ['en', 'es', 'pt']) {
  const aff = readFileSync(`node_modules/dictionary-${lang}/index.aff`, 'utf8')
  const dic = readFileSync(`node_modules/dictionary-${lang}/index.dic`, 'utf8')
  gc()
  const before = process.memoryUsage().heapUsed
  let t = performance.now()
  const speller = hunspell(aff, dic)
  const build = performance.now() - t
  gc()
  const heap = (process.memoryUsage().heapUsed - before) / 1e6
  const words = ESSAY[lang].repeat(20).match(/\p{L}+/gu)!
  t = performance.now()
  const wrong = words.filter((w) => !speller.correct(w))
  const check = performance.now() - t
  t = performance.now()
  for (const w of new Set(wrong)) speller.suggest(w)
  const suggest = performance.now() - t
  console.log(
    `${lang}: build ${build.toFixed(0)} ms, heap +${heap.toFixed(1)} MB (files ${((aff.length + dic.length) / 1e6).toFixed(1)} M chars); ` +
      `${words.length} words checked in ${check.toFixed(1)} ms, suggestions for ${new Set(wrong).size} in ${suggest.toFixed(1)} ms`,
  )
}
