import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { FormScreen } from '~/components/ui/form-screen'
import { RouteError } from '~/components/shell/route-error'
import { SkillInput, type Skill } from '#shared/schemas/tms/skill'
import { orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { DEFAULT_TIME_ZONE, saveForm } from '~/server/entity-form.server'
import { skillFields, skillGroups } from './__tms-taxonomy'

export const handle = { title: 'pages.tms.assessed_skills.edit' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, user, realm } = await requireRoute(request, context, 'tms.assessed_skills.edit')
  const skill = await orErrorResponse(api.get<Skill>(`tms/assessed_skill/${encodeURIComponent(params.skillId ?? '')}`))
  return { skill, groups: (await skillGroups(api, user)).filter((g) => g.value !== skill.id), timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE }
}

export const action = ({ request, context, params }: ActionFunctionArgs) =>
  saveForm(request, context, {
    route: 'tms.assessed_skills.edit',
    schema: SkillInput,
    fields: skillFields(),
    apiPath: `tms/assessed_skill/${encodeURIComponent(params.skillId ?? '')}`,
    method: 'put',
    back: '/tms/assessed_skills',
    flash: 'tms.saved',
  })

export default function SkillEditRoute() {
  const { skill, groups, timeZone } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <FormScreen
      key={skill.id}
      title={`${t('pages.tms.assessed_skills.edit')}: ${skill.name}`}
      back="/tms/assessed_skills"
      fields={skillFields(groups)}
      schema={SkillInput}
      initial={skill}
      timeZone={timeZone}
      protect
    />
  )
}

export const ErrorBoundary = RouteError
