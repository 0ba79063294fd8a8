import type { AppLoadContext } from '@remix-run/cloudflare'
import { apiData } from '~/server/api.server'
import { PackageCreate, PackageUpdate } from '#shared/schemas/ledger'
import { apiAction } from '~/server/api-action.server'
import { preparePackage } from './__ledger-package-form'

/** Creates or updates a package from its form (form kit, the API's own schema); back to the list with a toast. */
export function savePackage(request: Request, context: AppLoadContext, id?: string) {
  return apiAction(request, context, {
    route: id ? 'ledger.package.edit' : 'ledger.package.create',
    schema: id ? PackageUpdate : PackageCreate,
    prepare: preparePackage,
    call: (api, body) => (id ? apiData(api.ledger.package[':id'].$put({ param: { id }, json: body })) : apiData(api.ledger.package.$post({ json: body }))),
    redirect: '/ledger/package',
    flash: (saved) => ({ kind: 'success', message: 'resources.ledger_package.saved', values: { name: saved.name } }),
  })
}
