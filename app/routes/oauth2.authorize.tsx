import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useActionData } from '@remix-run/react'
import * as v from 'valibot'
import { RealmChooser, type RealmChoiceResult } from '~/components/realm-chooser'
import { RealmCode } from '~/schemas/common'
import type { RealmConfig } from '~/schemas/realm'
import { RealmApiError, realmApi } from '~/server/api.server'
import { safeRedirect } from '~/server/auth.server'
import { realmCookie, sessionCookie } from '~/server/cookies.server'
import { getRealmContext } from '~/server/realm.server'

export const handle = { title: 'realm.select.title' }

/** The realm chooser exists on multi-realm hosts; a host bound to one realm has nothing to choose. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const realm = await getRealmContext(request, context)
  if (!realm.multirealm) throw redirect('/')
  return null
}

/** Chooses a realm (intent `select`) or forgets the chosen one (intent `reset`, the change-realm button). */
export async function action({ request, context }: ActionFunctionArgs) {
  const realm = await getRealmContext(request, context)
  const form = await request.formData()
  const headers = new Headers()
  if (!realm.multirealm) throw redirect('/')
  if (form.get('intent') === 'reset') {
    headers.append('Set-Cookie', await realmCookie(request).serialize('', { maxAge: 0 }))
    headers.append('Set-Cookie', await sessionCookie(request).serialize('', { maxAge: 0 }))
    throw redirect('/', { headers })
  }
  const parsed = v.safeParse(RealmCode, form.get('realm') ?? '')
  if (!parsed.success) {
    return data<RealmChoiceResult>({ error: { field: 'realm', message: parsed.issues[0].message } }, { status: 400 })
  }
  try {
    await realmApi(request, context).get<RealmConfig>(`mas/realm/${parsed.output}/config`)
  } catch (err) {
    if (err instanceof RealmApiError && err.status < 500) {
      return data<RealmChoiceResult>({ error: { field: 'realm', message: 'realm.error.load' } }, { status: err.status })
    }
    throw err
  }
  headers.append('Set-Cookie', await realmCookie(request).serialize(parsed.output))
  // A session belongs to one realm: choosing another realm signs out of the previous one.
  if (realm.code && realm.code !== parsed.output) headers.append('Set-Cookie', await sessionCookie(request).serialize('', { maxAge: 0 }))
  throw redirect(safeRedirect(form.get('redirectTo')), { headers })
}

export default function RealmChooserRoute() {
  const result = useActionData<typeof action>()
  return <RealmChooser result={result ?? undefined} />
}
