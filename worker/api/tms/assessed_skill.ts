import { SkillInput, skillEntity, type Skill } from '#shared/schemas/tms/skill'
import type { Auth } from '../../db/sessions'
import { crud } from '../../lib/entity'
import { refuse, ruleError } from '../../lib/tms'
import type { Ctx } from '../context'
import { created, refuseInUse, updated } from './taxonomy'

/** A skill's group must be a group of the realm; a group holding skills stays a group. */
async function checkSkill(c: Ctx, auth: Auth, body: SkillInput, self?: Skill) {
  if (body.group_id) {
    const group = await c.env.DB.prepare('SELECT type FROM tms_assessed_skill WHERE realm = ? AND id = ?')
      .bind(auth.realm, body.group_id)
      .first<{ type: string }>()
    if (group?.type !== 'group') refuse([ruleError('group_id', 'validation.tms.unknown_skill', body.group_id)])
  }
  if (
    self?.type === 'group' &&
    body.type !== 'group' &&
    (await c.env.DB.prepare('SELECT 1 FROM tms_assessed_skill WHERE realm = ? AND group_id = ? LIMIT 1').bind(auth.realm, self.id).first())
  ) {
    refuse([ruleError('type', 'validation.tms.group_has_skills', self.id)])
  }
}

export const assessedSkill = crud(skillEntity, {
  permissions: {
    list: 'tms_assessed_skill_list',
    get: ['tms_assessed_skill_get', 'tms_assessed_skill_edit'],
    create: 'tms_assessed_skill_create',
    edit: 'tms_assessed_skill_edit',
    delete: 'tms_assessed_skill_delete',
  },
  create: SkillInput,
  update: SkillInput,
  beforeCreate: async (c, auth, body) => {
    await checkSkill(c, auth, body)
    return { ...body, ...created(auth) }
  },
  beforeUpdate: async (c, auth, body, existing) => {
    await checkSkill(c, auth, body, existing)
    return { ...body, ...updated(auth) }
  },
  beforeDelete: (c, auth, existing) => refuseInUse(c, auth, 'skill', existing.id),
})
