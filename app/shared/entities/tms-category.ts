import { CategoryInput, type Category } from '../schemas/tms/category'
import { STAMPS, definePlainEntity } from './define'

const check = { align: 'center', width: 110, format: 'check' } as const

/**
 * Task category (seed 001 §3): a group (no parent) or a value inside a group, with the flags a task's category
 * choice obeys. Two levels and names unique among siblings: the `tms_category` entry of RULES in
 * worker/api/entities.ts. Its list screen is its own (`app/routes/_console+/tms+/category._index.tsx`: the list shows
 * each parent's name and the essay-error categories beside it); create and edit are the generic ones.
 */
export const categoryEntity = definePlainEntity<Category>({
  name: 'tms_category',
  table: 'tms_category',
  key: 'id',
  realmColumn: 'realm',
  stamped: true,
  input: CategoryInput,
  permission: 'tms_category',
  api: 'tms/category',
  route: { id: 'tms.category', path: '/tms/category', param: 'categoryId', unsaved: true },
  screens: ['create', 'edit'],
  labelField: 'name',
  saved: 'tms.saved',
  inUse: 'category',
  fields: {
    name: { type: 'text', search: true, sort: true, list: true, filter: 'like', searchBar: true, column: {}, form: { kind: 'text', required: true } },
    parent_id: {
      type: 'text',
      sort: true,
      list: true,
      filter: 'eq',
      nullable: true,
      column: { width: 160 },
      form: {
        kind: 'select',
        nullable: true,
        hint: 'tms.category.parent_hint',
        optionsFrom: { api: 'tms/category', value: 'id', label: 'name', permission: 'tms_category_list', topLevel: 'parent_id' },
      },
    },
    selectable: { type: 'bool', list: true, filter: 'eq', column: check, form: { kind: 'checkbox' } },
    enabled: { type: 'bool', list: true, filter: 'eq', searchBar: true, column: check, form: { kind: 'checkbox' } },
    required: { type: 'bool', sort: true, list: true, filter: 'eq', searchBar: true, column: check, form: { kind: 'checkbox' } },
    multi_selection: { type: 'bool', list: true, column: check, form: { kind: 'checkbox' } },
    embed: { type: 'bool', list: true, form: { kind: 'checkbox' } },
    show_in_navigation: { type: 'bool', list: true, form: { kind: 'checkbox' } },
    show_in_filter: { type: 'bool', list: true, form: { kind: 'checkbox' } },
    show_in_list: { type: 'bool', list: true, form: { kind: 'checkbox' } },
    ...STAMPS,
  },
  defaultOrder: 'name',
})
export default categoryEntity
