import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { RouteError } from '~/components/shell/route-error'
import { DialogScreen } from './__dialog-form'
import { dialogScreenLoader, saveDialog } from './__dialog.server'

export const handle = { title: 'pages.persona.dialog.edit' }

export const loader = (args: LoaderFunctionArgs) => dialogScreenLoader(args, 'persona.dialog.edit')

export const action = (args: ActionFunctionArgs) => saveDialog(args, 'persona.dialog.edit')

export default function DialogEditRoute() {
  return <DialogScreen route="persona.dialog.edit" />
}

export const ErrorBoundary = RouteError
