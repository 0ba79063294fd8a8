import { CategoryInput, categoryEntity, type Category } from '#shared/schemas/tms/category'
import type { Auth } from '../../db/sessions'
import { crud } from '../../lib/entity'
import { apiError } from '../../lib/errors'
import { refuse, ruleError } from '../../lib/tms'
import type { Ctx } from '../context'
import { created, refuseInUse, updated } from './taxonomy'

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
