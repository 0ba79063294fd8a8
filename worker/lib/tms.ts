import { sanitizeRichText, type RichTextPolicy } from '#shared/rich-text'
import type { ErrorItem } from '#shared/schemas/error'
import { TMS_DEFAULT_DEADLINE_DAYS, TMS_MAX_SCHEDULE_DAYS } from '#shared/schemas/tms/constants'
import type { Question } from '#shared/schemas/tms/question'
import { origin, type Ctx } from '../api/context'
import { auditStatement } from '../db/audit'
import { getRealmRow, realmConfig } from '../db/realms'
import type { Auth } from '../db/sessions'
import type { AuditEntry } from './audit'
import { randomToken } from './crypto'
import type { Scope } from './entity'
import { ApiError } from './errors'

/** A new row or question id: 12 URL-safe random characters. */
export const newId = () => randomToken(9)
export const nowIso = () => new Date().toISOString()

export interface TmsLimits {
  defaultDeadlineDays: number
  maxScheduleDays: number
  expireOffsetDays: number
}

/**
 * The realm's task limits. `tms_default_deadline_days` and `tms_max_schedule_days` are added as realm columns by a
 * parallel branch; until a realm row has them, the specification's defaults apply (3 days, 365 days).
 */
export function tmsLimits(row: Record<string, unknown> | null): TmsLimits {
  const num = (key: string, fallback: number) => (typeof row?.[key] === 'number' ? (row[key] as number) : fallback)
  return {
    defaultDeadlineDays: num('tms_default_deadline_days', TMS_DEFAULT_DEADLINE_DAYS),
    maxScheduleDays: num('tms_max_schedule_days', TMS_MAX_SCHEDULE_DAYS),
    expireOffsetDays: num('tms_task_expire_offset_days', 0),
  }
}

export async function realmTmsLimits(db: D1Database, realm: string): Promise<TmsLimits> {
  return tmsLimits(await getRealmRow(db, realm))
}

/** Rich text may show images over https or from this realm's own files. */
export async function richTextPolicy(c: Ctx, realm: string): Promise<RichTextPolicy> {
  const row = await getRealmRow(c.env.DB, realm)
  if (!row) return {}
  return { filesBase: `${realmConfig(row, origin(c), c.get('hostRealm') === null).files_base_url.replace(/\/?$/, '/')}${realm}/` }
}

/** A question as stored: every rich text sanitized, and ids for the question and its choice options. */
export function storedQuestion(q: Question, policy: RichTextPolicy): Question {
  const clean = (html: string) => sanitizeRichText(html, policy)
  const base = { ...q, id: q.id ?? newId(), statement: clean(q.statement), comment: clean(q.comment) }
  switch (base.type) {
    case 'single':
    case 'multi':
    case 'true_false':
      return { ...base, options: base.options.map((o) => ({ ...o, id: o.id ?? newId(), statement: clean(o.statement) })) }
    case 'essay':
      return { ...base, options: { ...base.options, support_text: clean(base.options.support_text) } }
    default:
      return base
  }
}

/** 422 with one item per problem, when there are any. */
export function refuse(items: ErrorItem[]): void {
  if (items.length) throw new ApiError(422, items)
}

/** An error item for a rule of this area: the cause is the rule's name, the message its translation key. */
export function ruleError(field: string, message: string, value: unknown = null): ErrorItem {
  return { field, cause: message.split('.').pop() ?? 'invalid', value, message }
}

/** Conditions joined with AND (undefined ones skipped). */
export function andScopes(...scopes: (Scope | undefined)[]): Scope | undefined {
  const present = scopes.filter((s): s is Scope => Boolean(s))
  if (!present.length) return undefined
  return { where: present.map((s) => `(${s.where})`).join(' AND '), params: present.flatMap((s) => s.params) }
}

/** Rows whose JSON list column holds `value` (case-insensitive), when a value is given. */
export function jsonListHas(column: string, value: string | undefined): Scope | undefined {
  if (!value?.trim()) return undefined
  return { where: `EXISTS (SELECT 1 FROM json_each(${column}) j WHERE lower(j.value) = lower(?))`, params: [value.trim()] }
}

/** The created and updated stamps of a new row. */
export const createdStamps = (nick: string, now: string) => ({ created_at: now, created_by: nick, updated_at: now, updated_by: nick })

/** The audit record of the caller's change (realm, actor and request from the call), to run in the change's batch. */
export function auditBy(c: Ctx, auth: Auth, e: Pick<AuditEntry, 'action' | 'entity' | 'entityId' | 'before' | 'after'>): D1PreparedStatement {
  return auditStatement(c.env.DB, { realm: auth.realm, actor: auth.nick, ...e, requestId: c.get('requestId') })
}
