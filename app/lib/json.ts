import type { FetcherWithComponents } from '@remix-run/react'

/** A JSON copy of a value as a fetcher's JSON body (undefined values are dropped, as JSON does). */
export function jsonBody(value: unknown): Parameters<FetcherWithComponents<unknown>['submit']>[0] {
  return JSON.parse(JSON.stringify(value ?? null))
}
