import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { CrudList } from '~/components/ui/crud-list'
import { RouteError } from '~/components/shell/route-error'
import skillList from '~/lists/tms-assessed-skill'
import type { Skill } from '#shared/schemas/tms/skill'
import { deleteRow } from '~/server/entity-form.server'
import { loadList } from '~/server/list.server'

export const handle = { title: 'pages.tms.assessed_skills.list' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query, user } = await loadList(request, context, skillList)
  return {
    page,
    query,
    canCreate: user.permissions.tms_assessed_skill_create,
    canEdit: user.permissions.tms_assessed_skill_edit,
    canDelete: user.permissions.tms_assessed_skill_delete,
  }
}

export const action = ({ request, context }: ActionFunctionArgs) => deleteRow(request, context, 'tms.assessed_skills.list', (id) => `tms/assessed_skill/${id}`)

export default function SkillListRoute() {
  const { page, query, canCreate, canEdit, canDelete } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const names = new Map(page.items.map((s) => [s.id, s.name]))
  const spec = {
    ...skillList,
    columns: skillList.columns.map((c) => (c.id === 'group_id' ? { ...c, format: (v: unknown) => (typeof v === 'string' ? (names.get(v) ?? v) : '') } : c)),
  }
  return (
    <CrudList<Skill>
      spec={spec}
      page={page}
      query={query}
      title={t('pages.tms.assessed_skills.list')}
      create={canCreate ? { to: '/tms/assessed_skills/create', label: t('pages.tms.assessed_skills.create') } : null}
      editTo={canEdit ? (row) => `/tms/assessed_skills/edit/${row.id}` : null}
      canDelete={canDelete}
      label={(row) => row.name}
    />
  )
}

export const ErrorBoundary = RouteError
