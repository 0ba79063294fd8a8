import { Hono } from 'hono'
import { runBatch } from '../../db/batch'
import { allRoomCategories, firstChildCategory, firstRoomInCategory, roomCategoryExists, roomCountByCategory } from '../../db/rooms'
import * as v from 'valibot'
import { buildTree, CategoryCreate, CategoryUpdate, categoryEntity, type Category } from '#shared/schemas/category'
import { ListQuery, RealmCode } from '#shared/schemas/common'
import { isLiveRealm } from '../../db/realms'
import type { Auth } from '../../db/sessions'
import { auditStatement } from '../../db/audit'
import { randomToken } from '../../lib/crypto'
import { decodeRow, deleteStatement, filterScope, getRawRow, insertStatement, listRows, updateStatement, type Scope } from '../../lib/entity'
import { apiError } from '../../lib/errors'
import { guarded, guardedJson } from '../../lib/guard'
import { type AppEnv, type Ctx, parse, pathParam } from '../context'
import { inTree } from '../mas/realm'

type Row = Omit<Category, 'children'>
const flag = v.optional(
  v.pipe(
    v.string(),
    v.transform((x) => x === 'true' || x === '1'),
  ),
  'false',
)
const ReadQuery = v.object({ realm: v.optional(RealmCode), root: flag, with_children: flag })
// Whoever may create or edit categories reads the tree to choose a parent.
const READ = { any: ['room_category_list', 'room_category_create', 'room_category_edit'] }
const GET = { any: ['room_category_get', 'room_category_edit'] }

/** The realm whose categories a read addresses: the caller's, or one of the realms they administer (`realm`). */
async function readRealm(c: Ctx, auth: Auth, wanted: string | undefined): Promise<string> {
  if (!wanted || wanted === auth.realm) return auth.realm
  if (!(await inTree(c, auth, wanted)) || !(await isLiveRealm(c.env.DB, wanted)))
    throw apiError(404, 'not_found', `Realm ${wanted} was not found.`, 'realm', wanted)
  return wanted
}

async function allRows(c: Ctx, realm: string): Promise<Row[]> {
  return (await allRoomCategories(c.env.DB, realm)).map((r) => decodeRow(categoryEntity, r) as Row)
}

/** The top of the tree that holds `id`. */
function rootOf(rows: Row[], id: string): string {
  const byId = new Map(rows.map((r) => [r.id, r]))
  let at = byId.get(id)
  for (let guard = 0; at?.parent && guard < rows.length; guard++) at = byId.get(at.parent) ?? at
  return at?.id ?? id
}

/** The parent must be a category of the same realm; a sibling must not have the same name. */
async function checkPlacement(c: Ctx, realm: string, id: string, name: string, parent: string | null) {
  const rows = await allRows(c, realm)
  if (parent !== null) {
    const byId = new Map(rows.map((r) => [r.id, r]))
    if (!byId.has(parent)) throw apiError(422, 'not_found', 'validation.category.parent', 'parent', parent)
    // Walking up from the new parent must never reach the category itself.
    for (let at: string | null = parent, guard = 0; at !== null && guard <= rows.length; at = byId.get(at)?.parent ?? null, guard++) {
      if (at === id) throw apiError(422, 'cycle', 'validation.category.cycle', 'parent', parent)
    }
  }
  const twin = rows.find((r) => r.id !== id && r.parent === parent && r.name.toLowerCase() === name.toLowerCase())
  if (twin) throw apiError(409, 'conflict', 'validation.category.duplicate', 'name', name)
}

const audit = (c: Ctx, auth: Auth, action: string, id: string, before?: unknown, after?: unknown) =>
  auditStatement(c.env.DB, {
    realm: auth.realm,
    actor: auth.nick,
    action,
    entity: 'category',
    entityId: id,
    before: before as Record<string, unknown>,
    after: after as Record<string, unknown>,
    requestId: c.get('requestId'),
  })

async function load(c: Ctx, auth: Auth): Promise<Row> {
  const id = pathParam(c, 'id')
  const raw = await getRawRow(c.env.DB, categoryEntity, { where: 'realm = ?', params: [auth.realm] }, id)
  if (!raw) throw apiError(404, 'not_found', `Category ${id} was not found.`, 'id', id)
  return decodeRow(categoryEntity, raw) as Row
}

