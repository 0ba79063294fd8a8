import { PERMISSIONS, PERMISSION_GROUPS, PLATFORM_PERMISSIONS, PLATFORM_ROLE, permissionGroup } from './schemas/permission'
import type { Access } from './access'
import { ROUTES } from './manifest'

const fmt = (a: Access | 'public') =>
  a === 'public'
    ? 'public'
    : [
        ...(a.all ?? []).map((p) => `\`${p}\``),
        ...(a.any?.length ? [`one of (${a.any.map((p) => `\`${p}\``).join(' OR ')})`] : []),
        ...(a.flags ?? []).map((f) => `realm \`${f}\``),
      ].join(' AND ') || 'signed in'

/**
 * The permission catalogue, the route manifest and the API requirements as Markdown (app/shared/schemas/PERMISSIONS.md).
 * `npm run docs` rewrites the file; a test fails when it is out of date.
 */
export function permissionsMarkdown(endpoints: { method: string; path: string; access: Access | 'public' }[]): string {
  const lines = [
    '# Permissions, routes and endpoints',
    '',
    'Generated from `app/shared/schemas/permission.ts`, `app/shared/manifest.ts` and the API route table by `npm run docs`; do not edit by hand.',
    'Names follow `module_resource_action`. Names the specification shows are kept exactly; the others follow the same convention',
    '(list / get / create / edit / delete per area). Requirements combine with AND; `one of` marks the OR of the specification.',
    '',
    '## Catalogue by group',
    '',
    '| group | permissions |',
    '|---|---|',
    ...PERMISSION_GROUPS.map(
      (g) =>
        `| ${g} | ${
          PERMISSIONS.filter((p) => permissionGroup(p) === g)
            .map((p) => `\`${p}\``)
            .join(', ') || '—'
        } |`,
    ),
    '',
    '## Platform-level permissions',
    '',
    `These reach beyond one realm tree. A realm's \`root\` role does not hold them; the \`${PLATFORM_ROLE}\` role (platform operator) does.`,
    'Like every permission they are granted only by someone who holds them, and they are never copied into a new realm.',
    '',
    '| permission | why it is platform-level |',
    '|---|---|',
    ...Object.entries(PLATFORM_PERMISSIONS).map(([p, why]) => `| \`${p}\` | ${why} |`),
    '',
    '## Console routes',
    '',
    '| route | requirement | notes |',
    '|---|---|---|',
    ...ROUTES.map(
      (r) =>
        `| \`${r.path}\` | ${r.public ? `public${r.access.flags?.length ? ` + realm \`${r.access.flags.join('`, `')}\`` : ''}` : fmt(r.access)} | ${[r.unsaved ? 'unsaved-changes warning' : '', r.hideSidebar ? 'no sidebar' : ''].filter(Boolean).join(', ')} |`,
    ),
    '',
    '## API endpoints (paths under `/api`)',
    '',
    '| method | path | requirement |',
    '|---|---|---|',
    ...endpoints.map((e) => `| ${e.method} | \`${e.path.replace(/^\/api/, '') || '/'}\` | ${fmt(e.access)} |`),
    '',
  ]
  return lines.join('\n')
}
