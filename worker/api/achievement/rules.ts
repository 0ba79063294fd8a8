import type { ErrorItem } from '#shared/schemas/error'
import type { Objective, TrackInput } from '#shared/schemas/achievement'
import { missingIds, objectivePublishedUse } from '../../db/achievement'
import type { Auth } from '../../db/sessions'
import { apiError } from '../../lib/errors'
import { refuse, ruleError } from '../../lib/tms'
import type { Ctx } from '../context'

/** An objective used by a published goal is not updated (seed 001 §4; its removal is refused by `usage`). */
export async function checkObjective(c: Ctx, auth: Auth, _body: unknown, existing?: Objective) {
  if (existing && (await objectivePublishedUse(c.env.DB, auth.realm, existing.id)) > 0)
    throw apiError(409, 'objective_blocked', 'achievement.objective_blocked', 'id', existing.id)
}

const ITEM_TABLES = { task_model: 'tms_model', lesson: 'lesson_model', survey: 'survey_model' } as const

/** A track's items exist in the realm. */
export async function checkTrack(c: Ctx, auth: Auth, body: TrackInput) {
  const db = c.env.DB
  const problems: ErrorItem[] = []
  for (const kind of Object.keys(ITEM_TABLES) as (keyof typeof ITEM_TABLES)[]) {
    const ids = body.items.filter((i) => i.kind === kind).map((i) => i.id)
    if (!ids.length) continue
    const missing = new Set(await missingIds(db, auth.realm, ITEM_TABLES[kind], ids))
    body.items.forEach((item, i) => {
      if (item.kind === kind && missing.has(item.id)) problems.push(ruleError(`items.${i}.id`, 'achievement.error.unknown_item', item.id))
    })
  }
  refuse(problems)
}