/** Room categories (seed 000 §7 "Categories"): a tree per realm; a category can never become its own ancestor. */
export const category = new Hono<AppEnv>()
  /** GET /room/category/with-children?ids=&root=&realm=: those categories (or, with root, their trees' roots) with
   * their subtrees; without ids, every top-level category of the realm with its subtree. */
  .get(
    '/with-children',
    guarded(READ, async (c, auth) => {
      const q = parse(v.object({ ...ReadQuery.entries, ids: v.optional(v.pipe(v.string(), v.maxLength(4000, 'validation.max_length'))) }), c.req.query())
      const rows = await allRows(c, await readRealm(c, auth, q.realm))
      const ids = (q.ids ?? '')
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
      const wanted = ids.length ? [...new Set(q.root ? ids.map((id) => rootOf(rows, id)) : ids)] : undefined
      return c.json({ items: buildTree(rows, wanted) })
    }),
  )
  /**
   * GET /room/category?realm=&parent_id=&root_tree=&name=&limit=&offset=&like=: a page of categories. `parent_id=null`
   * keeps the top-level ones, `parent_id=<id>` the children of one; `root_tree=true` adds each item's subtree.
   */
  .get(
    '/',
    guarded(READ, async (c, auth) => {
      const q = parse(v.object({ realm: v.optional(RealmCode), parent_id: v.optional(v.pipe(v.string(), v.maxLength(40))), root_tree: flag }), c.req.query())
      const realm = await readRealm(c, auth, q.realm)
      const query = parse(ListQuery, c.req.query())
      const byParent: Scope | undefined =
        q.parent_id === undefined || q.parent_id === ''
          ? undefined
          : q.parent_id === 'null'
            ? { where: 'parent IS NULL', params: [] }
            : { where: 'parent = ?', params: [q.parent_id] }
      const filters = [filterScope(categoryEntity, c.req.query()), byParent].filter((s): s is Scope => s !== undefined)
      const extra = filters.length ? { where: filters.map((s) => `(${s.where})`).join(' AND '), params: filters.flatMap((s) => s.params) } : undefined
      const page = await listRows(c.env.DB, categoryEntity, { where: 'realm = ?', params: [realm] }, query, extra)
      if (!q.root_tree) return c.json(page)
      const forest = buildTree(
        await allRows(c, realm),
        page.items.map((r) => r.id),
      )
      const byId = new Map(forest.map((n) => [n.id, n]))
      return c.json({ ...page, items: page.items.map((r) => byId.get(r.id) ?? r) })
    }),
  )
  /**
   * GET /room/category/{id}/count: how many rooms the category holds (`rooms`), and with every category below it
   * (`rooms_in_tree`); 404 `category_not_located` ("Category not located", seed 002 §8) for a category the
   * caller's realm does not have.
   */
  .get(
    '/:id/count',
    guarded({ any: ['room_category_list', 'room_category_get', 'room_room_list'] }, async (c, auth) => {
      const id = pathParam(c, 'id')
      if (!(await roomCategoryExists(c.env.DB, auth.realm, id))) throw apiError(404, 'category_not_located', 'validation.room.category_not_located', 'id', id)
      return c.json({ id, ...(await roomCountByCategory(c.env.DB, auth.realm, id)) })
    }),
  )
  /** GET /room/category/{id}?realm=&root=&with_children=: one category (or, with root, the top of its tree). */
  .get(
    '/:id',
    guarded(GET, async (c, auth) => {
      const q = parse(ReadQuery, c.req.query())
      const rows = await allRows(c, await readRealm(c, auth, q.realm))
      const id = pathParam(c, 'id')
      if (!rows.some((r) => r.id === id)) throw apiError(404, 'not_found', `Category ${id} was not found.`, 'id', id)
      const target = q.root ? rootOf(rows, id) : id
      const [node] = buildTree(rows, [target])
      return c.json(q.with_children ? node : { ...node, children: undefined })
    }),
  )
  /** POST /room/category: a category of the current realm (any `realm` in the body is replaced by it). */
  .post(
    '/',
    guardedJson({ all: ['room_category_create'] }, CategoryCreate, async (c, auth, body) => {
      const id = randomToken(9)
      await checkPlacement(c, auth.realm, id, body.name, body.parent)
      const now = new Date().toISOString()
      const values = {
        id,
        realm: auth.realm,
        name: body.name,
        parent: body.parent,
        priority: body.priority,
        created_at: now,
        updated_at: now,
        updated_by: auth.nick,
      }
      await runBatch(c.env.DB, [insertStatement(c.env.DB, categoryEntity, values), audit(c, auth, 'create', id, undefined, values)])
      return c.json(values, 201)
    }),
  )
  /** PUT /room/category/{id}: rename, move (never under itself or its descendants) or reorder. */
  .put(
    '/:id',
    guardedJson({ all: ['room_category_edit'] }, CategoryUpdate, async (c, auth, body) => {
      const existing = await load(c, auth)
      const next = {
        name: body.name ?? existing.name,
        parent: body.parent === undefined ? existing.parent : body.parent,
        priority: body.priority ?? existing.priority,
      }
      await checkPlacement(c, auth.realm, existing.id, next.name, next.parent)
      const values = { ...next, realm: auth.realm, updated_at: new Date().toISOString(), updated_by: auth.nick }
      await runBatch(c.env.DB, [
        updateStatement(c.env.DB, categoryEntity, { where: 'realm = ?', params: [auth.realm] }, existing.id, values),
        audit(c, auth, 'update', existing.id, existing, { ...existing, ...values }),
      ])
      return c.json({ ...existing, ...values })
    }),
  )
  /** DELETE /room/category/{id}: refused while it has sub-categories or rooms (409 in_use). */
  .delete(
    '/:id',
    guarded({ all: ['room_category_delete'] }, async (c, auth) => {
      const existing = await load(c, auth)
      const child = await firstChildCategory(c.env.DB, auth.realm, existing.id)
      if (child) throw apiError(409, 'in_use', 'validation.category.has_children', 'id', child)
      const room = await firstRoomInCategory(c.env.DB, auth.realm, existing.id)
      if (room) throw apiError(409, 'in_use', 'validation.category.has_rooms', 'id', room)
      await runBatch(c.env.DB, [
        deleteStatement(c.env.DB, categoryEntity, { where: 'realm = ?', params: [auth.realm] }, existing.id),
        audit(c, auth, 'delete', existing.id, existing),
      ])
      return c.body(null, 204)
    }),
  )
