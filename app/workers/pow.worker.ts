/// <reference lib="webworker" />
import { solvePow } from '#shared/pow'

/** Solves a proof-of-work challenge off the main thread, reporting progress; one challenge per message. */
declare const self: DedicatedWorkerGlobalScope

self.onmessage = async (event: MessageEvent<{ challengeId: string; difficulty: number }>) => {
  const { challengeId, difficulty } = event.data
  let last = 0
  const nonce = await solvePow(challengeId, difficulty, (tried) => {
    // A few progress reports per second are plenty.
    if (tried - last >= 4096) {
      last = tried
      self.postMessage({ type: 'progress', tried })
    }
  })
  self.postMessage({ type: 'done', nonce })
}
