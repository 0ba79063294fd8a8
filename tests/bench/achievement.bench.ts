import { localFetch as fetch } from '../support/local-fetch'
import { validQuestion } from '../support/tms-fixtures'
import { BENCH_CLASS, benchStudentToken } from './seed'
import type { BenchContext, Scenario } from './harness'

/**
 * A teacher finalizing corrections while goals watch the class (issue 19, goal categories): the realm's root publishes
 * three goals to `bench-class` — one on an activity category (a parent: its subcategory counts), one on a question
 * category, one on everything — and TASKS tasks of QUESTIONS questions each (half of them in the question category)
 * filed under the subcategory; STUDENTS students deliver every task. Each finalize recomputes the student's progress
 * in every goal (one activities statement per goal period over the period's tasks). Measured: finalizing half the
 * answers with the goals active, then the other half with the goals disabled (the recomputation finds no period): the
 * difference is the recomputation's cost. Prints figures; asserts nothing. BENCH_GOAL_TASKS, BENCH_GOAL_STUDENTS.
 */
export const title = 'Goal progress on correction (issue 19: categories filter the progress)'

const TASKS = Number(process.env.BENCH_GOAL_TASKS ?? 20)
const STUDENTS = Number(process.env.BENCH_GOAL_STUDENTS ?? 10)
const QUESTIONS = 10

async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

/** Runs `f` over `items`, `n` at a time. */
async function pooled<T, R>(items: T[], n: number, f: (x: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = []
  let next = 0
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const i = next++
        out[i] = await f(items[i], i)
      }
    }),
  )
  return out
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
  const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10)

  const category = async (name: string, parent_id?: string) =>
    (await json<{ id: string }>(await call(root, 'POST', 'tms/category', { name: `${name} ${tag}`, ...(parent_id ? { parent_id } : {}) }))).id
  const subject = await category('Bench goals subject')
  const topic = await category('Bench goals topic', subject)
  const questionCategory = await category('Bench goals questions')
  const objective = async (body: Record<string, unknown>) =>
    (await json<{ id: string }>(await call(root, 'POST', 'achievement/objective', { title: `Bench ${tag} ${body.entity}`, ...body }))).id
  const score = await objective({ entity: 'tasks', criteria: 'all', unit: 'score', percent: 0.5 })
  const answered = await objective({ entity: 'questions', criteria: 'all', unit: 'quantity', percent: 1 })
  const goals: string[] = []
  for (const [label, extra] of [
    ['activity category', { activity_categories: [subject] }],
    ['question category', { question_categories: [questionCategory] }],
    ['everything', {}],
  ] as const) {
    const model = await json<{ id: string }>(
      await call(root, 'POST', 'achievement/goal', {
        title: `Bench goal ${label} ${tag}`,
        objective_ids: [score, answered],
        awards: [{ title: 'Bench star', description: 'Half the marks', kind: 'product', progress: [{ objective_id: score, min: 1, max: 1 }] }],
        ...extra,
      }),
    )
    const goal = await json<{ id: string }>(
      await call(root, 'POST', `achievement/goal/${model.id}/publish`, { start_date: day(0), end_date: day(7), targets: [{ kind: 'room', id: BENCH_CLASS }] }),
    )
    goals.push(goal.id)
  }

  // The tasks: QUESTIONS single-choice questions, every other one in the question category; filed under the topic.
  type Question = { id: string; options: { id: string; answer: boolean }[] }
  const questions = Array.from({ length: QUESTIONS }, (_, i) => ({ ...validQuestion('single'), categories: i % 2 ? [] : [questionCategory] }))
  const tasks = await pooled(Array.from({ length: TASKS }), 4, async (_, i) => {
    const model = await json<{ id: string; questions: Question[] }>(await call(root, 'POST', 'tms/model', { title: `Bench goal task ${i} ${tag}`, questions }))
    const task = await json<{ id: string }>(await call(root, 'POST', 'tms/task', { model_id: model.id, rooms: [BENCH_CLASS], categories: [topic] }))
    return { id: task.id, answers: Object.fromEntries(model.questions.map((q) => [q.id, { option: q.options.find((o) => o.answer)!.id }])) }
  })
  const pairs = tasks.flatMap((t) => Array.from({ length: STUDENTS }, (_, s) => ({ task: t, student: benchStudentToken(s + 1) })))
  const answerIds = await pooled(pairs, 10, async ({ task, student }, i) => {
    const { receipt } = await json<{ receipt: string }>(await call(student, 'POST', `tms/answer-student/${task.id}/open`, {}))
    const res = await call(student, 'POST', `tms/answer-student/${task.id}/deliver`, { answer_id: `bench-goal-${tag}-${i}`, receipt, answers: task.answers })
    return (await json<{ id: string }>(res)).id
  })
  const half = Math.floor(answerIds.length / 2)
  const finalize = (offset: number) => async (i: number) => {
    const res = await call(root, 'PUT', `tms/answer/${answerIds[offset + i]}/correction`, { action: 'finalize' })
    if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`)
    await res.arrayBuffer()
  }
  const setting = `${TASKS} tasks × ${QUESTIONS} questions in the period`
  return [
    {
      name: `Correction finalize, 3 goals active (${setting})`,
      concurrency: 1,
      requests: half,
      run: finalize(0),
      after: async () => {
        const grants = await pooled(
          goals,
          3,
          async (id) => (await json<{ items: unknown[] }>(await call(root, 'GET', `achievement/goal/${id}/grants`))).items.length,
        )
        return `grants per goal (activity, question, everything): ${grants.join(', ')}`
      },
    },
    {
      name: `Correction finalize, the 3 goals disabled (${setting})`,
      concurrency: 1,
      requests: answerIds.length - half,
      before: async () => {
        for (const id of goals) await json(await call(root, 'PUT', `achievement/goal/${id}/status`, { status: 'canceled' }))
      },
      run: finalize(half),
    },
  ]
}
