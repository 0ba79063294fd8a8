import { DEMO_PASSWORD, DEMO_ROLES } from './demo'

/**
 * Demo data of realm administration (issue 5): child realms `demo-sul` (with its own administrator) and
 * `demo-norte` under `demo`, and in `demo` a word filter, an exemption domain, a user extra field, a category tree,
 * a complaint report, a metaverse room, a linked asset and a user whose origin realm is another one.
 * Every statement ignores existing rows, so seeding twice changes nothing.
 */
export const DEMO_CHILD_REALMS = [
  { code: 'demo-sul', name: 'Demo Academy Sul', host: 'demo-sul.localhost' },
  { code: 'demo-norte', name: 'Demo Academy Norte', host: 'demo-norte.localhost' },
]
export const DEMO_SUL_ADMIN = 'admin@demo-sul'

export async function seedRealmAdmin(db: D1Database, hash: (password: string) => Promise<string>): Promise<D1PreparedStatement[]> {
  const now = '2026-01-05T12:00:00.000Z'
  const s: D1PreparedStatement[] = []
  const run = (sql: string, ...values: unknown[]) => s.push(db.prepare(sql).bind(...values))
  for (const r of DEMO_CHILD_REALMS) {
    run(
      `INSERT INTO realm (code, name, parent_code, canonical_name, nick_suffix, tms_enable) VALUES (?, ?, 'demo', ?, ?, 1) ON CONFLICT (code) DO NOTHING`,
      r.code,
      r.name,
      r.name,
      `@${r.code}`,
    )
    run('INSERT INTO realm_host (host, realm) VALUES (?, ?) ON CONFLICT (host) DO NOTHING', r.host, r.code)
    for (const role of DEMO_ROLES) {
      if (role.realms && !role.realms.includes(r.code)) continue
      run(`INSERT INTO role (realm, role, description, updated_by) VALUES (?, ?, ?, 'seed') ON CONFLICT DO NOTHING`, r.code, role.role, role.description)
      for (const p of new Set(role.permissions))
        run('INSERT INTO role_permission (realm, role, permission) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', r.code, role.role, p)
    }
  }
  // Hashing is slow by design: only for accounts not there yet.
  const { results } = await db.prepare("SELECT realm || '/' || nick AS id FROM user WHERE realm IN ('demo', 'demo-sul')").all<{ id: string }>()
  const existing = new Set(results.map((r) => r.id))
  const accounts = [
    // demo-sul's administrator, and a coordinator of demo-sul who also works in demo: demo cannot edit them (seed 002 §5).
    { realm: 'demo-sul', nick: DEMO_SUL_ADMIN, name: 'Sara Sul', email: 'sara@sul.demo.edu', origin: 'demo-sul', role: 'admin' },
    { realm: 'demo', nick: 'coord@demo-sul', name: 'Caio Coordenador', email: 'caio@sul.demo.edu', origin: 'demo-sul', role: 'teacher' },
  ].filter((u) => !existing.has(`${u.realm}/${u.nick}`))
  const password = accounts.length ? await hash(DEMO_PASSWORD) : ''
  for (const u of accounts) {
    run(
      'INSERT INTO user (realm, nick, name, email, password_hash, origin_realm) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
      u.realm,
      u.nick,
      u.name,
      u.email,
      password,
      u.origin,
    )
    run('INSERT INTO user_role (realm, nick, role, position) VALUES (?, ?, ?, 0) ON CONFLICT DO NOTHING', u.realm, u.nick, u.role)
  }

  for (const sentence of ['palavrao', 'idiota']) run(`INSERT INTO realm_word_filter (realm, sentence) VALUES ('demo', ?) ON CONFLICT DO NOTHING`, sentence)
  run(`INSERT INTO realm_exemption_domain (realm, domain) VALUES ('demo', 'demo.edu') ON CONFLICT DO NOTHING`)
  run(
    `INSERT INTO extra_field (id, realm, entity, key, label, required, active, external_preview, position, created_at, updated_at)
     VALUES ('xf-demo-matricula', 'demo', 'user', 'matricula', 'Matrícula', 0, 1, 0, 0, ?, ?) ON CONFLICT DO NOTHING`,
    now,
    now,
  )
  const categories: [string, string, string | null, number][] = [
    ['cat-fundamental', 'Ensino Fundamental', null, 0],
    ['cat-fund-1', '1º ano', 'cat-fundamental', 0],
    ['cat-fund-2', '2º ano', 'cat-fundamental', 1],
    ['cat-medio', 'Ensino Médio', null, 1],
    ['cat-medio-1', '1ª série', 'cat-medio', 0],
  ]
  for (const [id, name, parent, priority] of categories) {
    run(
      `INSERT INTO room_category (id, realm, name, parent, priority, created_at, updated_at, updated_by) VALUES (?, 'demo', ?, ?, ?, ?, ?, 'seed') ON CONFLICT DO NOTHING`,
      id,
      name,
      parent,
      priority,
      now,
      now,
    )
  }
  run(
    `INSERT INTO complaint_report (id, realm, target_type, target_id, reason, message, status, reporter, created_at, updated_at)
     VALUES ('rep-demo-1', 'demo', 'message', 'msg-1024', 'harassment', 'Mensagem ofensiva no chat da sala 7A.', 'open', 'student@demo', ?, ?) ON CONFLICT DO NOTHING`,
    now,
    now,
  )
  run(
    `INSERT INTO metaverse_room (id, realm, name, description, host, scene_url, capacity, enabled, created_at, updated_at)
     VALUES ('mv-demo-campus', 'demo', 'Campus Virtual', 'Pátio e auditório para eventos da escola.', 'meta.demo.edu', 'https://meta.demo.edu/scenes/campus', 120, 1, ?, ?) ON CONFLICT DO NOTHING`,
    now,
    now,
  )
  run(
    `INSERT INTO asset (id, realm, name, type, provider, infra, url, created_at, updated_at, updated_by)
     VALUES ('asset-demo-intro', 'demo', 'Boas-vindas ao ano letivo', 'video', 'youtube', 'embed', 'https://www.youtube.com/watch?v=aqz-KE-bpKQ', ?, ?, 'seed') ON CONFLICT DO NOTHING`,
    now,
    now,
  )
  return s
}
