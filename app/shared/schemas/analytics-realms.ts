/** GET analytics/realms: the realms the analytics pages' realm picker offers (the caller's realm tree, live realms). */
export interface AnalyticsRealms {
  /** The caller's current realm (the figures' realm when the URL names none). */
  current: string
  /** Tree order: a realm, then its children by name; `depth` 0 for the roots of the list. */
  realms: { code: string; name: string; depth: number }[]
}
