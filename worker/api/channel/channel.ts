import { Hono } from 'hono'
import * as v from 'valibot'
import {
  AVATAR_SIZE,
  BANNER_SIZE,
  ChannelCreate,
  ChannelMemberInput,
  ChannelModes,
  ChannelUpdate,
  DjinniSettings,
  MEMBER_PERMISSIONS,
  MemberNick,
  MemberPermissionInput,
  channelEntity,
  type Channel,
  type ChannelMemberInput as MemberInput,
  type MemberPermission,
} from '#shared/schemas/channel'
import type { ErrorItem } from '#shared/schemas/error'
import { auditStatement } from '../../db/audit'
import { runBatch } from '../../db/batch'
import {
  CHANNEL_CATEGORY_NAME_COLUMN,
  channelCategoryExists,
  channelMemberCountAndLimit,
  channelNameTaken,
  channelPasswordStatement,
  deleteAllMembersStatement,
  deleteMemberStatement,
  findChannel,
  insertMemberStatement,
  listChannelMembers,
  memberPermission,
  membersLimit,
  resolveNicks,
  updateMemberStatement,
} from '../../db/channels'
import { getFile, persistFileStatement, uploadedFile } from '../../db/files'
import { getRealmRow, realmConfig } from '../../db/realms'
import type { Auth } from '../../db/sessions'
import { checkWordFilter } from '../../db/word-filter'
import { born, crud, stamp } from '../../lib/entity'
import { ApiError, apiError } from '../../lib/errors'
import { guarded, guardedJson } from '../../lib/guard'
import { hashPassword } from '../../lib/password'
import { type AppEnv, type Ctx, origin, parse, pathParam } from '../context'

/**
 * /channel: channels (seed 002 §3, §5, §6, §8) on the shared entity machinery, and their members. Rules:
 * - the name is unique in the realm and may hold no word of the realm's word filter (refused, as a user's name);
 *   welcome messages are stored with the filtered words masked;
 * - the category is a channel category of the realm; banner and avatar are uploaded images of the realm whose
 *   dimensions fit BANNER_SIZE / AVATAR_SIZE;
 * - there is exactly one owner: none (`no_owner`) and more than one (`more_than_one_owner`) are each refused, by a
 *   create, a member list replaced, or a member added, changed or removed; `POST /:id/owner` hands ownership over;
 * - every member nick must be a user of the realm (`member_not_found`, naming it); the realm's
 *   `max_users_per_room` caps the members of a channel (`limit`).
 * Member changes are audited on their own and leave the channel's `updated_at` (its settings' last change) as it is.
 */
const WRITE = { all: ['sns_channel_edit'] }
const READ = { any: ['sns_channel_get', 'sns_channel_edit'] }

/** What a write stores besides the row's own columns (the password hash never enters the audit record). */
const pendingPassword = new WeakMap<Ctx, string>()

const ownerRule = (members: { permission: MemberPermission }[], field: string): ErrorItem | null => {
  const owners = members.filter((m) => m.permission === 'owner').length
  if (owners === 0) return { field, cause: 'no_owner', value: 0, message: 'validation.channel.no_owner' }
  if (owners > 1) return { field, cause: 'more_than_one_owner', value: owners, message: 'validation.channel.many_owners' }
  return null
}

/** The members as stored: every nick resolved to a user of the realm, one owner, within the realm's limit. */
async function checkMembers(c: Ctx, auth: Auth, members: MemberInput[]): Promise<MemberInput[]> {
  const found = await resolveNicks(
    c.env.DB,
    auth.realm,
    members.map((m) => m.nick),
  )
  const errors: ErrorItem[] = []
  members.forEach((m, i) => {
    if (!found.has(m.nick))
      errors.push({ field: `members.${i}.nick`, cause: 'member_not_found', value: m.nick, message: 'validation.channel.member_not_found' })
  })
  const owner = ownerRule(members, 'members')
  if (owner) errors.push(owner)
  if (errors.length) throw new ApiError(422, errors)
  const resolved = members.map((m) => ({ nick: found.get(m.nick)!, permission: m.permission }))
  if (new Set(resolved.map((m) => m.nick)).size !== resolved.length) throw apiError(422, 'duplicate', 'validation.channel.member_duplicate', 'members', null)
  const max = await membersLimit(c.env.DB, auth.realm)
  if (max >= 0 && resolved.length > max) throw apiError(422, 'limit', 'validation.channel.max_members', 'members', max)
  return resolved
}

