import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { FormScreen } from '~/components/ui/form-screen'
import { RouteError } from '~/components/shell/route-error'
import { SkillInput } from '#shared/schemas/tms/skill'
import { requireRoute } from '~/server/auth.server'
import { DEFAULT_TIME_ZONE, saveForm } from '~/server/entity-form.server'
import { skillFields, skillGroups } from './__tms-taxonomy'

export const handle = { title: 'pages.tms.assessed_skills.create' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, user, realm } = await requireRoute(request, context, 'tms.assessed_skills.create')
  return { groups: await skillGroups(api, user), timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE }
}

export const action = ({ request, context }: ActionFunctionArgs) =>
  saveForm(request, context, {
    route: 'tms.assessed_skills.create',
    schema: SkillInput,
    fields: skillFields(),
    apiPath: 'tms/assessed_skill',
    method: 'post',
    back: '/tms/assessed_skills',
    flash: 'tms.saved',
  })

export default function SkillCreateRoute() {
  const { groups, timeZone } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <FormScreen
      title={t('pages.tms.assessed_skills.create')}
      back="/tms/assessed_skills"
      fields={skillFields(groups)}
      schema={SkillInput}
      initial={{ type: 'skill', weight: 1 }}
      timeZone={timeZone}
      protect
    />
  )
}

export const ErrorBoundary = RouteError
