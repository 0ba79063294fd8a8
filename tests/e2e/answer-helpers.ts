/** What the student-loop browser tests share (issue 17): a student's own API client, and publishing a model's task. */
import { realmApi, url } from './browser'

/** The student API of the demo realm as `nick` (a token from POST /api/device): statuses kept, for refusals. */
export async function studentApi(nick: string, password: string) {
  const headers = { 'content-type': 'application/json', 'x-api-realm': 'demo' }
  const res = await fetch(url('localhost', '/api/device'), { method: 'POST', headers, body: JSON.stringify({ realm: 'demo', nick, password }) })
  const { auth_token } = (await res.json()) as { auth_token: string }
  return async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const r = await fetch(url('localhost', `/api/${path}`), {
      method,
      headers: { ...headers, 'x-api-key': auth_token },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: r.status, body: (await r.json()) as T }
  }
}

type Teacher = Awaited<ReturnType<typeof realmApi>>

/** Publishes the model to the room now, with the realm's required categories (a selectable one under each root). */
export async function publishModel(teacher: Teacher, modelId: string, roomId: string, publication: Record<string, unknown> = {}) {
  const { categories } = await teacher<{ categories: { id: string; parent_id: string | null; required: boolean; selectable: boolean }[] }>(
    'GET',
    `tms/task/options/${modelId}`,
  )
  const under = (id: string): string | undefined => {
    const children = categories.filter((c) => c.parent_id === id)
    return children.find((c) => c.selectable)?.id ?? children.map((c) => under(c.id)).find(Boolean)
  }
  const chosen = categories.filter((c) => c.required && !c.parent_id).map((r) => (r.selectable ? r.id : under(r.id)!))
  return teacher<{ id: string; expire_at: string }>('POST', 'tms/task', { model_id: modelId, rooms: [roomId], categories: chosen, ...publication })
}
