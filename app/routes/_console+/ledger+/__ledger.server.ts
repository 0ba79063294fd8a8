import { data, redirect } from '@remix-run/cloudflare'
import type { ErrorItem } from '#shared/schemas/error'
import { setFlash, type Flash } from '~/server/flash.server'

/** What a ledger action answers when it stays on the page: the refusal (API envelope or form rules). */
export interface ActionResult<T = unknown> {
  ok: boolean
  errors: ErrorItem[]
  result?: T
}

/** A refusal by the form's own rules (before calling the API). */
export function invalid(errors: ErrorItem[]) {
  return data<ActionResult>({ ok: false, errors }, { status: 400 })
}

/** Back to a list with a toast. */
export async function redirectWithFlash(to: string, flash: Flash): Promise<never> {
  throw redirect(to, { headers: { 'Set-Cookie': await setFlash(flash) } })
}

/** Form text → number for the schema: empty stays undefined (a required rule), anything else is parsed. */
export function numberField(value: FormDataEntryValue | null): number | undefined {
  const text = String(value ?? '').trim()
  return text === '' ? undefined : Number(text)
}

/** Issues of a valibot parse as envelope items (field = dotted path). */
export function issuesAsErrors(issues: readonly { path?: { key: unknown }[]; message: string; input?: unknown }[]): ErrorItem[] {
  return issues.map((i) => ({ field: (i.path ?? []).map((p) => String(p.key)).join('.'), cause: 'invalid', value: null, message: i.message }))
}

/** A new idempotency key: one per user action (seed 000 §5), made when the action's form is drawn. */
export function newActionKey(): string {
  return `con-${crypto.randomUUID()}`
}
