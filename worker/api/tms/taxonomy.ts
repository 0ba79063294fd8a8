import type { SkillInput, Skill } from '#shared/entities/tms-assessed-skill'
import type { UsageKind } from '#shared/entities/define'
import type { Category, CategoryInput } from '#shared/schemas/tms/category'
import { categoryHasChildren, categoryNameTaken, findCategoryParent, skillGroupHasSkills, skillType } from '../../db/tms'
import { usage } from '../../db/tms'
import type { Auth } from '../../db/sessions'
import { apiError } from '../../lib/errors'
import { newId, nowIso, refuse, ruleError } from '../../lib/tms'
import type { Ctx } from '../context'

/** Task categories, assessed skills and textual genres (seed 001 §3): the stamps and the in-use refusal their crud() declarations share. */
export const created = (auth: Auth) => ({ id: newId(), realm: auth.realm, created_at: nowIso(), updated_at: nowIso(), updated_by: auth.nick })
export const updated = (auth: Auth) => ({ updated_at: nowIso(), updated_by: auth.nick })

export async function refuseInUse(c: Ctx, auth: Auth, kind: UsageKind, id: string) {
  const n = await usage(c.env.DB, auth.realm, kind, id)
  if (n > 0)
    throw apiError(
      409,
      'in_use',
      kind === 'channel_category'
        ? 'channel.category_in_use'
        : kind === 'objective'
          ? 'achievement.objective_blocked'
          : kind === 'room_card'
            ? 'room.card_in_use'
            : kind === 'track'
              ? 'achievement.track_in_use'
              : `tms.${kind}.in_use`,
      'id',
      n,
    )
}

/** Categories form two levels: a group and its values. Names are unique among siblings. */
export async function checkCategory(c: Ctx, auth: Auth, body: CategoryInput, self?: Category) {
  const db = c.env.DB
  if (body.parent_id) {
    const parent = await findCategoryParent(db, auth.realm, body.parent_id)
    if (!parent) refuse([ruleError('parent_id', 'validation.tms.unknown_category', body.parent_id)])
    if (parent?.parent_id || parent?.id === self?.id) refuse([ruleError('parent_id', 'validation.tms.category_depth', body.parent_id)])
    if (self && (await categoryHasChildren(db, auth.realm, self.id))) {
      refuse([ruleError('parent_id', 'validation.tms.category_depth', body.parent_id)])
    }
  }
  if (await categoryNameTaken(db, auth.realm, body.name, body.parent_id, self?.id ?? null))
    throw apiError(409, 'conflict', 'validation.tms.name_taken', 'name', body.name)
}

/** A skill's group must be a group of the realm; a group holding skills stays a group. */
export async function checkSkill(c: Ctx, auth: Auth, body: SkillInput, self?: Skill) {
  if (body.group_id) {
    if ((await skillType(c.env.DB, auth.realm, body.group_id)) !== 'group') refuse([ruleError('group_id', 'validation.tms.unknown_skill', body.group_id)])
  }
  if (self?.type === 'group' && body.type !== 'group' && (await skillGroupHasSkills(c.env.DB, auth.realm, self.id))) {
    refuse([ruleError('type', 'validation.tms.group_has_skills', self.id)])
  }
}
