/**
 * Demo channels (issue 13): two channel categories and one channel of `demo` with its owner, an operator and a
 * mobile member, so every channel screen has a record. Idempotent (ON CONFLICT DO NOTHING: re-seeding inserts no
 * member twice, so the member-count triggers stay right). Runs after the demo users (members reference them).
 */
export function seedChannels(db: D1Database): D1PreparedStatement[] {
  const now = new Date().toISOString()
  const category = (id: string, name: string, priority: number, icon: string, featured: number) =>
    db
      .prepare(
        `INSERT INTO channel_category (id, realm, name, priority, featured, active, is_primary, icon, created_at, updated_at, updated_by)
         VALUES (?, 'demo', ?, ?, ?, 1, ?, ?, ?, ?, 'seed') ON CONFLICT DO NOTHING`,
      )
      .bind(id, name, priority, featured, priority === 0 ? 1 : 0, icon, now, now)
  const member = (nick: string, permission: string) =>
    db
      .prepare(
        `INSERT INTO channel_member (realm, channel_id, nick, permission, added_at, added_by) VALUES ('demo', 'ch-demo-aulas', ?, ?, ?, 'seed') ON CONFLICT DO NOTHING`,
      )
      .bind(nick, permission, now)
  return [
    category('chc-demo-aulas', 'Aulas ao vivo', 0, 'education', 1),
    category('chc-demo-eventos', 'Eventos', 1, 'broadcast', 0),
    db
      .prepare(
        `INSERT INTO channel (id, realm, name, category_id, welcome, modes, djinni, created_at, created_by, updated_at, updated_by)
         VALUES ('ch-demo-aulas', 'demo', 'Aulas do 9º ano', 'chc-demo-aulas', ?, ?, '{}', ?, 'seed', ?, 'seed') ON CONFLICT DO NOTHING`,
      )
      .bind(
        JSON.stringify([{ language: 'pt-BR', message: 'Bem-vindos às aulas ao vivo do 9º ano!' }]),
        JSON.stringify({ moderated_chat: true, persistent: true, show_user_list: true, show_banner: true, word_filter: true, keep_listed: true }),
        now,
        now,
      ),
    member('teacher@demo', 'owner'),
    member('tutor@demo', 'operator'),
    member('student@demo', 'mobile'),
  ]
}
