import { INFRA_FIELDS, RECORDING_SWITCHES, STORAGE_FIELDS } from '#shared/schemas/realm-settings'
import type { Realm } from '#shared/schemas/realm'
import { getGlobalConfig } from '../../db/global-config'
import { copiedPermissionsOf, copyRolesStatements, hostsTakenElsewhere, realmDefaults, setHostsStatements } from '../../db/realm-admin'
import { listRealmHosts } from '../../db/realms'
import type { Auth } from '../../db/sessions'
import { insertUserStatements } from '../../db/user-admin'
import type { CrudWrite } from '../../lib/entity'
import { ROOT_ROLE, beyondCaller, mayTouchRoot } from '../../lib/ceiling'
import { apiError } from '../../lib/errors'
import { hashPassword } from '../../lib/password'
import type { Ctx } from '../context'
import { withNickSuffix } from '../device'

/** What a realm create stores besides the realm row; the first admin's password hash never enters `values`. */
interface PendingCreate {
  source: string
  admin?: { nick: string; name: string; email: string; role: string; hash: string }
}
const pending = new WeakMap<Ctx, PendingCreate>()

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null)
const given = (x: unknown) => x !== undefined && x !== '' && !(Array.isArray(x) && x.length === 0)

/** Server, storage and host settings need mas_realm_edit_infra: 403 naming the first one changed without it. */
function refuseInfra(auth: Auth, changed: string[]) {
  if (auth.permissions.has('mas_realm_edit_infra')) return
  const field = changed.find((f) => INFRA_FIELDS.includes(f))
  if (field) throw apiError(403, 'forbidden', `Permission mas_realm_edit_infra is required to change ${field}.`, field, 'mas_realm_edit_infra')
}

/** Recording stores videos in the realm's bucket: it cannot be switched on while a storage credential is missing. */
function refuseRecordingWithoutStorage(merged: Record<string, unknown>) {
  const on = RECORDING_SWITCHES.find((f) => merged[f] === true)
  const missing = STORAGE_FIELDS.find((f) => !merged[f])
  if (on && missing) throw apiError(422, 'storage_credentials', 'realm.storage.missing', on, missing)
}

async function refuseTakenHosts(c: Ctx, hosts: unknown, realm: string) {
  if (!Array.isArray(hosts)) return
  const taken = await hostsTakenElsewhere(c.env.DB, hosts as string[], realm)
  if (taken.length) throw apiError(409, 'conflict', `Host ${taken[0].host} already serves realm ${taken[0].realm}.`, 'hosts', taken[0].host)
}

/** Checks and completes a new realm: global defaults, infra rights, storage, free hosts, and its first administrator. */
export async function prepareRealmCreate(c: Ctx, auth: Auth, values: Record<string, unknown>): Promise<Record<string, unknown>> {
  const code = String(values.code)
  // A value equal to the table's default (`development: false`, an empty server list) changes nothing.
  const defaults = await realmDefaults(c.env.DB)
  refuseInfra(
    auth,
    Object.keys(values).filter((k) => given(values[k]) && !same(values[k], defaults[k])),
  )
  const global = await getGlobalConfig(c.env.DB)
  const out: Record<string, unknown> = {
    ...values,
    time_zone: values.time_zone ?? global.default_time_zone,
    allowed_signin: values.allowed_signin ?? global.default_allowed_signin,
    // Sign-in appends the realm's suffix to nicks (seed 000 §5); a new realm's default is its own code.
    nick_suffix: values.nick_suffix ?? `@${code}`,
  }
  refuseRecordingWithoutStorage(out)
  await refuseTakenHosts(c, out.hosts, code)
  // The new realm starts with the roles of its parent (or of the creator's realm for a top-level realm).
  const source = typeof out.parent_code === 'string' ? out.parent_code : auth.realm
  const plan: PendingCreate = { source }
  const admin = out.admin as { nick: string; name: string; email: string; password: string; role: string } | undefined
  if (admin) {
    // The role as the new realm gets it (no platform permission); nobody gives it beyond what they hold.
    const granted = await copiedPermissionsOf(c.env.DB, source, admin.role)
    if (!granted) throw apiError(422, 'not_found', `Role ${admin.role} does not exist in realm ${source}.`, 'admin.role', admin.role)
    const beyond = beyondCaller(auth, granted)
    if (beyond) throw apiError(403, 'escalation', `You cannot grant ${beyond}, which you do not hold.`, 'admin.role', beyond)
    if (admin.role === ROOT_ROLE && !mayTouchRoot(auth)) throw apiError(403, 'root_only', 'privilege.root_only', 'admin.role', ROOT_ROLE)
    const nick = withNickSuffix(admin.nick, String(out.nick_suffix))
    plan.admin = { nick, name: admin.name, email: admin.email, role: admin.role, hash: await hashPassword(admin.password) }
    out.admin = { nick, name: admin.name, email: admin.email, role: admin.role }
  }
  pending.set(c, plan)
  return out
}

/** Checks a realm update: infra rights for what changes, storage for recording, free hosts. */
export async function prepareRealmUpdate(c: Ctx, auth: Auth, existing: Realm, values: Record<string, unknown>): Promise<Record<string, unknown>> {
  const current: Record<string, unknown> = { ...existing }
  if (values.hosts !== undefined) current.hosts = await listRealmHosts(c.env.DB, existing.code)
  const changed = Object.keys(values).filter(
    (k) => values[k] !== undefined && !same(k === 'hosts' ? [...(values.hosts as string[])].sort() : values[k], current[k]),
  )
  refuseInfra(auth, changed)
  refuseRecordingWithoutStorage({ ...current, ...values })
  await refuseTakenHosts(c, values.hosts, existing.code)
  return values
}

/** Rows written with a realm: its hosts, and on create its roles and first administrator. */
export function realmWriteStatements(c: Ctx, auth: Auth, write: CrudWrite): D1PreparedStatement[] {
  const db = c.env.DB
  const out: D1PreparedStatement[] = []
  if (Array.isArray(write.values.hosts)) out.push(...setHostsStatements(db, write.id, write.values.hosts as string[]))
  if (write.action === 'create') {
    const plan = pending.get(c)
    if (plan) {
      out.push(...copyRolesStatements(db, plan.source, write.id, auth.nick))
      if (plan.admin) {
        const { hash, role, ...user } = plan.admin
        out.push(...insertUserStatements(db, write.id, { ...user, password_hash: hash, origin_realm: write.id }, [role]))
      }
    }
  }
  return out
}
