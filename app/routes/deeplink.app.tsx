import type { LinksFunction, LoaderFunctionArgs } from '@remix-run/cloudflare'
import feedStyles from '~/styles/feed.css?url'
import { DeeplinkPage } from './__deeplink'
import { deeplinkLoader } from './__deeplink.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: feedStyles }]

export const handle = { title: 'deeplink.title' }

/** GET /deeplink/app?channel={id}: the deep-link page that tries the realm's app at once (the choices stay shown). */
export const loader = (args: LoaderFunctionArgs) => deeplinkLoader(args)

export default function DeeplinkAppRoute() {
  return <DeeplinkPage openApp />
}
