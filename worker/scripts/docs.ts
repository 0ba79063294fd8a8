/** `npm run docs`: rewrites app/schemas/PERMISSIONS.md from the catalogue, the manifest and the API routes. */
import { writeFileSync } from 'node:fs'
import { permissionsMarkdown } from '../../app/lib/permissions-doc'
import { apiEndpoints } from '../api/endpoints'

writeFileSync('app/schemas/PERMISSIONS.md', permissionsMarkdown(apiEndpoints()))
console.log('app/schemas/PERMISSIONS.md written')
