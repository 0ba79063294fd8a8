/** Inline SVG icons (no icon font, no network); decorative unless a label is given. */
const PATHS = {
  home: 'M3 11.5 12 4l9 7.5V20a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z',
  realm: 'M4 21V9l8-5 8 5v12h-6v-6h-4v6zM9 10h2v2H9zm4 0h2v2h-2z',
  menu: 'M4 6h16v2H4zm0 5h16v2H4zm0 5h16v2H4z',
  eye: 'M12 5c5 0 9 4.5 10 7-1 2.5-5 7-10 7S3 14.5 2 12c1-2.5 5-7 10-7zm0 3a4 4 0 1 0 0 8 4 4 0 0 0 0-8zm0 2a2 2 0 1 1 0 4 2 2 0 0 1 0-4z',
  eyeOff: 'M3.3 2.3 21.7 20.7l-1.4 1.4-3.2-3.2A10.6 10.6 0 0 1 12 20c-5 0-9-4.5-10-7a13.5 13.5 0 0 1 4.3-5.3L1.9 3.7zM12 5c5 0 9 4.5 10 7a13 13 0 0 1-2.7 3.9L16 12.6A4 4 0 0 0 11.4 8L9 5.6A10 10 0 0 1 12 5zM8 10.4A4 4 0 0 0 13.6 16z',
  info: 'M12 2a10 10 0 1 1 0 20 10 10 0 0 1 0-20zm-1 8v7h2v-7zm0-3v2h2V7z',
  logout: 'M10 4H5v16h5v2H3V2h7zm6.6 3.6L21 12l-4.4 4.4-1.4-1.4 2-2H9v-2h8.2l-2-2z',
  chevronLeft: 'M15.4 5.4 9 12l6.4 6.6L14 20l-8-8 8-8z',
  chevronRight: 'M8.6 5.4 10 4l8 8-8 8-1.4-1.4L15 12z',
  sort: 'M12 4 17 9H7zm0 16-5-5h10z',
  sortAsc: 'M12 6l6 7H6z',
  sortDesc: 'M12 18l-6-7h12z',
  download: 'M11 3h2v9.2l3.6-3.6L18 10l-6 6-6-6 1.4-1.4 3.6 3.6zM4 19h16v2H4z',
} as const

export type IconName = keyof typeof PATHS

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
      <path d={PATHS[name]} />
    </svg>
  )
}
