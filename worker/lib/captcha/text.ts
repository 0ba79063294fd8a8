import { intBetween, random } from './random'

/** Languages text challenges are asked in (the interface languages); others fall back to pt-BR. */
const WORDS = {
  'pt-BR': {
    numbers: [
      'zero',
      'um',
      'dois',
      'três',
      'quatro',
      'cinco',
      'seis',
      'sete',
      'oito',
      'nove',
      'dez',
      'onze',
      'doze',
      'treze',
      'catorze',
      'quinze',
      'dezesseis',
      'dezessete',
      'dezoito',
      'dezenove',
      'vinte',
    ],
    plus: (a: string, b: string) => `Quanto é ${a} mais ${b}?`,
    minus: (a: string, b: string) => `Quanto é ${a} menos ${b}?`,
  },
  'en-US': {
    numbers: [
      'zero',
      'one',
      'two',
      'three',
      'four',
      'five',
      'six',
      'seven',
      'eight',
      'nine',
      'ten',
      'eleven',
      'twelve',
      'thirteen',
      'fourteen',
      'fifteen',
      'sixteen',
      'seventeen',
      'eighteen',
      'nineteen',
      'twenty',
    ],
    plus: (a: string, b: string) => `What is ${a} plus ${b}?`,
    minus: (a: string, b: string) => `What is ${a} minus ${b}?`,
  },
  'es-ES': {
    numbers: [
      'cero',
      'uno',
      'dos',
      'tres',
      'cuatro',
      'cinco',
      'seis',
      'siete',
      'ocho',
      'nueve',
      'diez',
      'once',
      'doce',
      'trece',
      'catorce',
      'quince',
      'dieciséis',
      'diecisiete',
      'dieciocho',
      'diecinueve',
      'veinte',
    ],
    plus: (a: string, b: string) => `¿Cuánto es ${a} más ${b}?`,
    minus: (a: string, b: string) => `¿Cuánto es ${a} menos ${b}?`,
  },
} as const

export type TextLang = keyof typeof WORDS
export const TEXT_LANGS = Object.keys(WORDS) as TextLang[]

/** A sum or difference of two small numbers written in words; the answer is a number from 0 to 20. */
export function textQuestion(lang: string): { question: string; answer: string } {
  const words = WORDS[(TEXT_LANGS as string[]).includes(lang) ? (lang as TextLang) : 'pt-BR']
  const a = intBetween(2, 12)
  const b = intBetween(1, 8)
  if (random() < 0.5) return { question: words.plus(words.numbers[a], words.numbers[b]), answer: String(a + b) }
  const [big, small] = a >= b ? [a, b] : [b, a]
  return { question: words.minus(words.numbers[big], words.numbers[small]), answer: String(big - small) }
}

const byWord = new Map<string, number>(Object.values(WORDS).flatMap((w) => w.numbers.map((word, n) => [word.normalize('NFC'), n] as const)))

/** An answer as a canonical string: digits as they are, a number word (any language) as its digits. */
export function normalizeTextAnswer(answer: string): string {
  const clean = answer.trim().toLowerCase().normalize('NFC')
  if (/^\d{1,3}$/.test(clean)) return String(Number(clean))
  const n = byWord.get(clean)
  return n === undefined ? clean : String(n)
}
