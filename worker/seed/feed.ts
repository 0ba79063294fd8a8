/**
 * Demo feed (issue 13): a pinned notice and two posts in room `9º A` of `demo`, so the console's feed panel and the
 * mobile-web feed (`student`) have something to show. Idempotent (fixed ids, ON CONFLICT DO NOTHING). Runs after the
 * demo rooms.
 */
export function seedFeed(db: D1Database): D1PreparedStatement[] {
  const post = (id: string, minutesAgo: number, author: string, name: string, message: string, media: [string, string] = ['none', ''], pinned = false) => {
    const at = new Date(Date.UTC(2026, 0, 5, 12, 0) - minutesAgo * 60_000).toISOString()
    return db
      .prepare(
        `INSERT INTO feed_post (id, realm, room_id, message, media_type, media_url, urls, author, author_name, status, pinned, pinned_at, pinned_by, created_at, seq)
         SELECT ?, 'demo', 'r-demo-9a', ?, ?, ?, '[]', ?, ?, 'published', ?, ?, ?, ?, COALESCE(MAX(seq), 0) + 1 FROM feed_post WHERE realm = 'demo'
         ON CONFLICT DO NOTHING`,
      )
      .bind(id, message, media[0], media[1], author, name, pinned ? 1 : 0, pinned ? at : null, pinned ? author : null, at)
  }
  return [
    post('fp-demo-1', 120, 'teacher@demo', 'Paulo Lima', 'Bem-vindos ao mural do 9º A! Avisos da turma ficam fixados aqui no topo.', undefined, true),
    post('fp-demo-2', 60, 'teacher@demo', 'Paulo Lima', 'Material de apoio da aula de frações.', ['link', 'https://pt.wikipedia.org/wiki/Fra%C3%A7%C3%A3o']),
    post('fp-demo-3', 30, 'student@demo', 'Ana Costa', 'Alguém pode explicar de novo o exercício 4?'),
  ]
}
