import { describe, expect, it } from 'vitest'
import type { Question } from '#shared/schemas/tms/question'
import { autoScore, judgeWindow, shuffled, textCount, validCorrectionScore, WINDOW_TOLERANCE_MS } from '../../worker/lib/answer'
import { ANSWER_EVENTS, ANSWER_STATES, transition, type AnswerEvent, type AnswerState } from '../../worker/lib/answer-state'

type From = AnswerState | null
/**
 * Every allowed transition (seed 001 §4), with whether it needs the answer to have an AI comment (true), to have none
 * (false) or either (undefined); every other pair of state and event is refused.
 */
const ALLOWED: [From, AnswerEvent, AnswerState, boolean | undefined][] = [
  [null, 'save_draft', 'draft', undefined],
  ['draft', 'save_draft', 'draft', undefined],
  ['pending', 'save_draft', 'pending', undefined],
  [null, 'deliver', 'submitted', undefined],
  ['draft', 'deliver', 'submitted', undefined],
  ['pending', 'deliver', 'submitted', undefined],
  ['submitted', 'save_correction', 'review', undefined],
  ['review', 'save_correction', 'review', undefined],
  ['submitted', 'finalize', 'finished', false],
  ['review', 'finalize', 'finished', false],
  ['submitted', 'finalize', 'pending_agreement', true],
  ['review', 'finalize', 'pending_agreement', true],
  ['submitted', 'request_adjustments', 'pending', undefined],
  ['review', 'request_adjustments', 'pending', undefined],
  ['pending_agreement', 'send_opinion', 'finished', undefined],
  ['finished', 'send_opinion', 'finished', true],
]

/** The cause of each refusal, by event and state. */
function expectedCause(from: From, event: AnswerEvent): string {
  if (event === 'save_draft' || event === 'deliver') return 'already_submitted'
  if (event === 'send_opinion') return 'opinion_not_open'
  if (from === null || from === 'draft' || from === 'pending') return 'not_delivered'
  return 'correction_finalized'
}

describe('answer state machine (seed 001 §4)', () => {
  for (const from of [null, ...ANSWER_STATES] as From[]) {
    for (const event of ANSWER_EVENTS) {
      for (const ai of [false, true]) {
        const allowed = ALLOWED.find(([f, e, , needs]) => f === from && e === event && (needs === undefined || needs === ai))
        it(`${from ?? '(none)'} --${event}${ai ? ' (AI comment)' : ''}--> ${allowed ? allowed[2] : 'refused'}`, () => {
          const result = transition(from, event, { aiComment: ai })
          if (allowed) expect(result).toEqual({ ok: true, to: allowed[2] })
          else expect(result).toEqual({ ok: false, cause: expectedCause(from, event) })
        })
      }
    }
  }
})

