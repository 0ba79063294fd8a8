/**
 * The shape of every icon of the console. Only the build reads these paths: `npm run icons` writes them as the
 * `<symbol>`s of `icons.svg` (one cacheable file under /assets/), and pages reference a symbol by name
 * (`<Icon>` in icon.tsx), so no page's HTML or script carries an icon's path data. A components test keeps
 * icons.svg equal to this table.
 */
export const ICON_PATHS = {
  home: 'M3 11.5 12 4l9 7.5V20a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z',
  realm: 'M4 21V9l8-5 8 5v12h-6v-6h-4v6zM9 10h2v2H9zm4 0h2v2h-2z',
  menu: 'M4 6h16v2H4zm0 5h16v2H4zm0 5h16v2H4z',
  eye: 'M12 5c5 0 9 4.5 10 7-1 2.5-5 7-10 7S3 14.5 2 12c1-2.5 5-7 10-7zm0 3a4 4 0 1 0 0 8 4 4 0 0 0 0-8zm0 2a2 2 0 1 1 0 4 2 2 0 0 1 0-4z',
  eyeOff:
    'M3.3 2.3 21.7 20.7l-1.4 1.4-3.2-3.2A10.6 10.6 0 0 1 12 20c-5 0-9-4.5-10-7a13.5 13.5 0 0 1 4.3-5.3L1.9 3.7zM12 5c5 0 9 4.5 10 7a13 13 0 0 1-2.7 3.9L16 12.6A4 4 0 0 0 11.4 8L9 5.6A10 10 0 0 1 12 5zM8 10.4A4 4 0 0 0 13.6 16z',
  info: 'M12 2a10 10 0 1 1 0 20 10 10 0 0 1 0-20zm-1 8v7h2v-7zm0-3v2h2V7z',
  logout: 'M10 4H5v16h5v2H3V2h7zm6.6 3.6L21 12l-4.4 4.4-1.4-1.4 2-2H9v-2h8.2l-2-2z',
  chevronLeft: 'M15.4 5.4 9 12l6.4 6.6L14 20l-8-8 8-8z',
  chevronRight: 'M8.6 5.4 10 4l8 8-8 8-1.4-1.4L15 12z',
  pageFirst: 'M18.4 5.4 12 12l6.4 6.6L17 20l-8-8 8-8zM6 4h2v16H6z',
  pageLast: 'M5.6 5.4 7 4l8 8-8 8-1.4-1.4L12 12zM16 4h2v16h-2z',
  sort: 'M12 4 17 9H7zm0 16-5-5h10z',
  sortAsc: 'M12 6l6 7H6z',
  sortDesc: 'M12 18l-6-7h12z',
  download: 'M11 3h2v9.2l3.6-3.6L18 10l-6 6-6-6 1.4-1.4 3.6 3.6zM4 19h16v2H4z',
  chart: 'M4 20V10h3v10zm6 0V4h3v16zm6 0v-7h3v7z',
  report: 'M6 2h9l5 5v15H6zm8 1.5V8h4.5zM9 12h8v2H9zm0 4h8v2H9z',
  task: 'M9 2h6v2h4v18H5V4h4zm0 4V5H7v15h10V5h-2v1zm1.4 9.6L16 10l1.4 1.4-7 7L7 15l1.4-1.4z',
  lesson:
    'M3 5h8a3 3 0 0 1 1 .2A3 3 0 0 1 13 5h8v14h-7a2 2 0 0 0-2 1 2 2 0 0 0-2-1H3zm2 2v10h5a4 4 0 0 1 1 .1V8a1 1 0 0 0-1-1zm14 0h-5a1 1 0 0 0-1 1v9.1a4 4 0 0 1 1-.1h5z',
  survey: 'M4 3h16v18H4zm2 2v14h12V5zm2 2h2v2H8zm4 0h4v2h-4zm-4 4h2v2H8zm4 0h4v2h-4zm-4 4h2v2H8zm4 0h4v2h-4z',
  track: 'M5 3a2 2 0 1 1 0 4 2 2 0 0 1 0-4zm14 14a2 2 0 1 1 0 4 2 2 0 0 1 0-4zM6 8h2v4h8a3 3 0 0 1 3 3v1h-2v-1a1 1 0 0 0-1-1H8a2 2 0 0 1-2-2z',
  persona: 'M12 2a5 5 0 1 1 0 10 5 5 0 0 1 0-10zm0 12c5 0 9 2.2 9 5v3H3v-3c0-2.8 4-5 9-5z',
  trophy: 'M7 3h10v2h4v3a4 4 0 0 1-4 4h-.4A5 5 0 0 1 13 15v3h3v3H8v-3h3v-3a5 5 0 0 1-3.6-3H7a4 4 0 0 1-4-4V5h4zm-2 4v1a2 2 0 0 0 2 2zm14 0h-2v3a2 2 0 0 0 2-2z',
  quiz: 'M12 2a10 10 0 1 1 0 20 10 10 0 0 1 0-20zm-1 14v2h2v-2zm1-10a4 4 0 0 0-4 4h2a2 2 0 1 1 2 2 1 1 0 0 0-1 1v2h2v-1.2A4 4 0 0 0 12 6z',
  poll: 'M3 4h18v16H3zm2 2v12h14V6zm2 8h2v2H7zm4-5h2v7h-2zm4 2h2v5h-2z',
  coin: 'M12 2a10 10 0 1 1 0 20 10 10 0 0 1 0-20zm1 4h-2v1.1A3 3 0 0 0 11 13h2a1 1 0 0 1 0 2h-4v2h2v1h2v-1.1a3 3 0 0 0 0-5.9h-2a1 1 0 0 1 0-2h4V7h-2z',
  sparkle: 'M12 2l2.2 6.8L21 11l-6.8 2.2L12 20l-2.2-6.8L3 11l6.8-2.2zm7 13 1 3 3 1-3 1-1 3-1-3-3-1 3-1z',
  users:
    'M9 4a4 4 0 1 1 0 8 4 4 0 0 1 0-8zm8 2a3 3 0 1 1 0 6 3 3 0 0 1 0-6zM9 14c4 0 7 1.8 7 4v2H2v-2c0-2.2 3-4 7-4zm8 0c3 0 5 1.4 5 3v3h-4v-2c0-1.6-.6-2.9-1.7-3.9z',
  channel: 'M4 5h16v11H9l-5 4zm2 2v8.8L8.3 14H18V7z',
  room: 'M3 21V3h12v2h6v16h-2V7h-4v14zm2-2h8V5H5zm5-8h2v2h-2z',
  video: 'M3 6h13v4l5-3v10l-5-3v4H3z',
  cube: 'M12 2l9 5v10l-9 5-9-5V7zm0 2.3L5.5 8 12 11.6 18.5 8zM5 9.7v6.1l6 3.3v-6.1zm14 0-6 3.3v6.1l6-3.3z',
  file: 'M6 2h9l5 5v15H6zm8 1.5V8h4.5z',
  wrench: 'M21 7a5 5 0 0 1-6.6 4.7l-8 8a2 2 0 0 1-2.8-2.8l8-8A5 5 0 0 1 17.9 2.6L15 5.5 15.5 8.5l3 .5 2.9-2.9c.1.3.2.6.2 1z',
  settings:
    'M10.3 2h3.4l.5 2.6a8 8 0 0 1 1.9 1.1l2.5-.9 1.7 3-2 1.7a8 8 0 0 1 0 2.2l2 1.7-1.7 3-2.5-.9a8 8 0 0 1-1.9 1.1l-.5 2.6h-3.4l-.5-2.6a8 8 0 0 1-1.9-1.1l-2.5.9-1.7-3 2-1.7a8 8 0 0 1 0-2.2l-2-1.7 1.7-3 2.5.9a8 8 0 0 1 1.9-1.1zM12 8.5a3.5 3.5 0 1 0 0 7 3.5 3.5 0 0 0 0-7z',
  user: 'M12 3a4.5 4.5 0 1 1 0 9 4.5 4.5 0 0 1 0-9zm0 11c4.4 0 8 2 8 4.5V21H4v-2.5C4 16 7.6 14 12 14z',
  swap: 'M7 4l-4 4 4 4V9h10V7H7zm10 8v3H7v2h10v3l4-4z',
  close: 'M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4L12 13.4 6.4 19 5 17.6 10.6 12 5 6.4z',
  wifiOff: 'M2.8 2.8 21.2 21.2l-1.4 1.4-6.3-6.3-1.5 1.9L2 7.3A15 15 0 0 1 6 5.1L1.4 4.2zM12 4c3.9 0 7.5 1.2 10 3.3l-4.2 5.1-9.6-8.1A16 16 0 0 1 12 4z',
  signal: 'M3 20h3v-4H3zm5 0h3v-8H8zm5 0h3V8h-3zm5 0h3V4h-3z',
  refresh: 'M12 4a8 8 0 0 1 7.7 6h-2.1A6 6 0 1 0 18 13h2a8 8 0 1 1-8-9zm5-1h4v4h-2V5.4L17.6 6.8 16.2 5.4z',
  chevronDown: 'M5.4 8.6 12 15.2l6.6-6.6L20 10l-8 8-8-8z',
  check: 'M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z',
  warning: 'M12 2 1 21h22zm-1 7h2v6h-2zm0 8h2v2h-2z',
  search: 'M10 3a7 7 0 0 1 5.6 11.2l5.1 5.1-1.4 1.4-5.1-5.1A7 7 0 1 1 10 3zm0 2a5 5 0 1 0 0 10 5 5 0 0 0 0-10z',
  plus: 'M11 4h2v7h7v2h-7v7h-2v-7H4v-2h7z',
  trash: 'M9 3h6l1 1h4v2H4V4h4zM6 8h12l-1 13H7zm3 2v9h2v-9zm4 0v9h2v-9z',
  edit: 'M3 17.2V21h3.8L17.9 9.9l-3.8-3.8zM20.7 7.1a1 1 0 0 0 0-1.4l-2.4-2.4a1 1 0 0 0-1.4 0l-1.8 1.8 3.8 3.8z',
  shield: 'M12 2 4 5v6c0 5 3.4 9.7 8 11 4.6-1.3 8-6 8-11V5zm-1.2 14.2-3.5-3.5 1.4-1.4 2.1 2.1 4.6-4.6 1.4 1.4z',
  key: 'M7 14a2 2 0 1 1 0-4 2 2 0 0 1 0 4zm5.6-4A6 6 0 1 0 12.6 14H16v3h3v-3h2v-4z',
  google:
    'M21.6 12.2c0-.7-.1-1.4-.2-2H12v3.8h5.4a4.6 4.6 0 0 1-2 3v2.5h3.2c1.9-1.7 3-4.3 3-7.3zM12 22c2.7 0 5-.9 6.6-2.4l-3.2-2.5c-.9.6-2 1-3.4 1-2.6 0-4.8-1.8-5.6-4.1H3.1v2.6A10 10 0 0 0 12 22zM6.4 14a6 6 0 0 1 0-3.9V7.4H3.1a10 10 0 0 0 0 9.1zM12 5.9c1.5 0 2.8.5 3.8 1.5l2.8-2.8A10 10 0 0 0 3.1 7.4l3.3 2.6C7.2 7.7 9.4 5.9 12 5.9z',
  external: 'M14 3h7v7h-2V6.4l-9.3 9.3-1.4-1.4L17.6 5H14zM5 5h6v2H5v12h12v-6h2v6a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2z',
  upload: 'M11 16h2V7.8l3.6 3.6L18 10l-6-6-6 6 1.4 1.4L11 7.8zM4 19h16v2H4z',
  play: 'M7 4v16l13-8z',
  pause: 'M6 4h4v16H6zm8 0h4v16h-4z',
  block: 'M12 2a10 10 0 1 1 0 20 10 10 0 0 1 0-20zm0 2a8 8 0 0 0-6.3 12.9L16.9 5.7A8 8 0 0 0 12 4zm6.3 3.1L7.1 18.3A8 8 0 0 0 18.3 7.1z',
  copy: 'M8 2h12v14h-2V4H8zM4 6h12v16H4zm2 2v12h8V8z',
  pin: 'M16 9V4h1a1 1 0 0 0 0-2H7a1 1 0 0 0 0 2h1v5a3 3 0 0 1-3 3v2h6v7l1 1 1-1v-7h6v-2a3 3 0 0 1-3-3z',
  link: 'M10.6 13.4a1 1 0 0 0 1.4 0l4-4a3 3 0 0 0-4.2-4.2l-1.5 1.5 1.4 1.4 1.5-1.5a1 1 0 0 1 1.4 1.4l-4 4a1 1 0 0 0 0 1.4zm2.8-2.8a1 1 0 0 0-1.4 0l-4 4a3 3 0 0 0 4.2 4.2l1.5-1.5-1.4-1.4-1.5 1.5a1 1 0 0 1-1.4-1.4l4-4a1 1 0 0 0 0-1.4z',
  bold: 'M7 4h6a4 4 0 0 1 2.9 6.8A4.5 4.5 0 0 1 14 20H7zm3 3v4h3a2 2 0 1 0 0-4zm0 7v3h4a1.5 1.5 0 0 0 0-3z',
  italic: 'M10 4h8v3h-2.8l-3.4 10H14v3H6v-3h2.8l3.4-10H10z',
  listBullet:
    'M4 5.5a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3zm0 5a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3zm0 5a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3zM8 6h13v2H8zm0 5h13v2H8zm0 5h13v2H8z',
  listOrdered: 'M3 4h2v5H4V5H3zm0 7h3v1l-2 2h2v1H3v-1l2-2H3zm0 5h3v5H3v-1h2v-1H4v-1h1v-1H3zM8 6h13v2H8zm0 5h13v2H8zm0 5h13v2H8z',
  image: 'M3 4h18v16H3zm2 2v9.6l4-4 3 3 4-5 3 3.8V6zm3 1.5a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3z',
  sigma: 'M5 4h14v4h-2V6H8.8l5 6-5 6H17v-2h2v4H5v-1.3L11.2 12 5 5.3z',
  arrowUp: 'M12 4l7 7-1.4 1.4L13 7.8V20h-2V7.8l-4.6 4.6L5 11z',
  arrowDown: 'M12 20l-7-7 1.4-1.4 4.6 4.6V4h2v12.2l4.6-4.6L19 13z',
  calendar: 'M7 2h2v2h6V2h2v2h4v18H3V4h4zM5 9v11h14V9zm2 2h3v3H7zm5 0h3v3h-3z',
  grip: 'M9 5a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3zm6 0a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3zM9 10.5a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3zm6 0a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3zM9 16a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3zm6 0a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3z',
  print: 'M7 3h10v5h3a1 1 0 0 1 1 1v8h-4v4H7v-4H3V9a1 1 0 0 1 1-1h3zm2 2v3h6V5zm0 10v4h6v-4z',
  send: 'M3 20 21 12 3 4v6l12 2-12 2z',
  mic: 'M12 2a3 3 0 0 1 3 3v6a3 3 0 0 1-6 0V5a3 3 0 0 1 3-3zm-1 2.5V11a1 1 0 0 0 2 0V4.5a1 1 0 0 0-2 0zM5 10h2a5 5 0 0 0 10 0h2a7 7 0 0 1-6 6.9V20h3v2H8v-2h3v-3.1A7 7 0 0 1 5 10z',
  volume:
    'M3 9h4l5-4v14l-5-4H3zm2 2v2h2.7l2.3 1.8V9.2L7.7 11zm10.5-3.5a6 6 0 0 1 0 9l-1.4-1.4a4 4 0 0 0 0-6.2zM18.3 4.7a10 10 0 0 1 0 14.6l-1.4-1.4a8 8 0 0 0 0-11.8z',
  volumeOff:
    'M3 9h4l5-4v14l-5-4H3zm2 2v2h2.7l2.3 1.8V9.2L7.7 11zm10.3-1.3 1.4-1.4 2.3 2.3 2.3-2.3 1.4 1.4-2.3 2.3 2.3 2.3-1.4 1.4-2.3-2.3-2.3 2.3-1.4-1.4 2.3-2.3z',
  restore: 'M13 3a9 9 0 1 1-8.5 12h2.1A7 7 0 1 0 6.1 10H9l-4 4-4-4h3.1A9 9 0 0 1 13 3zm-1 5h2v4.4l3.2 1.9-1 1.7-4.2-2.5z',
  broadcast:
    'M12 10a2 2 0 1 1 0 4 2 2 0 0 1 0-4zm-1 5h2l2 7h-2l-.5-2h-1l-.5 2H9zM7.8 7.8l1.4 1.4a4 4 0 0 0 0 5.6l-1.4 1.4a6 6 0 0 1 0-8.4zm8.4 0a6 6 0 0 1 0 8.4l-1.4-1.4a4 4 0 0 0 0-5.6zM5 5l1.4 1.4a8 8 0 0 0 0 11.2L5 19A10 10 0 0 1 5 5zm14 0a10 10 0 0 1 0 14l-1.4-1.4a8 8 0 0 0 0-11.2z',
  chat: 'M4 4h16a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1H9l-5 4v-4a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1zm1 2v9h1v2l2.5-2H19V6z',
  education: 'M12 3 1 9l11 6 9-4.9V17h2V9zm-6 9.2V16c0 1.7 2.7 3 6 3s6-1.3 6-3v-3.8l-6 3.3z',
  health: 'M9 3h6v6h6v6h-6v6H9v-6H3V9h6z',
  person: 'M12 3a4 4 0 1 1 0 8 4 4 0 0 1 0-8zm0 10c4.4 0 8 2 8 4.5V21H4v-3.5C4 15 7.6 13 12 13z',
  running:
    'M14 2a2 2 0 1 1 0 4 2 2 0 0 1 0-4zM9.5 7.5 13 7l3 3.5h3v2h-4l-1.5-1.7-1.2 3.2 2.7 2.5V22h-2v-4.6l-2.7-2.3L9 21H7l2.8-8.3.8-2.4-1.4.2L7.5 13 5.8 12z',
  service: 'M12 5a1.5 1.5 0 0 1 1.5 1.5v.6A8 8 0 0 1 20 15H4a8 8 0 0 1 6.5-7.9v-.6A1.5 1.5 0 0 1 12 5zM2 17h20v2H2z',
  shopping: 'M9 7V6a3 3 0 0 1 6 0v1h4l1 14H4L5 7zm2 0h2V6a1 1 0 0 0-2 0z',
  theatre:
    'M2 4h9v6a4.5 4.5 0 0 1-9 0zm2.5 3v1.5h1.5V7zm3 0v1.5H9V7zM4.5 11a2 2 0 0 0 4 0zM13 8h9v6a4.5 4.5 0 0 1-9 0zm2.5 3v1.5H17V11zm3 0v1.5H20V11zm-3 5.5h4a2 2 0 0 0-4 0z',
  tv: 'M3 6h18a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1H3a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1zm1 2v9h16V8zM8 2l4 3 4-3 1 1.4L13.7 6h-3.4L7 3.4zM7 20h10v2H7z',
} as const

export type IconName = keyof typeof ICON_PATHS

/** The sprite file's text: one `<symbol id="name">` per icon, in the table's order. */
export function iconSprite(): string {
  const symbols = Object.entries(ICON_PATHS).map(([name, d]) => `<symbol id="${name}" viewBox="0 0 24 24"><path d="${d}"/></symbol>`)
  return `<svg xmlns="http://www.w3.org/2000/svg">\n${symbols.join('\n')}\n</svg>\n`
}
