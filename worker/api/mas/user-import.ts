import * as v from 'valibot'
import { runBatch } from '../../db/batch'
import { realmNickSuffix } from '../../db/realms'
import { allNicks } from '../../db/user-admin'
import type { ImportReport, ImportRow } from '#shared/schemas/user'
import { UserCreate, UserUpdate } from '#shared/schemas/user'
import type { Auth } from '../../db/sessions'
import { getUser } from '../../db/user-admin'
import { parseCsv } from '../../lib/csv'
import { ApiError, apiError, issuesToErrors } from '../../lib/errors'
import type { Ctx } from '../context'
import { planUserWrite, realmNick, userWriteContext } from './user-write'

/** POST /mas/user/import body: the CSV text (at most 1 MB) and whether to only check it. */
export const ImportBody = v.object({
  csv: v.pipe(v.string(), v.maxLength(1_000_000, 'validation.max_length')),
  dry_run: v.optional(v.boolean('validation.boolean'), false),
})
export const IMPORT_MAX_ROWS = 2000

const COLUMNS = ['nick', 'name', 'email', 'phone', 'external_id', 'roles', 'supervisees', 'invisible', 'bot', 'hd_support'] as const
const LISTS = new Set(['roles', 'supervisees'])
const FLAGS = new Set(['invisible', 'bot', 'hd_support'])
const TRUE = new Set(['1', 'true', 'yes', 'sim', 'sí', 'si', 'x'])
const FALSE = new Set(['0', 'false', 'no', 'não', 'nao'])

/** A cell as the value the user schemas expect: lists split on `|`, yes/no words as booleans. */
function cellValue(column: string, raw: string): unknown {
  const text = raw.trim()
  if (LISTS.has(column))
    return text
      .split('|')
      .map((x) => x.trim())
      .filter(Boolean)
  if (FLAGS.has(column)) return TRUE.has(text.toLowerCase()) ? true : FALSE.has(text.toLowerCase()) ? false : text
  return text
}

/**
 * Imports users from CSV (header: nick, name, email, phone, external_id, roles, supervisees, invisible, bot,
 * hd_support and `extra.<key>` columns). Each row is created or updated in one batch with its audit record, or
 * refused whole with its reasons; empty cells leave an existing user's value unchanged. Passwords are never
 * imported. With `dry_run` every row is checked and nothing is written.
 */
export async function importUsers(c: Ctx, auth: Auth, csv: string, dryRun: boolean): Promise<ImportReport> {
  const { header, rows } = parseCsv(csv)
  const unknown = header.filter((h) => !(COLUMNS as readonly string[]).includes(h) && !/^extra\.[a-z][a-z0-9_]{0,39}$/.test(h))
  if (!header.includes('nick')) throw apiError(400, 'invalid', 'validation.import.nick_column', 'csv', header.join(','))
  if (unknown.length) throw apiError(400, 'invalid', 'validation.import.columns', 'csv', unknown.join(', '))
  if (rows.length > IMPORT_MAX_ROWS) throw apiError(400, 'max_items', 'validation.import.rows', 'csv', IMPORT_MAX_ROWS)
  if (new Set(header).size !== header.length) throw apiError(400, 'invalid', 'validation.import.columns', 'csv', header.join(','))

  const w = await userWriteContext(c, auth)
  const nickSuffix = await realmNickSuffix(c.env.DB, auth.realm)
  w.known = new Set(await allNicks(c.env.DB, auth.realm))
  const seen = new Set<string>()
  const report: ImportReport = { dry_run: dryRun, created: 0, updated: 0, refused: 0, rows: [] }

  for (const { line, cells } of rows) {
    const record: Record<string, unknown> = {}
    const extra: Record<string, string> = {}
    header.forEach((h, i) => {
      const raw = cells[i] ?? ''
      if (raw.trim() === '') return
      if (h.startsWith('extra.')) extra[h.slice(6)] = raw.trim()
      else record[h] = cellValue(h, raw)
    })
    if (Object.keys(extra).length) record.extra = extra
    let nick = typeof record.nick === 'string' ? record.nick.toLowerCase() : ''
    const row: ImportRow = { line, nick, status: 'refused', errors: [] }
    report.rows.push(row)
    try {
      nick = row.nick = realmNick(nick, nickSuffix, !w.known.has(realmNick(nick, nickSuffix, false)))
      if (seen.has(nick)) throw apiError(422, 'duplicate', 'validation.import.duplicate', 'nick', nick)
      seen.add(nick)
      const existing = nick ? await getUser(c.env.DB, auth.realm, nick) : null
      if (existing && existing.origin_realm !== auth.realm) throw apiError(403, 'origin_realm', 'validation.import.foreign', 'nick', existing.origin_realm)
      const { nick: _n, ...changes } = record
      const parsed = existing ? v.safeParse(UserUpdate, changes) : v.safeParse(UserCreate, { ...record, nick })
      if (!parsed.success) throw new ApiError(400, issuesToErrors(parsed.issues))
      const statements = await planUserWrite(c, auth, w, parsed.output, existing)
      if (!dryRun) await runBatch(c.env.DB, statements)
      w.known.add(nick)
      row.status = existing ? 'updated' : 'created'
    } catch (err) {
      if (!(err instanceof ApiError)) throw err
      row.errors = err.errors.map((e) => ({ field: e.field, cause: e.cause, message: e.message }))
    }
    report[row.status === 'refused' ? 'refused' : row.status]++
  }
  return report
}
