/** `npm run docs`: rewrites app/shared/schemas/PERMISSIONS.md from the catalogue, the manifest and the API routes. */
import { writeFileSync } from 'node:fs'
import { permissionsMarkdown } from '#shared/permissions-doc'
import { apiEndpoints } from '../api/endpoints'

writeFileSync('app/shared/schemas/PERMISSIONS.md', permissionsMarkdown(apiEndpoints()))
console.log('app/shared/schemas/PERMISSIONS.md written')
