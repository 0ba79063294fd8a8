import { useFetcher } from '@remix-run/react'
import { useEffect } from 'react'

/** A paid call's answer as the media resource routes send it. */
export type PaidMediaAnswer = { ok: boolean; errors: { field: string; cause: string; message: string; value: unknown }[] }

/**
 * The data and calls of a paid media panel (the persona's animations, a lesson's narration and videos) through its
 * resource route `base`: the data loaded once (under `key`, so other components read the same), again after each
 * answer of a call, and every `pollMs` while `pending(data)` says the provider is still working.
 */
export function usePaidMedia<D, A extends PaidMediaAnswer = PaidMediaAnswer>(key: string, base: string, pending: (data: D) => boolean, pollMs: number) {
  const list = useFetcher<D>({ key })
  const run = useFetcher<A>()
  // eslint-disable-next-line react-hooks/exhaustive-deps -- loads once per resource
  useEffect(() => list.load(base), [base])
  useEffect(() => {
    if (run.state === 'idle' && run.data) list.load(base)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per answer
  }, [run.state, run.data])
  const working = list.data !== undefined && pending(list.data as D)
  useEffect(() => {
    if (!working) return
    const timer = setInterval(() => {
      if (list.state === 'idle') list.load(base)
    }, pollMs)
    return () => clearInterval(timer)
  }, [working, list, base, pollMs])
  return { list, run }
}
