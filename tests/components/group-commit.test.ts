import { describe, expect, it } from 'vitest'
import { GROUP_MAX, groupedBatch } from '../../worker/db/group-commit'

/** A D1 stand-in whose batches wait until the test settles them; a statement is its label. */
function fakeD1() {
  const sent: { labels: string[]; settle(fail?: string): void }[] = []
  const db = {
    batch(statements: { label: string }[]) {
      return new Promise<D1Result[]>((resolve, reject) => {
        const labels = statements.map((x) => x.label)
        sent.push({
          labels,
          settle: (fail) =>
            fail && labels.includes(fail) ? reject(new Error(`failed at ${fail}`)) : resolve(labels.map((l) => ({ results: [l] }) as unknown as D1Result)),
        })
      })
    },
  } as unknown as D1Database
  const st = (...labels: string[]) => labels.map((label) => ({ label }) as unknown as D1PreparedStatement)
  const tick = () => new Promise((r) => setTimeout(r, 0))
  return { db, sent, st, tick }
}

const labelsOf = (results: D1Result[]) => results.map((r) => r.results[0])

describe('group commit (worker/db/group-commit.ts)', () => {
  it('sends the first batch at once, then everything that waited for it as ONE batch, each caller getting its own results', async () => {
    const { db, sent, st, tick } = fakeD1()
    const a = groupedBatch(db, 'wallet', st('a1', 'a2'))
    await tick()
    expect(sent.map((b) => b.labels)).toEqual([['a1', 'a2']])
    const b = groupedBatch(db, 'wallet', st('b1'))
    const c = groupedBatch(db, 'wallet', st('c1', 'c2', 'c3'))
    const other = groupedBatch(db, 'another wallet', st('o1'))
    await tick()
    // Another key is its own lane; b and c wait for a.
    expect(sent.map((x) => x.labels)).toEqual([['a1', 'a2'], ['o1']])
    sent[0].settle()
    expect(labelsOf(await a)).toEqual(['a1', 'a2'])
    await tick()
    expect(sent[2].labels).toEqual(['b1', 'c1', 'c2', 'c3'])
    sent[2].settle()
    sent[1].settle()
    expect(labelsOf(await b)).toEqual(['b1'])
    expect(labelsOf(await c)).toEqual(['c1', 'c2', 'c3'])
    expect(labelsOf(await other)).toEqual(['o1'])
    // The lane is free again: the next batch goes at once.
    const d = groupedBatch(db, 'wallet', st('d1'))
    await tick()
    expect(sent[3].labels).toEqual(['d1'])
    sent[3].settle()
    expect(labelsOf(await d)).toEqual(['d1'])
  })

  it('runs every member of a failed group alone, in order, so each succeeds or fails as it would have alone', async () => {
    const { db, sent, st, tick } = fakeD1()
    const first = groupedBatch(db, 'w', st('x'))
    await tick()
    const members = ['p', 'q', 'r'].map((l) => groupedBatch(db, 'w', st(l)).then(labelsOf, (e: Error) => e.message))
    await tick()
    sent[0].settle()
    await first
    await tick()
    expect(sent[1].labels).toEqual(['p', 'q', 'r'])
    sent[1].settle('q')
    for (let i = 2; i <= 4; i++) {
      await tick()
      expect(sent[i].labels).toEqual([['p'], ['q'], ['r']][i - 2])
      sent[i].settle('q')
    }
    expect(await Promise.all(members)).toEqual([['p'], 'failed at q', ['r']])
  })

  it(`puts at most ${GROUP_MAX} members in one batch; the rest form the next group`, async () => {
    const { db, sent, st, tick } = fakeD1()
    const first = groupedBatch(db, 'w', st('first'))
    await tick()
    const rest = Array.from({ length: GROUP_MAX + 3 }, (_, i) => groupedBatch(db, 'w', st(`m${i}`)))
    await tick()
    sent[0].settle()
    await first
    await tick()
    expect(sent[1].labels).toHaveLength(GROUP_MAX)
    sent[1].settle()
    await tick()
    expect(sent[2].labels).toEqual(['m16', 'm17', 'm18'])
    // (Everything waiting when a lane's turn comes goes in its batch, the caller that took the turn first.)
    sent[2].settle()
    expect((await Promise.all(rest)).map(labelsOf).flat()).toEqual(Array.from({ length: GROUP_MAX + 3 }, (_, i) => `m${i}`))
  })
})
