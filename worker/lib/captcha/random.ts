/** Uniform random numbers from the platform's CSPRNG (captcha content must not be predictable), drawn in batches. */
const pool = new Uint32Array(1024)
let next = pool.length

export function random(): number {
  if (next >= pool.length) {
    crypto.getRandomValues(pool)
    next = 0
  }
  return pool[next++] / 2 ** 32
}

/** A random number in [min, max). */
export function between(min: number, max: number): number {
  return min + random() * (max - min)
}

/** A random integer in [min, max]. */
export function intBetween(min: number, max: number): number {
  return Math.floor(between(min, max + 1))
}

export function pick<T>(items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]
}
