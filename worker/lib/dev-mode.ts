/**
 * True only while `npm start` runs the Worker: it passes `DEV_MODE=1` with `wrangler dev --var`. wrangler.toml never
 * sets it, so a deployed Worker is never in development mode. What it opens (the local e-mail outbox) is still
 * limited to signed-in staff of the realm.
 */
export function devMode(env: Pick<Env, 'DEV_MODE'>): boolean {
  return env.DEV_MODE === '1'
}