/** An uploaded image of the realm for the banner or the avatar, its dimensions checked; answers its URL. */
async function channelImage(c: Ctx, auth: Auth, field: 'banner_file_id' | 'avatar_file_id', id: string): Promise<string> {
  const file = await getFile(c.env.DB, auth.realm, id)
  if (!file || file.kind !== 'image') throw apiError(422, 'not_found', 'validation.file.required', field, id)
  const size = field === 'banner_file_id' ? BANNER_SIZE : AVATAR_SIZE
  const w = file.width ?? 0
  const h = file.height ?? 0
  const out = w < size.minWidth || h < size.minHeight || w > size.maxWidth || h > size.maxHeight || ('square' in size && size.square && w !== h)
  if (out) throw apiError(422, 'dimensions', 'file.upload.dimensions.error', field, { width: w, height: h, ...size })
  const realm = await getRealmRow(c.env.DB, auth.realm)
  const base = realm ? realmConfig(realm, origin(c), c.get('hostRealm') === null).files_base_url : '/files/'
  return uploadedFile(file, base).cdn_full_url
}

type Body = v.InferOutput<typeof ChannelUpdate>

/** The stored values of a create or update body, after every rule that reads other rows. */
async function channelValues(c: Ctx, auth: Auth, body: Body, existing?: Channel): Promise<Record<string, unknown>> {
  const db = c.env.DB
  if (await channelNameTaken(db, auth.realm, body.name, existing?.id)) throw apiError(409, 'conflict', 'validation.channel.name_taken', 'name', body.name)
  const named = await checkWordFilter(db, auth.realm, body.name)
  if (named.matches.length) throw apiError(422, 'word_filter', 'validation.word_filter', 'name', named.matches)
  if (body.category_id && !(await channelCategoryExists(db, auth.realm, body.category_id)))
    throw apiError(422, 'not_found', 'validation.channel.unknown_category', 'category_id', body.category_id)
  const values: Record<string, unknown> = {
    name: body.name,
    category_id: body.category_id,
    welcome: await Promise.all(body.welcome.map(async (w) => ({ language: w.language, message: (await checkWordFilter(db, auth.realm, w.message)).text }))),
    extra: body.extra,
    modes: body.modes,
    djinni: body.djinni,
  }
  for (const [field, url] of [
    ['banner_file_id', 'banner_url'],
    ['avatar_file_id', 'avatar_url'],
  ] as const) {
    const id = body[field]
    if (id === undefined || id === existing?.[field]) continue
    values[field] = id
    values[url] = id === '' ? '' : await channelImage(c, auth, field, id)
  }
  if (body.members) values.members = await checkMembers(c, auth, body.members)
  if (body.password_remove) pendingPassword.set(c, '')
  else if (body.password) pendingPassword.set(c, await hashPassword(body.password))
  return values
}

