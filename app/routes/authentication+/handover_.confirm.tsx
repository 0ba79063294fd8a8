import { data, redirect, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { HandoverFailed } from '~/components/signin/handover-failed'
import { HandoverHash, HandoverSecret } from '#shared/schemas/handover'
import { apiData, realmApi, RealmApiError } from '~/server/api.server'
import { handoverStateCookie } from '~/server/cookies.server'
import { getRealmContext } from '~/server/realm.server'

export const handle = { title: 'realm.switch.title' }

const failed = (status: number) => data({ failed: true }, { status })

/**
 * The middle leg of a session handover, on the host where the realm switch started: the target host sent the
 * browser here with the code and the hash of the nonce it bound. Only the browser that started the switch holds
 * the state cookie (set by /realm/change); with it the API confirms the code, and the browser goes back to the
 * target host to claim the session (authentication.handover.tsx). The state is forgotten either way.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const query = v.safeParse(v.object({ code: HandoverSecret, nonce_hash: HandoverHash }), {
    code: url.searchParams.get('code') ?? '',
    nonce_hash: url.searchParams.get('nonce_hash') ?? '',
  })
  const states = handoverStateCookie(request)
  const state = v.safeParse(HandoverSecret, await states.parse(request.headers.get('cookie')))
  const realm = await getRealmContext(request, context)
  // No state here: this browser did not start the switch (someone else's link), so nothing is confirmed.
  if (!realm.config || !query.success || !state.success) throw failed(400)
  const api = realmApi(request, context, { endpoint: realm.config.api_endpoint, realm: realm.multirealm ? (realm.code ?? undefined) : undefined })
  let confirmed: { target_url: string }
  try {
    confirmed = await apiData(api.mas.session.handover.confirm.$post({ json: { ...query.output, state: state.output } }))
  } catch (err) {
    if (err instanceof RealmApiError && err.status < 500) throw failed(err.status)
    throw err
  }
  const claim = new URL('authentication/handover', confirmed.target_url)
  claim.searchParams.set('code', query.output.code)
  claim.searchParams.set('step', 'claim')
  return redirect(claim.toString(), { headers: { 'Set-Cookie': await states.serialize('', { maxAge: 0 }) } })
}

export default function HandoverConfirm() {
  return null
}

export function ErrorBoundary() {
  return <HandoverFailed />
}
