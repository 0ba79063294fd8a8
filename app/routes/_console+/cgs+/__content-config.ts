import * as v from 'valibot'
import type { FieldSpec } from '~/lib/form-fields'
import {
  CLASS_PLAN_MINUTES,
  CLASS_TYPES,
  CONFIG_EXAMPLES,
  CONFIG_LENGTHS,
  CONFIG_STYLES,
  GROUP_SIZES,
  SUMMARY_DEPTHS,
  SUMMARY_FOCUSES,
  TRANSITIONS,
} from '#shared/schemas/lesson/content'
import { CONFIG_TYPES, NARRATIVE_TONES, OPTIONS_BY_TYPE, type ConfigType } from '#shared/schemas/lesson/genesis'

/** The path's type, or a 404. */
export function configType(type: string | undefined): ConfigType {
  const parsed = v.safeParse(v.picklist(CONFIG_TYPES), type)
  if (!parsed.success) throw new Response(null, { status: 404 })
  return parsed.output
}

const choices = (values: readonly string[], group: string) => values.map((x) => ({ value: x, label: `cgs.opt.${group}.${x}` }))
const select = (name: string, values: readonly string[], group = name): FieldSpec => ({
  name: `options.${name}`,
  label: `cgs.field.${name}`,
  kind: 'select',
  options: choices(values, group),
})

/** Every option's form field; a type's form shows those its options' schema (`OPTIONS_BY_TYPE`) takes. */
const OPTION_FIELDS: Record<string, FieldSpec> = {
  style: select('style', CONFIG_STYLES),
  length: select('length', CONFIG_LENGTHS),
  examples: select('examples', CONFIG_EXAMPLES),
  depth: select('depth', SUMMARY_DEPTHS),
  focus: { name: 'options.focus', label: 'cgs.field.focus', kind: 'checkboxes', options: choices(SUMMARY_FOCUSES, 'focus') },
  duration: {
    name: 'options.duration',
    label: 'cgs.field.duration',
    kind: 'number',
    step: '1',
    min: CLASS_PLAN_MINUTES.min,
    max: CLASS_PLAN_MINUTES.max,
    hint: 'cgs.hint.duration',
  },
  class_type: select('class_type', CLASS_TYPES),
  group_size: select('group_size', GROUP_SIZES),
  homework: { name: 'options.homework', label: 'cgs.field.homework', kind: 'checkbox' },
  materials: { name: 'options.materials', label: 'cgs.field.materials', kind: 'textarea' },
  tone: select('tone', NARRATIVE_TONES),
  cover_length: select('cover_length', CONFIG_LENGTHS, 'length'),
  slide_length: select('slide_length', CONFIG_LENGTHS, 'length'),
  last_slide_length: select('last_slide_length', CONFIG_LENGTHS, 'length'),
  transitions: select('transitions', TRANSITIONS),
}

/** The form of one type's configuration: title, tags, the type's options, guideline, flags and agent. */
export function configFields(type: ConfigType, agents: { value: string; label: string }[]): FieldSpec[] {
  return [
    { name: 'title', label: 'cgs.field.title', kind: 'text', required: true },
    { name: 'tags', label: 'cgs.field.tags', kind: 'list', hint: 'cgs.tags_hint' },
    ...Object.keys(OPTIONS_BY_TYPE[type].entries).map((k) => OPTION_FIELDS[k]),
    { name: 'guideline', label: 'cgs.field.guideline', kind: 'textarea', hint: 'cgs.hint.guideline' },
    { name: 'is_public', label: 'cgs.field.is_public', kind: 'checkbox' },
    { name: 'default_selected', label: 'cgs.field.default_selected', kind: 'checkbox' },
    { name: 'agent_id', label: 'cgs.field.agent', kind: 'select', nullable: true, options: agents },
  ]
}

/** The types with a guided tour on their form (seed 001 §3: summary, class plan and narrative). */
export const TOUR_STEPS: Partial<Record<ConfigType, number>> = { summary: 4, class_plan: 4, narrative: 4 }
