import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { RouteError } from '~/components/shell/route-error'
import { DialogScreen } from './__dialog-form'
import { dialogScreenLoader, saveDialog } from './__dialog.server'

export const handle = { title: 'pages.persona.dialog.create' }

export const loader = (args: LoaderFunctionArgs) => dialogScreenLoader(args, 'persona.dialog.create')

export const action = (args: ActionFunctionArgs) => saveDialog(args, 'persona.dialog.create')

export default function DialogCreateRoute() {
  return <DialogScreen route="persona.dialog.create" />
}

export const ErrorBoundary = RouteError
