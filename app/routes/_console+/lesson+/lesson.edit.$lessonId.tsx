import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { LessonEditor } from '~/components/lesson/lesson-editor'
import { LessonPublishForm } from '~/components/lesson/publish-form'
import { RouteError } from '~/components/shell/route-error'
import { Icon } from '~/components/ui/icon'
import { formulaLinks } from '~/components/tms/formula-styles'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import lessonStyles from '~/styles/lesson.css?url'
import { DEFAULT_TIME_ZONE } from '~/server/entity-form.server'
import { lessonEditorAction, lessonPublishAction, lessonRefs } from './__lesson.server'

export const links: LinksFunction = () => [...formulaLinks(), { rel: 'stylesheet', href: lessonStyles }]

export const handle = { title: 'pages.lesson.lesson.edit' }

const ModelParam = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,40}$/))

/**
 * `/lesson/lesson/edit/new?model={modelId}` publishes a model (targets and dates); `/lesson/lesson/edit/{lessonId}`
 * edits a published lesson's own copy of the content and its dates.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, user, realm } = await requireRoute(request, context, 'lesson.lesson.edit')
  const timeZone = realm.config?.time_zone ?? DEFAULT_TIME_ZONE
  const id = params.lessonId ?? ''
  if (id === 'new') {
    if (!user.permissions.lesson_lesson_create) throw new Response(null, { status: 403 })
    const modelId = v.safeParse(ModelParam, new URL(request.url).searchParams.get('model'))
    if (!modelId.success) throw new Response(null, { status: 404 })
    const [model, options] = await Promise.all([
      orErrorResponse(apiData(api.lesson.model[':id'].$get({ param: { id: modelId.output } }))),
      orErrorResponse(apiData(api.lesson.lesson.options.$get())),
    ])
    return { mode: 'publish' as const, model: { id: model.id, title: model.title }, options, timeZone }
  }
  const lesson = await orErrorResponse(apiData(api.lesson.lesson[':id'].$get({ param: { id } })))
  return { mode: 'edit' as const, lesson, refs: await lessonRefs(api, user), timeZone, canPreview: Boolean(user.permissions.lesson_lesson_get) }
}

export const action = ({ request, context, params }: ActionFunctionArgs) =>
  params.lessonId === 'new' ? lessonPublishAction(request, context) : lessonEditorAction(request, context, 'lesson', params.lessonId ?? '')

export default function LessonEditRoute() {
  const d = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  if (d.mode === 'publish')
    return (
      <>
        <div className="page-header">
          <div>
            <h1>{t('lesson.publish.title')}</h1>
            <p className="hint">{d.model.title}</p>
          </div>
          <Link to="/lesson/model" className="btn">
            {t('tms.form.back')}
          </Link>
        </div>
        <LessonPublishForm modelId={d.model.id} options={d.options} timeZone={d.timeZone} />
      </>
    )
  const { lesson } = d
  return (
    <>
      <div className="page-header">
        <div>
          <h1>
            {t('pages.lesson.lesson.edit')}: {lesson.title}
          </h1>
          <p className="hint">
            {t(`lesson.status.${lesson.status}`)} · {lesson.rooms}
          </p>
        </div>
        <div className="toolbar-actions">
          {d.canPreview ? (
            <Link to={`/lesson/lesson/preview/${lesson.id}`} className="btn">
              <Icon name="eye" /> {t('tms.model.preview')}
            </Link>
          ) : null}
          <Link to="/lesson/lesson" className="btn">
            {t('tms.form.back')}
          </Link>
        </div>
      </div>
      <LessonEditor
        key={`${lesson.id}/${lesson.updated_at}`}
        initial={lesson}
        refs={d.refs}
        dates={{ publish_at: lesson.publish_at, expire_at: lesson.expire_at, timeZone: d.timeZone }}
      />
    </>
  )
}

export const ErrorBoundary = RouteError
