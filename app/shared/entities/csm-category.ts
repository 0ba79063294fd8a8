import * as v from 'valibot'
import type { Stamped } from '../schemas/entity'
import { Description, Name } from '../schemas/tms/common'
import { STAMPS, definePlainEntity } from './define'

/**
 * Session category (seed 002 §2 `session/category`, issue 15): the seed names the screens, not the fields; a name,
 * a description and whether it is offered (README "Session decisions (issue 15)").
 */
export const CsmCategoryInput = v.object({
  name: Name(2, 80),
  description: v.optional(Description(500), ''),
  active: v.optional(v.boolean('validation.boolean'), true),
})
export type CsmCategoryInput = v.InferOutput<typeof CsmCategoryInput>
export type CsmCategory = CsmCategoryInput & Stamped

export const csmCategoryEntity = definePlainEntity<CsmCategory>({
  name: 'csm_category',
  table: 'csm_category',
  key: 'id',
  realmColumn: 'realm',
  stamped: true,
  input: CsmCategoryInput,
  permission: 'csm_category',
  api: 'csm/category',
  route: { id: 'session.category', path: '/session/category', param: 'categoryId', unsaved: true },
  labelField: 'name',
  saved: 'tms.saved',
  fields: {
    name: { type: 'text', search: true, sort: true, list: true, filter: 'like', searchBar: true, column: {}, form: { kind: 'text', required: true } },
    description: { type: 'text', search: true, list: true, column: { ellipsis: true }, form: { kind: 'textarea' } },
    active: {
      type: 'bool',
      sort: true,
      list: true,
      filter: 'eq',
      searchBar: true,
      column: { align: 'center', width: 100, format: 'check' },
      form: { kind: 'checkbox' },
    },
    ...STAMPS,
  },
  defaultOrder: 'name',
})
export default csmCategoryEntity