const channelCrud = crud(channelEntity, {
  // The list names each channel's category (its column and the CSV export).
  computed: { category_name: CHANNEL_CATEGORY_NAME_COLUMN },
  permissions: {
    list: 'sns_channel_list',
    get: ['sns_channel_get', 'sns_channel_edit'],
    create: 'sns_channel_create',
    edit: 'sns_channel_edit',
    delete: 'sns_channel_delete',
  },
  create: ChannelCreate,
  update: ChannelUpdate,
  beforeCreate: async (c, auth, body) => ({
    ...(await channelValues(c, auth, body)),
    ...born(auth),
  }),
  beforeUpdate: async (c, auth, body, existing: Channel) => ({
    ...(await channelValues(c, auth, body, existing)),
    ...stamp(auth),
  }),
  statements: (c, auth, write) => {
    if (write.action === 'delete') return []
    const db = c.env.DB
    const out: D1PreparedStatement[] = []
    const members = write.values.members as MemberInput[] | undefined
    if (members) {
      if (write.action === 'update') out.push(deleteAllMembersStatement(db, auth.realm, write.id))
      for (const m of members) out.push(insertMemberStatement(db, auth.realm, write.id, m.nick, m.permission, auth.nick))
    }
    const hash = pendingPassword.get(c)
    if (hash !== undefined) out.push(channelPasswordStatement(db, auth.realm, write.id, hash))
    for (const field of ['banner_file_id', 'avatar_file_id'] as const) {
      const id = write.values[field]
      if (typeof id === 'string' && id) out.push(persistFileStatement(db, auth.realm, id))
    }
    return out
  },
  // Rows stored before a mode or setting existed answer its default.
  expand: (_c, row) => ({
    ...row,
    modes: v.safeParse(ChannelModes, row.modes ?? {}).output ?? row.modes,
    djinni: v.safeParse(DjinniSettings, row.djinni ?? {}).output ?? row.djinni,
  }),
})

/** The realm's user a nick names (the realm's suffix optional), or 422 member_not_found naming it. */
async function realmUser(db: D1Database, auth: Auth, typed: string): Promise<string> {
  const nick = (await resolveNicks(db, auth.realm, [typed])).get(typed)
  if (!nick) throw apiError(422, 'member_not_found', 'validation.channel.member_not_found', 'nick', typed)
  return nick
}

async function requireChannel(c: Ctx, auth: Auth) {
  const id = pathParam(c, 'id')
  const found = await findChannel(c.env.DB, auth.realm, id)
  if (!found) throw apiError(404, 'not_found', 'channel.not_found', 'id', id)
  return found
}

async function requireMember(c: Ctx, auth: Auth, channelId: string) {
  const nick = parse(MemberNick, pathParam(c, 'nick'))
  const permission = await memberPermission(c.env.DB, auth.realm, channelId, nick)
  if (!permission) throw apiError(404, 'member_not_found', 'validation.channel.member_not_found', 'nick', nick)
  return { nick, permission }
}

const MemberQuery = v.object({
  like: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(120, 'validation.max_length'))),
  permission: v.optional(v.picklist(MEMBER_PERMISSIONS, 'validation.picklist')),
})

const OwnerInput = v.object({
  nick: MemberNick,
  /** What the previous owner becomes (default admin). */
  previous: v.optional(v.picklist(['admin', 'operator', 'recorder', 'mobile'] as const, 'validation.picklist'), 'admin'),
})

const audit = (c: Ctx, auth: Auth, channelId: string, action: string, before: Record<string, unknown> | null, after: Record<string, unknown> | null) =>
  auditStatement(c.env.DB, {
    realm: auth.realm,
    actor: auth.nick,
    action,
    entity: 'channel',
    entityId: channelId,
    before,
    after,
    requestId: c.get('requestId'),
  })

