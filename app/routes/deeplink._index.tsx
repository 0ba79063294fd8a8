import type { LinksFunction, LoaderFunctionArgs } from '@remix-run/cloudflare'
import feedStyles from '~/styles/feed.css?url'
import { DeeplinkPage } from './__deeplink'
import { deeplinkLoader } from './__deeplink.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: feedStyles }]

export const handle = { title: 'deeplink.title' }

/** GET /deeplink?channel={id}: the conference deep-link page (public). */
export const loader = (args: LoaderFunctionArgs) => deeplinkLoader(args)

export default function DeeplinkRoute() {
  return <DeeplinkPage />
}
