import * as v from 'valibot'
import { defineEntity } from './entity'

/** A room category (seed 000 §3, seed 002 §3): a tree per realm through `parent`. */
export interface Category {
  id: string
  realm: string
  name: string
  parent: string | null
  priority: number
  created_at: string
  updated_at: string
  updated_by: string
  /** The subtree below, when asked for (with_children, root_tree). */
  children?: Category[]
}

export const CategoryName = v.pipe(v.string('validation.required'), v.trim(), v.minLength(1, 'validation.required'), v.maxLength(80, 'validation.max_length'))
const Parent = v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(40, 'validation.max_length')))
const Priority = v.pipe(
  v.number('validation.number'),
  v.integer('validation.integer'),
  v.minValue(0, 'validation.min_value'),
  v.maxValue(10_000, 'validation.max_value'),
)
/** The spec's payload carries `realm`; the API always uses the current realm instead (seed 000 §5). */
const Realm = v.optional(v.string())

/** POST /room/category: name, parent (null or absent for a top-level category), priority. */
export const CategoryCreate = v.object({ name: CategoryName, parent: v.optional(Parent, null), priority: v.optional(Priority, 0), realm: Realm })
/** PUT /room/category/{id}: any of them. */
export const CategoryUpdate = v.object({ name: v.optional(CategoryName), parent: v.optional(Parent), priority: v.optional(Priority), realm: Realm })

export const categoryEntity = defineEntity<Omit<Category, 'children'>>({
  name: 'category',
  table: 'room_category',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'text', list: true },
    realm: { type: 'text', list: true },
    name: { type: 'text', search: true, sort: true, list: true, filter: 'like' },
    parent: { type: 'text', sort: true, list: true, nullable: true },
    priority: { type: 'int', sort: true, list: true },
    created_at: { type: 'text', sort: true, list: true, filter: 'date' },
    updated_at: { type: 'text', sort: true, list: true },
    updated_by: { type: 'text', list: true },
  },
  defaultOrder: 'name',
})

/** Builds the forest of `rows` (children ordered by priority, then name); `roots` limits it to those ids. */
export function buildTree(rows: Omit<Category, 'children'>[], roots?: string[]): Category[] {
  const byParent = new Map<string | null, Category[]>()
  for (const r of rows) byParent.set(r.parent, [...(byParent.get(r.parent) ?? []), { ...r }])
  const order = (a: Category, b: Category) => a.priority - b.priority || a.name.localeCompare(b.name)
  const attach = (node: Category, seen: Set<string>): Category => {
    if (seen.has(node.id)) return { ...node, children: [] }
    seen.add(node.id)
    return { ...node, children: (byParent.get(node.id) ?? []).sort(order).map((child) => attach(child, seen)) }
  }
  const start = roots ? rows.filter((r) => roots.includes(r.id)) : (byParent.get(null) ?? [])
  return [...start].sort(order).map((r) => attach(r, new Set()))
}
