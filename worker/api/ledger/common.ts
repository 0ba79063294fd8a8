import { filterScope, listRows, type Scope } from '../../lib/entity'
import { liveRealms, realmDevelopment, realmInScope } from '../../db/realms'
import { guarded, endpointAccess } from '../../lib/guard'
import { type AppEnv, type Ctx, parse } from '../context'
import { Hono, type Handler, type Schema } from 'hono'
import { type Posting, accountLabel, ledgerEnabled } from '../../db/ledger'
import * as v from 'valibot'
import type { Access } from '#shared/access'
import { ListQuery } from '#shared/schemas/common'
import type { EntityDescriptor } from '#shared/schemas/entity'
import { auditStatement } from '../../db/audit'
import { apiError } from '../../lib/errors'
import type { Auth } from '../../db/sessions'
import { realmTreeScope } from '../mas/realm'

/** Every ledger endpoint needs the realm's `ledger_enabled` (seed 000 §2.2) besides its permissions. */
export const ledgerAccess = (...all: string[]): Access => ({ all, flags: ['ledger_enabled'] })

/** Spending a realm's wallet (`from_realm`) is a transfer between realms: ledger_transfer_cross_realm (seed 000 §3). */
export const CROSS_REALM = 'ledger_transfer_cross_realm'

/** True when `code` is the caller's realm or below it (every realm with mas_realm_list_all). */
export async function inRealmTree(db: D1Database, auth: Auth, code: string): Promise<boolean> {
  const scope = realmTreeScope(auth)
  return realmInScope(db, code, liveRealms(scope))
}

/**
 * The realm whose wallet pays when a call names `from_realm`: allowed with ledger_transfer_cross_realm for a
 * realm in the caller's tree that has the ledger enabled.
 */
export async function payingRealm(c: Ctx, auth: Auth, fromRealm: string): Promise<string> {
  if (!auth.permissions.has(CROSS_REALM)) throw apiError(403, 'forbidden', `Permission ${CROSS_REALM} is required.`, 'from_realm', fromRealm)
  if (!(await inRealmTree(c.env.DB, auth, fromRealm))) throw apiError(403, 'forbidden', `Realm ${fromRealm} is outside your realms.`, 'from_realm', fromRealm)
  if (!(await ledgerEnabled(c.env.DB, fromRealm))) throw apiError(422, 'disabled', `Realm ${fromRealm} does not have ledger_enabled.`, 'from_realm', fromRealm)
  return fromRealm
}

/** The audit record of a movement, for the movement's own batch (prepared on `db`, the Worker's D1 unless given). */
export function movementAudit(c: Ctx, auth: Auth, p: Posting, db: D1Database = c.env.DB): D1PreparedStatement {
  return auditStatement(db, {
    realm: p.realm,
    actor: auth.nick,
    actorRealm: auth.realm,
    action: p.type,
    entity: 'ledger_transaction',
    entityId: p.id,
    after: {
      type: p.type,
      billing_key: p.billingKey,
      description: p.description,
      lines: p.lines.map((l) => `${accountLabel(l.account)} ${l.amount > 0 ? '+' : ''}${l.amount}`),
      ...(p.reverses ? { reverses: p.reverses } : {}),
    },
    requestId: c.get('requestId'),
  })
}

/** The part of every movement answer that identifies the transaction. */
export function movementAnswer(p: Posting) {
  return {
    id: p.id,
    billing_key: p.billingKey,
    type: p.type,
    description: p.description,
    created_at: p.createdAt,
  }
}

const DAY = /^\d{4}-\d{2}-\d{2}$/
const Instant = v.pipe(
  v.string(),
  v.trim(),
  v.check((s) => !Number.isNaN(Date.parse(s)), 'ledger.validation.invalid_date'),
)
/** `start_at` / `end_at` of history queries: a day (whole day, UTC) or an instant. */
export const Period = v.object({ start_at: v.optional(Instant), end_at: v.optional(Instant) })
export const Flag = v.optional(
  v.pipe(
    v.string(),
    v.transform((s) => s === 'true' || s === '1'),
  ),
  'false',
)

export function periodScope(column: string, q: v.InferOutput<typeof Period>): Scope[] {
  const out: Scope[] = []
  if (q.start_at) out.push({ where: `${column} >= ?`, params: [DAY.test(q.start_at) ? `${q.start_at}T00:00:00.000Z` : new Date(q.start_at).toISOString()] })
  if (q.end_at) out.push({ where: `${column} <= ?`, params: [DAY.test(q.end_at) ? `${q.end_at}T23:59:59.999Z` : new Date(q.end_at).toISOString()] })
  return out
}

export const and = (...scopes: (Scope | undefined)[]): Scope | undefined => {
  const present = scopes.filter((s): s is Scope => Boolean(s))
  return present.length ? { where: present.map((s) => `(${s.where})`).join(' AND '), params: present.flatMap((s) => s.params) } : undefined
}

/**
 * A list answer with only the requested `fields` (comma-separated) of each item, when given. Typed for the client as
 * the whole row either way: a caller that asks for `fields` reads only those (the console's calls that pass no
 * `fields` get every column, as typed).
 */
export async function listAnswer<Row extends Record<string, unknown>>(c: Ctx, desc: EntityDescriptor<Row>, scope: Scope, extra?: Scope) {
  const query = c.req.query()
  const page = await listRows(c.env.DB, desc, scope, parse(ListQuery, query), and(filterScope(desc, query), extra))
  const fields = query.fields
    ?.split(',')
    .map((f) => f.trim())
    .filter(Boolean)
  if (!fields?.length) return c.json(page)
  return c.json({ ...page, items: page.items.map((item) => Object.fromEntries(Object.entries(item).filter(([k]) => fields.includes(k))) as Row) })
}

/** The realm's `development` flag (sandbox payment providers are offered there), for the ledger handlers. */
export { realmDevelopment }

const noNext = async () => undefined

/**
 * crud() without its generic list: the ledger lists take `fields` and their own flags (system_only, deleted_only).
 * The remaining handlers are crud's own (validated, scoped, audited), re-declared after the routes given here with
 * their requirement plus the realm's ledger_enabled, which every ledger endpoint needs.
 */
/** (Typed as both route sets; where both declare a method on a path, the first, `own`'s, is the one served.) */
type OwnFirst<S extends Schema, B extends Schema> = {
  [P in keyof S | keyof B]: P extends keyof S ? (P extends keyof B ? S[P] & Omit<B[P], keyof S[P]> : S[P]) : P extends keyof B ? B[P] : never
}
export function crudWithOwnRoutes<B extends Schema, S extends Schema>(
  base: Hono<AppEnv, B>,
  own: (app: Hono<AppEnv>) => Hono<AppEnv, S>,
): Hono<AppEnv, OwnFirst<S, B>> {
  const app = new Hono<AppEnv>()
  own(app)
  for (const r of base.routes) {
    if (r.method === 'GET' && r.path === '/') continue
    const access = endpointAccess(r.handler)
    if (!access || access === 'public') throw new Error(`crud route ${r.method} ${r.path} has no declared requirement`)
    const handler = r.handler as Handler<AppEnv>
    app.on(
      r.method,
      r.path,
      guarded({ ...access, flags: ['ledger_enabled'] }, async (c) => {
        const res = await handler(c, noNext)
        if (res instanceof Response) return res
        throw new Error(`crud route ${r.method} ${r.path} answered nothing`)
      }),
    )
  }
  return app as unknown as Hono<AppEnv, S & B>
}
