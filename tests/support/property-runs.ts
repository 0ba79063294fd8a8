/**
 * How many cases a property test runs: a small default that keeps `npm test` fast, times PROPERTY_SCALE from the
 * shell for a longer search (`PROPERTY_SCALE=20 npm test`; the workers project receives it as a binding, see
 * vitest.config.ts). Failures print fast-check's seed and path, so a case found in a long run replays in a short one.
 */
export function propertyRuns(base: number, scale: string | undefined): number {
  const factor = Number(scale)
  return Number.isFinite(factor) && factor > 0 ? Math.max(1, Math.round(base * factor)) : base
}
