import { describe, expect, it } from 'vitest'
import type { Category } from '#shared/schemas/category'
import type { ListPage } from '#shared/schemas/common'
import { DEMO, ESCOLA, api, call, expectEnvelope, userWith } from './helpers'

const ALL = ['dashboard_dashboard_access', 'room_category_list', 'room_category_get', 'room_category_create', 'room_category_edit', 'room_category_delete']
const names = (nodes: Category[]): unknown => nodes.map((n) => (n.children?.length ? { [n.name]: names(n.children) } : n.name))

async function make(token: string, name: string, parent: string | null = null, realm?: string) {
  const res = await api(DEMO, 'room/category', { method: 'POST', token, json: { name, parent, ...(realm ? { realm } : {}) } })
  expect(res.status, await res.clone().text()).toBe(201)
  return (await res.json()) as Category
}

describe('room category tree', () => {
  it('creates categories in the current realm whatever realm the body names', async () => {
    const { token } = await userWith('demo', ALL)
    const cat = await make(token, `Outra ${crypto.randomUUID().slice(0, 4)}`, null, 'escola')
    expect(cat.realm).toBe('demo')
  })

  it('answers the tree: roots with children, a subtree, the root of a node, the children of a parent', async () => {
    const { token } = await userWith('demo', ALL)
    const top = await make(token, `Árvore ${crypto.randomUUID().slice(0, 4)}`)
    const a = await make(token, 'A', top.id)
    const a1 = await make(token, 'A1', a.id)
    await make(token, 'B', top.id)

    const withChildren = (await (await api(DEMO, `room/category/${top.id}?with_children=true`, { token })).json()) as Category
    expect(names([withChildren])).toEqual([{ [top.name]: [{ A: ['A1'] }, 'B'] }])
    const plain = (await (await api(DEMO, `room/category/${a1.id}`, { token })).json()) as Category
    expect(plain).toMatchObject({ id: a1.id, parent: a.id })
    expect(plain.children).toBeUndefined()
    const root = (await (await api(DEMO, `room/category/${a1.id}?root=true`, { token })).json()) as Category
    expect(root.id).toBe(top.id)
    const trees = (await (await api(DEMO, `room/category/with-children?ids=${a1.id}&root=true`, { token })).json()) as { items: Category[] }
    expect(trees.items.map((t) => t.id)).toEqual([top.id])
    const children = (await (await api(DEMO, `room/category?parent_id=${top.id}&order=name`, { token })).json()) as ListPage<Category>
    expect(children.items.map((c) => c.name)).toEqual(['A', 'B'])
    const roots = (await (await api(DEMO, 'room/category?parent_id=null&root_tree=true&limit=100', { token })).json()) as ListPage<Category>
    expect(roots.items.every((c) => c.parent === null)).toBe(true)
    expect(names(roots.items.filter((c) => c.id === top.id))).toEqual([{ [top.name]: [{ A: ['A1'] }, 'B'] }])
    const named = (await (await api(DEMO, 'room/category?name=fundamental', { token })).json()) as ListPage<Category>
    expect(named.items.map((c) => c.name)).toEqual(['Ensino Fundamental'])
  })

  it('shows the console list from the declared list spec (search, order, parent by its path, CSV) and the tree as a view', async () => {
    const { token, cookie } = await userWith('demo', ALL)
    const tag = crypto.randomUUID().slice(0, 6)
    const top = await make(token, `Lista ${tag}`)
    await make(token, `Filho ${tag}`, top.id)
    const list = await call(DEMO, `/room/category?like=${tag}&order=-name`, { headers: { cookie } })
    expect(list.status).toBe(200)
    const html = await list.text()
    const rows = [...html.matchAll(/<tr[^>]*>(.*?)<\/tr>/gs)].map((m) => m[1]).filter((r) => r.includes('<td') && r.includes(tag))
    // Ordered by name descending; the child's parent column names the parent, not its id.
    expect(rows.map((r) => (r.includes(`Lista ${tag}`) && !r.includes(`Filho ${tag}`) ? 'top' : 'child'))).toEqual(['top', 'child'])
    expect(rows[1]).toContain(`Lista ${tag}`)
    expect(rows[1]).not.toContain(top.id)
    expect(html).toContain('/export/category')
    const tree = await (await call(DEMO, '/room/category?view=tree', { headers: { cookie } })).text()
    expect(tree).toContain('role="tree"')
    expect(tree).toContain(`Filho ${tag}`)
    const csv = await call(DEMO, `/export/category?like=${tag}&order=name`, { headers: { cookie } })
    expect(csv.status).toBe(200)
    const lines = (await csv.text()).trim().split('\n')
    expect(lines.slice(1).map((l) => l.includes(`Filho ${tag}`))).toEqual([true, false])
  })

  it('never lets a category become its own ancestor', async () => {
    const { token } = await userWith('demo', ALL)
    const top = await make(token, `Ciclo ${crypto.randomUUID().slice(0, 4)}`)
    const mid = await make(token, 'Meio', top.id)
    const leaf = await make(token, 'Folha', mid.id)
    await expectEnvelope(await api(DEMO, `room/category/${top.id}`, { method: 'PUT', token, json: { parent: leaf.id } }), 422, 'cycle')
    await expectEnvelope(await api(DEMO, `room/category/${top.id}`, { method: 'PUT', token, json: { parent: top.id } }), 422, 'cycle')
    const moved = await api(DEMO, `room/category/${leaf.id}`, { method: 'PUT', token, json: { parent: top.id } })
    expect(((await moved.json()) as Category).parent).toBe(top.id)
    expect(((await (await api(DEMO, `room/category/${mid.id}`, { method: 'PUT', token, json: { parent: null } })).json()) as Category).parent).toBeNull()
  })

  it('keeps parents inside the realm, sibling names unique, and refuses deleting a category with children', async () => {
    const { token } = await userWith('demo', ALL)
    const escola = await userWith('escola', ALL)
    const foreign = (await (await api(ESCOLA, 'room/category', { method: 'POST', token: escola.token, json: { name: 'Da escola' } })).json()) as Category
    await expectEnvelope(await api(DEMO, 'room/category', { method: 'POST', token, json: { name: 'Intruso', parent: foreign.id } }), 422, 'not_found')
    await expectEnvelope(await api(DEMO, `room/category/${foreign.id}`, { token }), 404)
    const top = await make(token, `Pai ${crypto.randomUUID().slice(0, 4)}`)
    await make(token, 'Filho', top.id)
    await expectEnvelope(await api(DEMO, 'room/category', { method: 'POST', token, json: { name: 'filho', parent: top.id } }), 409, 'conflict')
    await expectEnvelope(await api(DEMO, 'room/category', { method: 'POST', token, json: { name: 'Órfão', parent: 'no-such-id' } }), 422, 'not_found')
    await expectEnvelope(await api(DEMO, `room/category/${top.id}`, { method: 'DELETE', token }), 409, 'in_use')
    await expectEnvelope(await api(DEMO, 'room/category', { method: 'POST', token, json: { name: ' ' } }), 400)
  })

  it('reads another realm of the tree with `realm`, never one outside it', async () => {
    const { token } = await userWith('demo', ALL)
    expect((await api(DEMO, 'room/category?realm=demo-sul', { token })).status).toBe(200)
    await expectEnvelope(await api(DEMO, 'room/category?realm=escola', { token }), 404)
  })

  it('lets an editor read the tree to choose a parent without room_category_list', async () => {
    const { token } = await userWith('demo', ['dashboard_dashboard_access', 'room_category_edit'])
    expect((await api(DEMO, 'room/category/with-children', { token })).status).toBe(200)
  })
})
