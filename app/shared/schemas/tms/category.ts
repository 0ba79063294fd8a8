import * as v from 'valibot'
import type { Stamped } from '../entity'
import { Id, Name } from './common'

const flag = (fallback: boolean) => v.optional(v.boolean('validation.boolean'), fallback)

/**
 * Task category (seed 001 §3). A category may sit under a parent: the parent is the group (e.g. "Subject") whose
 * flags say whether choosing is required and whether several children may be chosen; children are the values.
 */
export const CategoryInput = v.object({
  name: Name(2, 80),
  parent_id: v.optional(v.nullable(Id), null),
  selectable: flag(true),
  enabled: flag(true),
  required: flag(false),
  multi_selection: flag(true),
  embed: flag(false),
  show_in_navigation: flag(false),
  show_in_filter: flag(true),
  show_in_list: flag(true),
})
export type CategoryInput = v.InferOutput<typeof CategoryInput>
export type Category = CategoryInput & Stamped

type CategoryRule = Pick<Category, 'id' | 'name' | 'parent_id' | 'selectable' | 'enabled' | 'multi_selection'>

/**
 * Problems of a set of chosen categories: unknown, disabled or not selectable ones, and more than one value of a
 * single-selection group. Field item → message key (value: the category's id or name).
 */
export function categoryChoiceProblems(chosen: string[], all: CategoryRule[]): { message: string; value: string }[] {
  const byId = new Map(all.map((c) => [c.id, c]))
  const out: { message: string; value: string }[] = []
  for (const id of chosen) {
    const c = byId.get(id)
    if (!c) out.push({ message: 'validation.tms.unknown_category', value: id })
    else if (!c.enabled || !c.selectable) out.push({ message: 'validation.tms.category_not_selectable', value: c.name })
  }
  for (const group of all.filter((c) => !c.multi_selection)) {
    if (chosen.filter((id) => byId.get(id)?.parent_id === group.id).length > 1) out.push({ message: 'validation.tms.category_single', value: group.name })
  }
  return out
}
