import { CategoryInput, categoryEntity, type Category } from '#shared/schemas/tms/category'
import { GenreInput, genreEntity } from '#shared/schemas/tms/genre'
import { SkillInput, skillEntity, type Skill } from '#shared/schemas/tms/skill'
import { usage } from '../db/tms'
import type { Auth } from '../db/sessions'
import { crud } from '../lib/entity'
import { apiError } from '../lib/errors'
import { newId, nowIso, refuse, ruleError } from '../lib/tms'
import type { Ctx } from './context'

/** Task categories, assessed skills and textual genres (seed 001 §3): declared once, served by crud(). */

const created = (auth: Auth) => ({ id: newId(), realm: auth.realm, created_at: nowIso(), updated_at: nowIso(), updated_by: auth.nick })
const updated = (auth: Auth) => ({ updated_at: nowIso(), updated_by: auth.nick })

async function refuseInUse(c: Ctx, auth: Auth, kind: 'category' | 'genre' | 'skill', id: string) {
  const n = await usage(c.env.DB, auth.realm, kind, id)
  if (n > 0) throw apiError(409, 'in_use', `tms.${kind}.in_use`, 'id', n)
}

/** Categories form two levels: a group and its values. Names are unique among siblings. */
async function checkCategory(c: Ctx, auth: Auth, body: CategoryInput, self?: Category) {
  const db = c.env.DB
  if (body.parent_id) {
    const parent = await db
      .prepare('SELECT id, parent_id FROM tms_category WHERE realm = ? AND id = ?')
      .bind(auth.realm, body.parent_id)
      .first<{ id: string; parent_id: string | null }>()
    if (!parent) refuse([ruleError('parent_id', 'validation.tms.unknown_category', body.parent_id)])
    if (parent?.parent_id || parent?.id === self?.id) refuse([ruleError('parent_id', 'validation.tms.category_depth', body.parent_id)])
    if (self && (await db.prepare('SELECT 1 FROM tms_category WHERE realm = ? AND parent_id = ? LIMIT 1').bind(auth.realm, self.id).first())) {
      refuse([ruleError('parent_id', 'validation.tms.category_depth', body.parent_id)])
    }
  }
  const twin = await db
    .prepare('SELECT id FROM tms_category WHERE realm = ? AND lower(name) = lower(?) AND parent_id IS ? AND id IS NOT ?')
    .bind(auth.realm, body.name, body.parent_id, self?.id ?? null)
    .first()
  if (twin) throw apiError(409, 'conflict', 'validation.tms.name_taken', 'name', body.name)
}

export const category = crud(categoryEntity, {
  permissions: {
    list: 'tms_category_list',
    get: ['tms_category_get', 'tms_category_edit'],
    create: 'tms_category_create',
    edit: 'tms_category_edit',
    delete: 'tms_category_delete',
  },
  create: CategoryInput,
  update: CategoryInput,
  beforeCreate: async (c, auth, body) => {
    await checkCategory(c, auth, body)
    return { ...body, ...created(auth) }
  },
  beforeUpdate: async (c, auth, body, existing) => {
    await checkCategory(c, auth, body, existing)
    return { ...body, ...updated(auth) }
  },
  beforeDelete: (c, auth, existing) => refuseInUse(c, auth, 'category', existing.id),
})

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

export const genre = crud(genreEntity, {
  permissions: {
    list: 'tms_genre_list',
    get: ['tms_genre_get', 'tms_genre_edit'],
    create: 'tms_genre_create',
    edit: 'tms_genre_edit',
    delete: 'tms_genre_delete',
  },
  create: GenreInput,
  update: GenreInput,
  beforeCreate: (_c, auth, body) => ({ ...body, ...created(auth) }),
  beforeUpdate: (_c, auth, body) => ({ ...body, ...updated(auth) }),
  beforeDelete: (c, auth, existing) => refuseInUse(c, auth, 'genre', existing.id),
})
