import type { LinksFunction, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { LessonView } from '~/components/lesson/lesson-view'
import { RouteError } from '~/components/shell/route-error'
import { formulaLinks } from '~/components/tms/formula-styles'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import lessonStyles from '~/styles/lesson.css?url'

export const links: LinksFunction = () => [...formulaLinks(), { rel: 'stylesheet', href: lessonStyles }]

export const handle = { title: 'pages.lesson.lesson.preview' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api } = await requireRoute(request, context, 'lesson.lesson.preview')
  return { lesson: await orErrorResponse(apiData(api.lesson.lesson[':id'].$get({ param: { id: params.modelId ?? '' } }))) }
}

export default function LessonPreviewRoute() {
  const { lesson } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header no-print">
        <div>
          <h1>{lesson.title}</h1>
          <p className="hint">
            {t('pages.lesson.lesson.preview')} · {t(`lesson.language.${lesson.language}`)}
          </p>
        </div>
        <Link to="/lesson/lesson" className="btn">
          {t('tms.form.back')}
        </Link>
      </div>
      {lesson.description ? <p className="no-print">{lesson.description}</p> : null}
      <LessonView lesson={lesson} />
    </>
  )
}

export const ErrorBoundary = RouteError
