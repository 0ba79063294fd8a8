import type { IconName } from './icon-paths'
// The sprite is a hashed file under /assets/ (cached for good, and by the service worker): never inlined.
import spriteUrl from './icons.svg?no-inline'

export type { IconName }

/**
 * An icon of the sprite (icons.svg, written from icon-paths.ts by `npm run icons`): the page carries a reference,
 * not the path data. Decorative unless a label is given.
 */
export function Icon({ name, label, size = 20 }: { name: IconName; label?: string; size?: number }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="currentColor"
      aria-hidden={label ? undefined : true}
      role={label ? 'img' : undefined}
      aria-label={label}
      focusable="false"
    >
      <use href={`${spriteUrl}#${name}`} />
    </svg>
  )
}
