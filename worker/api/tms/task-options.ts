import { Id } from '#shared/schemas/tms/common'
import { groupChoices, memberChoices, roomChoices } from '../../db/rooms'
import { getModel, listCategories } from '../../db/tms'
import type { Auth } from '../../db/sessions'
import { apiError } from '../../lib/errors'
import { extraFieldsOf } from '../../db/extra-fields'
import { realmTmsLimits } from '../../lib/tms'
import { type Ctx, parse, pathParam } from '../context'

/** Everything the publish form offers for one model: the model's summary, rooms with members, groups, categories, limits. */
export interface PublishOptions {
  model: {
    id: string
    title: string
    kind: string
    version: number
    token: boolean
    min_execution_time: number
    categories: string[]
    question_types: string[]
  }
  rooms: { id: string; name: string; members: { nick: string; name: string }[] }[]
  groups: { id: string; name: string; rooms: string[] }[]
  categories: { id: string; name: string; parent_id: string | null; required: boolean; multi_selection: boolean; selectable: boolean; enabled: boolean }[]
  limits: { defaultDeadlineDays: number; maxScheduleDays: number; expireOffsetDays: number }
  /** The realm's active extra fields of tasks, asked for at publication. */
  extra: { key: string; label: string; required: boolean }[]
}

/** GET /tms/task/options/{modelId} (tms_task_publish): what may be chosen when publishing this model. */
export async function publishOptions(c: Ctx, auth: Auth) {
  const db = c.env.DB
  const id = parse(Id, pathParam(c, 'modelId'))
  const model = await getModel(db, auth.realm, id)
  if (!model) throw apiError(404, 'not_found', `Task model ${id} was not found.`, 'model_id', id)
  const [rooms, members, groups, categories, limits, extra] = await Promise.all([
    roomChoices(db, auth.realm),
    memberChoices(db, auth.realm),
    groupChoices(db, auth.realm),
    listCategories(db, auth.realm),
    realmTmsLimits(db, auth.realm),
    extraFieldsOf(db, auth.realm, 'task'),
  ])
  const body: PublishOptions = {
    model: {
      id: model.id,
      title: model.title,
      kind: model.kind,
      version: model.version,
      token: model.token,
      min_execution_time: model.min_execution_time,
      categories: model.categories,
      question_types: model.questions.map((q) => q.type),
    },
    rooms: rooms.map((r) => ({ ...r, members: members.filter((m) => m.room_id === r.id).map(({ nick, name }) => ({ nick, name })) })),
    groups: groups.map((g) => ({ ...g, rooms: JSON.parse(g.rooms) as string[] })),
    categories: categories.map(({ id, name, parent_id, required, multi_selection, selectable, enabled }) => ({
      id,
      name,
      parent_id,
      required,
      multi_selection,
      selectable,
      enabled,
    })),
    limits,
    extra: extra.filter((f) => f.active).map(({ key, label, required }) => ({ key, label, required })),
  }
  return c.json(body)
}
