import { CategoryInput, categoryEntity, type Category } from '#shared/schemas/tms/category'
import { categoryHasChildren, categoryNameTaken, findCategoryParent } from '../../db/tms'
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