describe('the time window of a delivery', () => {
  const base = {
    now: 1_000_000_000,
    openedAt: 1_000_000_000 - 20 * 60_000,
    expireAt: 1_000_000_000 + 60 * 60_000,
    correctAt: null,
    minMinutes: 0,
    maxMinutes: 0,
  }
  it('online: the server’s clock; the maximum time with its tolerance, the minimum without', () => {
    expect(judgeWindow(base)).toMatchObject({ ok: true, delivery: 'on_time', elapsedMs: 20 * 60_000 })
    expect(judgeWindow({ ...base, maxMinutes: 20 })).toMatchObject({ ok: true })
    expect(judgeWindow({ ...base, maxMinutes: 19 })).toMatchObject({ ok: false, cause: 'max_time_reached' })
    // 19 minutes and the tolerance: still in; a millisecond more: out.
    expect(judgeWindow({ ...base, now: base.now - 60_000 + WINDOW_TOLERANCE_MS, maxMinutes: 19 })).toMatchObject({ ok: true })
    expect(judgeWindow({ ...base, now: base.now - 60_000 + WINDOW_TOLERANCE_MS + 1, maxMinutes: 19 })).toMatchObject({ ok: false, cause: 'max_time_reached' })
    expect(judgeWindow({ ...base, minMinutes: 21 })).toMatchObject({ ok: false, cause: 'min_time_not_reached' })
    expect(judgeWindow({ ...base, minMinutes: 21, draft: true })).toMatchObject({ ok: true })
    expect(judgeWindow({ ...base, expireAt: base.now - WINDOW_TOLERANCE_MS - 1 })).toMatchObject({ ok: false, cause: 'deadline_ended' })
    expect(judgeWindow({ ...base, expireAt: base.now - WINDOW_TOLERANCE_MS + 1 })).toMatchObject({ ok: true, delivery: 'on_time' })
  })
  it('offline: the signed open time plus the device’s elapsed time, never more than has passed', () => {
    const late = { ...base, expireAt: base.now - 5 * 60_000 }
    expect(judgeWindow({ ...late, offlineElapsedMs: 10 * 60_000 })).toMatchObject({ ok: true, delivery: 'delayed', finishedAt: base.openedAt + 10 * 60_000 })
    expect(judgeWindow({ ...late, offlineElapsedMs: 16 * 60_000 })).toMatchObject({ ok: false, cause: 'deadline_ended' })
    expect(judgeWindow({ ...late, offlineElapsedMs: 20 * 60_000 + WINDOW_TOLERANCE_MS + 1 })).toMatchObject({ ok: false, cause: 'elapsed_invalid' })
    expect(judgeWindow({ ...late, correctAt: base.now - 1, offlineElapsedMs: 10 * 60_000 })).toMatchObject({ ok: false, cause: 'deadline_ended' })
    expect(judgeWindow({ ...base, offlineElapsedMs: 5 * 60_000, maxMinutes: 4 })).toMatchObject({ ok: false, cause: 'max_time_reached' })
    expect(judgeWindow({ ...base, offlineElapsedMs: 5 * 60_000 })).toMatchObject({ ok: true, delivery: 'on_time', elapsedMs: 5 * 60_000 })
  })
})

describe('scores', () => {
  const multi = {
    id: 'q1',
    type: 'multi',
    score: 3,
    partial_score: true,
    options: [
      { id: 'a', answer: true },
      { id: 'b', answer: true },
      { id: 'c', answer: true },
      { id: 'd', answer: false },
    ],
  } as unknown as Question
  it('scores multi in part: (right − wrong) ÷ correct, never below 0, in thousandths', () => {
    expect(autoScore(multi, { options: ['a', 'b', 'c'] })).toBe(3)
    expect(autoScore(multi, { options: ['a'] })).toBe(1)
    expect(autoScore(multi, { options: ['a', 'b', 'd'] })).toBe(1)
    expect(autoScore(multi, { options: ['a', 'd'] })).toBe(0)
    expect(autoScore(multi, { options: ['d'] })).toBe(0)
    expect(autoScore({ ...multi, score: 1 } as Question, { options: ['a'] })).toBe(0.333)
    expect(autoScore({ ...multi, partial_score: false } as Question, { options: ['a', 'b'] })).toBe(0)
    expect(autoScore(multi, undefined)).toBe(0)
    expect(autoScore({ id: 'q2', type: 'text', score: 2, options: {} } as unknown as Question, { text: 'x' })).toBeNull()
  })
  it('accepts a teacher’s score only from 0 to the question’s score, on the step (0.01)', () => {
    const q = { score: 2 } as Question
    for (const ok of [0, 0.01, 1.5, 1.99, 2]) expect(validCorrectionScore(q, ok), String(ok)).toBe(true)
    for (const bad of [-0.01, 2.01, 0.005, 1.2345, 3]) expect(validCorrectionScore(q, bad), String(bad)).toBe(false)
  })
  it('counts words, or an essay’s non-empty lines', () => {
    expect(textCount('  one two\n three  ')).toBe(3)
    expect(textCount('line one\n\n  \nline two\r\nthree', 'line')).toBe(3)
    expect(textCount('')).toBe(0)
  })
  it('shuffles the same way for the same seed', () => {
    const xs = Array.from({ length: 20 }, (_, i) => i)
    expect(shuffled(xs, 's1')).toEqual(shuffled(xs, 's1'))
    expect(shuffled(xs, 's1')).not.toEqual(xs)
    expect([...shuffled(xs, 's2')].sort((a, b) => a - b)).toEqual(xs)
  })
})
