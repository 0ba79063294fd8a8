import { DurableObject } from 'cloudflare:workers'
import { runStatements, type RawStatement } from '../../db/ledger-group'

/** Movements committed in one batch at most (a D1 batch runs every statement of them: a few each). */
export const GROUP_MAX = 16

/**
 * The paying wallet's object (one per paying account, `idFromName(accountId)`): commits the movements it is sent in
 * groups. A movement that arrives while a batch is running waits for the next one, which takes every waiting movement
 * (up to GROUP_MAX) in ONE D1 batch, one commit (the local D1 syncs its file once per commit, on the thread that runs
 * the Worker). Each movement's statements are exactly those it would run alone, in the same order, and the batch is all
 * or nothing: when it fails (a wallet that would go below zero, a key already used, remembered reads found stale), no
 * movement of the group is written and each is then run alone, in arrival order, so each gets the answer it would have
 * got alone. The waiting calls are woken by this object (all of its calls share its context), not by another request.
 */
export class LedgerPayer extends DurableObject<Env> {
  #waiting: { statements: RawStatement[]; done: (failure: string | null) => void }[] = []
  #running = false

  /** Commits the movement's statements; answers null once committed, or the text of the error that refused them. */
  post(statements: RawStatement[]): Promise<string | null> {
    return new Promise((done) => {
      this.#waiting.push({ statements, done })
      if (!this.#running) void this.#drain()
    })
  }

  #commit(statements: RawStatement[]) {
    return runStatements(this.env.DB, statements)
  }

  async #drain() {
    this.#running = true
    try {
      while (this.#waiting.length) {
        const group = this.#waiting.splice(0, GROUP_MAX)
        try {
          await this.#commit(group.flatMap((m) => m.statements))
          for (const m of group) m.done(null)
        } catch (err) {
          if (group.length === 1) group[0].done(String(err))
          else
            for (const m of group) {
              try {
                await this.#commit(m.statements)
                m.done(null)
              } catch (one) {
                m.done(String(one))
              }
            }
        }
      }
    } finally {
      this.#running = false
    }
  }
}
