/**
 * The pages in which the quiz party posts a closed question's results (or the final standings) to the realm API
 * (issue 14). Every answer and every standing of a crowd in one body passes the API's 5 MB body limit above ~20,000
 * players, so they go in pages of at most PAGE_UNITS UTF-16 code units of JSON (≤ 3 MB of UTF-8 whatever the names
 * are): answers first, then standings, the last page `final` (it finishes the question). Each page is idempotent in
 * the API (an answer counts once, a standing is replaced), so a retry posts every page again.
 */
export const PAGE_UNITS = 1_000_000

export interface ResultPage<A, P> {
  answers: A[]
  players: P[]
  final: boolean
}

export function resultPages<A, P>(answers: A[], players: P[], units = PAGE_UNITS): ResultPage<A, P>[] {
  const pages: ResultPage<A, P>[] = []
  let page: ResultPage<A, P> = { answers: [], players: [], final: false }
  let size = 0
  const add = (kind: 'answers' | 'players', item: A | P) => {
    const length = JSON.stringify(item).length + 1
    if (size + length > units && (page.answers.length || page.players.length)) {
      pages.push(page)
      page = { answers: [], players: [], final: false }
      size = 0
    }
    ;(page[kind] as (A | P)[]).push(item)
    size += length
  }
  for (const a of answers) add('answers', a)
  for (const p of players) add('players', p)
  pages.push({ ...page, final: true })
  return pages
}
