import { localFetch as fetch } from '../support/local-fetch'
import { validQuestion } from '../support/tms-fixtures'
import { BENCH_CLASS, BENCH_ROWS, benchStudentToken } from './seed'
import type { BenchContext, Scenario } from './harness'

/**
 * 500 students delivering the same exam within one minute (issue 17). The bench realm's class (tests/bench/seed.ts:
 * room `bench-class`, its students' web sessions) gets one exam published by the realm's root through the API; each
 * student opens it (the signed start receipt) and then delivers it, over real HTTP against the started server, as a
 * phone would. Two exams, each opened by every student first:
 * - **burst**: the deliveries go as fast as the server takes them, CONCURRENCY in flight (the end of an exam, everybody
 *   pressing "deliver" at once): deliveries accepted per second, and whether all fit in one minute;
 * - **paced**: the deliveries spread evenly over WINDOW seconds (500 in one minute: one every 120 ms), the latency a
 *   student sees at the issue's rate.
 * Each prints p50/p99 of a delivery and the lost deliveries — accepted (201) by the API but not stored — counted
 * afterwards from the teacher's answer list (the task's rows in `submitted`). Prints figures; asserts nothing.
 * BENCH_DELIVERY_STUDENTS (at most the class's 500), BENCH_DELIVERY_CONCURRENCY and BENCH_DELIVERY_WINDOW_S (seconds)
 * change the run.
 */
export const title = 'Exam delivery (500 students)'

const CLASS_SIZE = BENCH_ROWS['students in bench-class']
const STUDENTS = Math.min(CLASS_SIZE, Number(process.env.BENCH_DELIVERY_STUDENTS ?? CLASS_SIZE))
const CONCURRENCY = Number(process.env.BENCH_DELIVERY_CONCURRENCY ?? 50)
const WINDOW_S = Number(process.env.BENCH_DELIVERY_WINDOW_S ?? 60)
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

/** The exam: objective questions (scored on delivery) and a written answer (at least 10 words). */
const EXAM = (['single', 'multi', 'order_sentences', 'text'] as const).map(validQuestion)

interface Question {
  id: string
  type: string
  options: { id: string; answer: boolean }[]
}

export async function scenarios(ctx: BenchContext): Promise<Scenario[]> {
  const api = ctx.base('bench.localhost') + '/api'
  const headers = { 'content-type': 'application/json', 'x-api-realm': 'bench' }
  const { auth_token: root } = await json<{ auth_token: string }>(
    await fetch(`${api}/device`, { method: 'POST', headers, body: JSON.stringify({ realm: 'bench', nick: 'root', password: 'demo1234' }) }),
  )
  const call = (token: string, method: string, path: string, body?: unknown) =>
    fetch(`${api}/${path}`, { method, headers: { ...headers, 'x-api-key': token }, body: body === undefined ? undefined : JSON.stringify(body) })
  const tag = Date.now().toString(36)
  const student = (i: number) => benchStudentToken(i + 1)

  /** One exam published to the class: its open scenario and its delivery scenario (paced over `windowS`, or a burst). */
  async function exam(label: string, windowS: number | null): Promise<Scenario[]> {
    const model = await json<{ id: string; questions: Question[] }>(
      await call(root, 'POST', 'tms/model', { title: `Bench exam ${label} ${tag}`, questions: EXAM }),
    )
    const task = await json<{ id: string }>(await call(root, 'POST', 'tms/task', { model_id: model.id, rooms: [BENCH_CLASS] }))
    const byType = (type: string) => model.questions.find((q) => q.type === type)!
    // Every student answers the same (the right options, the sentences in order, a short text).
    const answers = {
      [byType('single').id]: { option: byType('single').options.find((o) => o.answer)!.id },
      [byType('multi').id]: {
        options: byType('multi')
          .options.filter((o) => o.answer)
          .map((o) => o.id),
      },
      [byType('order_sentences').id]: { words: ['Wake up', 'Brush teeth', 'Go to school'] },
      [byType('text').id]: { text: 'Plants turn light, water and carbon dioxide into sugar and oxygen.' },
    }
    const receipts: string[] = []
    let accepted = 0
    let started = 0
    const refusals = new Map<string, number>()
    const how = windowS === null ? `${CONCURRENCY} in flight` : `spread over ${windowS} s`
    return [
      {
        name: `Exam open (${label}): ${STUDENTS} students open it (start receipt)`,
        concurrency: CONCURRENCY,
        requests: STUDENTS,
        async run(i) {
          receipts[i] = (await json<{ receipt: string }>(await call(student(i), 'POST', `tms/answer-student/${task.id}/open`, {}))).receipt
        },
      },
      {
        name: `Exam delivery (${label}): ${STUDENTS} students deliver, ${how} (POST …/deliver)`,
        // Paced, every delivery waits for its moment (outside its timing): as many in flight as the server needs.
        concurrency: windowS === null ? CONCURRENCY : STUDENTS,
        requests: STUDENTS,
        before: async () => {
          started = performance.now()
        },
        beforeEach: windowS === null ? undefined : async (i) => sleep(started + (i * windowS * 1000) / STUDENTS - performance.now()),
        async run(i) {
          if (!receipts[i]) throw new Error('not opened')
          const res = await call(student(i), 'POST', `tms/answer-student/${task.id}/deliver`, {
            answer_id: `bench-${label}-${tag}-${i}`,
            receipt: receipts[i],
            answers,
          })
          if (res.status === 201) {
            accepted++
            await res.body?.cancel()
            return
          }
          const cause = `${res.status} ${((await res.json().catch(() => ({}))) as { errors?: { cause: string }[] }).errors?.[0]?.cause ?? ''}`
          refusals.set(cause, (refusals.get(cause) ?? 0) + 1)
          throw new Error(cause)
        },
        after: async () => {
          // The rows afterwards: the task's answers the teacher's list counts as submitted.
          const stored = (await json<{ total: number }>(await call(root, 'GET', `tms/answer?task_id=${task.id}&status=submitted&limit=1`))).total
          const refused = [...refusals].map(([cause, n]) => `${n}× ${cause}`).join(', ')
          return (
            `${accepted}/${STUDENTS} accepted, ${stored} stored as submitted: ${Math.max(0, accepted - stored)} lost` +
            (refused ? `; refused: ${refused}` : '') +
            (STUDENTS < CLASS_SIZE ? ` (scaled: ${STUDENTS} of ${CLASS_SIZE} students)` : '')
          )
        },
      },
    ]
  }

  return [...(await exam('burst', null)), ...(await exam('paced', WINDOW_S))]
}