export const channel = new Hono<AppEnv>()
  /** GET /channel/{id}/member?like=&permission=: the channel's members (search by nick or name). */
  .get(
    '/:id/member',
    guarded(READ, async (c, auth) => {
      const ch = await requireChannel(c, auth)
      const query = parse(MemberQuery, c.req.query())
      const items = await listChannelMembers(c.env.DB, auth.realm, ch.id, query)
      return c.json({ items, total: items.length })
    }),
  )
  /** POST /channel/{id}/member: adds a user of the realm with a permission (a second owner is refused). */
  .post(
    '/:id/member',
    guardedJson(WRITE, ChannelMemberInput, async (c, auth, body) => {
      const db = c.env.DB
      const ch = await requireChannel(c, auth)
      const nick = await realmUser(db, auth, body.nick)
      if (await memberPermission(db, auth.realm, ch.id, nick)) throw apiError(409, 'conflict', 'validation.channel.already_member', 'nick', nick)
      if (body.permission === 'owner') throw apiError(422, 'more_than_one_owner', 'validation.channel.many_owners', 'permission', 2)
      const limit = await channelMemberCountAndLimit(db, auth.realm, ch.id)
      if (limit && limit.max >= 0 && limit.n >= limit.max) throw apiError(422, 'limit', 'validation.channel.max_members', 'nick', limit.max)
      await runBatch(db, [
        insertMemberStatement(db, auth.realm, ch.id, nick, body.permission, auth.nick),
        audit(c, auth, ch.id, 'add_member', null, { member: nick, permission: body.permission }),
      ])
      return c.json({ channel_id: ch.id, nick, permission: body.permission }, 201)
    }),
  )
  /** PUT /channel/{id}/member/{nick}: changes a member's permission (never to or from owner: see /owner). */
  .put(
    '/:id/member/:nick',
    guardedJson(WRITE, MemberPermissionInput, async (c, auth, body) => {
      const db = c.env.DB
      const ch = await requireChannel(c, auth)
      const m = await requireMember(c, auth, ch.id)
      if (m.permission === 'owner' && body.permission !== 'owner') throw apiError(422, 'no_owner', 'validation.channel.no_owner', 'permission', 0)
      if (m.permission !== 'owner' && body.permission === 'owner') throw apiError(422, 'more_than_one_owner', 'validation.channel.many_owners', 'permission', 2)
      if (m.permission !== body.permission)
        await runBatch(db, [
          updateMemberStatement(db, auth.realm, ch.id, m.nick, body.permission),
          audit(c, auth, ch.id, 'change_member', { member: m.nick, permission: m.permission }, { member: m.nick, permission: body.permission }),
        ])
      return c.json({ channel_id: ch.id, nick: m.nick, permission: body.permission })
    }),
  )
  /** DELETE /channel/{id}/member/{nick}: removes a member (not the owner: the channel would have none). */
  .delete(
    '/:id/member/:nick',
    guarded(WRITE, async (c, auth) => {
      const db = c.env.DB
      const ch = await requireChannel(c, auth)
      const m = await requireMember(c, auth, ch.id)
      if (m.permission === 'owner') throw apiError(422, 'no_owner', 'validation.channel.no_owner', 'nick', m.nick)
      await runBatch(db, [
        deleteMemberStatement(db, auth.realm, ch.id, m.nick),
        audit(c, auth, ch.id, 'remove_member', { member: m.nick, permission: m.permission }, null),
      ])
      return c.body(null, 204)
    }),
  )
  /** POST /channel/{id}/owner: a member (or a user of the realm, added) becomes the owner; the previous owner stays as `previous`. */
  .post(
    '/:id/owner',
    guardedJson(WRITE, OwnerInput, async (c, auth, body) => {
      const db = c.env.DB
      const ch = await requireChannel(c, auth)
      const nick = await realmUser(db, auth, body.nick)
      if (nick === ch.owner) return c.json({ channel_id: ch.id, owner: nick })
      const current = await memberPermission(db, auth.realm, ch.id, nick)
      if (!current) {
        const limit = await channelMemberCountAndLimit(db, auth.realm, ch.id)
        if (limit && limit.max >= 0 && limit.n >= limit.max) throw apiError(422, 'limit', 'validation.channel.max_members', 'nick', limit.max)
      }
      await runBatch(db, [
        ...(ch.owner ? [updateMemberStatement(db, auth.realm, ch.id, ch.owner, body.previous)] : []),
        current ? updateMemberStatement(db, auth.realm, ch.id, nick, 'owner') : insertMemberStatement(db, auth.realm, ch.id, nick, 'owner', auth.nick),
        audit(c, auth, ch.id, 'transfer_owner', { owner: ch.owner }, { owner: nick, previous: body.previous }),
      ])
      return c.json({ channel_id: ch.id, owner: nick })
    }),
  )
  .route('/', channelCrud)
