import { NavLink, useLoaderData } from '@remix-run/react'
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { CrudList } from '~/components/ui/crud-list'
import { contentConfigList } from '~/lists/cgs-content-config'
import { CONFIG_TYPES, type ConfigType, type ContentConfig } from '#shared/schemas/lesson/genesis'
import type { configList } from './__content-config-list.server'

/** The list screen: the types as links (each its own list), then the shared table. */
export function ContentConfigList() {
  const { type, page, query, canCreate, canEdit, canDelete } = useLoaderData<typeof configList>()
  const { t } = useTranslation()
  const spec = useMemo(() => contentConfigList((type ?? undefined) as ConfigType | undefined), [type])
  return (
    <CrudList<ContentConfig>
      spec={spec}
      page={page as never}
      query={query}
      title={type ? `${t('pages.cgs.content_config')}: ${t(`genesis.kind.${type}`)}` : t('pages.cgs.content_config')}
      create={canCreate && type ? { to: `/cgs/content_config/${type}/create`, label: t('pages.cgs.content_config.create') } : null}
      editTo={canEdit ? (row) => `/cgs/content_config/${row.type}/edit/${encodeURIComponent(row.id)}` : null}
      canDelete={canDelete}
      label={(row) => row.title}
    >
      <nav aria-label={t('cgs.types')} className="type-nav">
        <ul>
          <li>
            <NavLink to="/cgs/content_config" end className="btn">
              {t('cgs.all_types')}
            </NavLink>
          </li>
          {CONFIG_TYPES.map((x) => (
            <li key={x}>
              <NavLink to={`/cgs/content_config/${x}`} className="btn">
                {t(`genesis.kind.${x}`)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </CrudList>
  )
}
