import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { DataTable } from '~/components/ui/data-table'
import { Icon } from '~/components/ui/icon'
import { apiData, orErrorResponse } from '~/server/api.server'
import { DEFAULT_TIME_ZONE } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { TRANSCRIPT_PAGE, transcriptQuery, visitorLabel, whenLabel } from './__transcript'
import { PageHeader } from '~/components/ui/page-header'

export const handle = { title: 'pages.persona.transcript.list' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, realm } = await requireRoute(request, context, 'persona.transcript.list')
  const personaId = params.personaId ?? ''
  const { query, helper, cursor } = transcriptQuery(new URL(request.url).searchParams)
  const [persona, page] = await Promise.all([
    orErrorResponse(apiData(api.personai.persona[':id'].$get({ param: { id: personaId } }))),
    orErrorResponse(apiData(api.personai.persona[':personaId'].transcript.$get({ param: { personaId }, query }))),
  ])
  return {
    persona: { id: persona.id, name: persona.name },
    sessions: page.items,
    next: page.next_cursor,
    helper,
    paged: cursor !== null,
    timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE,
  }
}

/**
 * The transcripts of a persona's public chat (issue 16 "Transcripts are stored per session"): its sessions newest
 * first, 25 a page (cursor paging: the first page and the next older one), filtered to those whose visitor asked for a
 * person; each opens its messages with where every answer came from.
 */
export default function TranscriptListRoute() {
  const d = useLoaderData<typeof loader>()
  const { t, i18n } = useTranslation()
  const navigation = useNavigation()
  const base = `/personai/persona/${encodeURIComponent(d.persona.id)}/transcript`
  const loading = navigation.state === 'loading' && navigation.location.pathname === base
  const filter = d.helper ? '?helper=1' : ''
  const older = d.next ? `${base}?${new URLSearchParams({ ...(d.helper ? { helper: '1' } : {}), cursor: d.next }).toString()}` : null
  return (
    <>
      <PageHeader
        title={`${t('pages.persona.transcript.list')}: ${d.persona.name}`}
        back={`/personai/persona/edit/${encodeURIComponent(d.persona.id)}#persona-transcripts`}
      />
      <nav className="link-tabs" aria-label={t('persona.transcript.filter')}>
        <Link to={base} className="link-tab" aria-current={d.helper ? undefined : 'page'}>
          {t('persona.transcript.all')}
        </Link>
        <Link to={`${base}?helper=1`} className="link-tab" aria-current={d.helper ? 'page' : undefined}>
          {t('persona.transcript.helper_only')}
        </Link>
      </nav>
      <div aria-busy={loading} className={loading ? 'is-loading' : undefined}>
        {loading ? (
          <p className="hint" role="status">
            {t('persona.transcript.loading')}
          </p>
        ) : null}
        <DataTable
          rows={d.sessions}
          empty={t(d.helper ? 'persona.transcript.empty_helper' : d.paged ? 'persona.transcript.empty_more' : 'persona.transcript.empty')}
          emptyClass="empty card"
          label={t('pages.persona.transcript.list')}
          columns={[
            ...['started_at', 'last_at', 'visitor', 'language', 'messages', 'helper'].map((c) => t(`persona.transcript.${c}`)),
            t('persona.editor.knowledge.actions'),
          ]}
        >
          {(s) => (
            <tr key={s.id} data-session={s.id}>
              <td>{whenLabel(s.started_at, i18n.language, d.timeZone)}</td>
              <td>{whenLabel(s.last_at, i18n.language, d.timeZone)}</td>
              <td>{visitorLabel(t, s)}</td>
              <td>{t(`persona.editor.language.${s.language}`, { defaultValue: s.language })}</td>
              <td>{s.message_count.toLocaleString(i18n.language)}</td>
              <td>
                {s.helper_requested_at ? (
                  <span className="badge badge-warning">
                    {t('persona.transcript.helper_at', { at: whenLabel(s.helper_requested_at, i18n.language, d.timeZone) })}
                  </span>
                ) : (
                  '—'
                )}
              </td>
              <td>
                <Link to={`${base}/${encodeURIComponent(s.id)}${filter}`} className="btn btn-small">
                  <Icon name="eye" /> {t('persona.transcript.open')}
                </Link>
              </td>
            </tr>
          )}
        </DataTable>
        <nav className="pager" aria-label={t('persona.transcript.pages')}>
          {d.paged ? (
            <Link to={`${base}${filter}`} className="btn">
              {t('persona.transcript.newest')}
            </Link>
          ) : null}{' '}
          {older ? (
            <Link to={older} className="btn">
              {t('persona.transcript.older', { count: TRANSCRIPT_PAGE })}
            </Link>
          ) : null}
        </nav>
      </div>
    </>
  )
}

export const ErrorBoundary = RouteError
