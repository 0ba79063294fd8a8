import type { AppLoadContext } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { PackageCreate, PackageUpdate } from '#shared/schemas/ledger'
import type { LedgerPackage } from '#shared/schemas/ledger-entity'
import { requireRoute } from '~/server/auth.server'
import { attempt, invalid, issuesAsErrors, redirectWithFlash } from './__ledger.server'
import { packageBody } from './__ledger-package-form'

/** Creates or updates a package from its form, with the API's own schema; back to the list with a toast. */
export async function savePackage(request: Request, context: AppLoadContext, id?: string) {
  const { api } = await requireRoute(request, context, id ? 'ledger.package.edit' : 'ledger.package.create')
  const form = await request.formData()
  const body = packageBody({
    name: String(form.get('name') ?? ''),
    description: String(form.get('description') ?? ''),
    cost: String(form.get('cost') ?? ''),
    currency: String(form.get('currency') ?? 'BRL'),
    points: String(form.get('points') ?? ''),
    enabled: form.get('enabled') === 'on',
    recommended: form.get('recommended') === 'on',
  })
  const parsed = v.safeParse(id ? PackageUpdate : PackageCreate, body)
  if (!parsed.success) return invalid(issuesAsErrors(parsed.issues))
  const saved = await attempt(() =>
    id ? api.put<LedgerPackage>(`ledger/package/${encodeURIComponent(id)}`, parsed.output) : api.post<LedgerPackage>('ledger/package', parsed.output),
  )
  if (!saved.ok) return saved.response
  return redirectWithFlash('/ledger/package', { kind: 'success', message: 'resources.ledger_package.saved', values: { name: saved.value.name } })
}
