import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { LessonEditor } from '~/components/lesson/lesson-editor'
import { RouteError } from '~/components/shell/route-error'
import { Icon } from '~/components/ui/icon'
import { formulaLinks } from '~/components/tms/formula-styles'
import { DEFAULT_CLASS_PLAN } from '#shared/schemas/lesson/lesson'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import lessonStyles from '~/styles/lesson.css?url'
import { lessonEditorAction, lessonRefs } from './__lesson.server'

// This page shows formulas (rich text, slides): it links KaTeX's stylesheet.
export const links: LinksFunction = () => [...formulaLinks(), { rel: 'stylesheet', href: lessonStyles }]

export const handle = { title: 'pages.lesson.model.edit' }

/** A new model starts empty (`/lesson/model/edit/new`: the seed lists no create route for lessons). */
const EMPTY = {
  title: '',
  description: '',
  tags: [],
  categories: [],
  language: 'pt-BR',
  assets: [],
  tasks: [],
  summary: '',
  class_plan: DEFAULT_CLASS_PLAN,
  handout: '',
  slides: [],
  video: null,
  persona_id: null,
  question_pairs: [],
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, user } = await requireRoute(request, context, 'lesson.model.edit')
  const id = params.lessonId ?? ''
  if (id === 'new' && !user.permissions.lesson_model_create) throw new Response(null, { status: 403 })
  const model = id === 'new' ? null : await orErrorResponse(apiData(api.lesson.model[':id'].$get({ param: { id } })))
  return {
    model,
    refs: await lessonRefs(api, user),
    can: { preview: Boolean(user.permissions.lesson_model_get), publish: Boolean(user.permissions.lesson_lesson_create) },
  }
}

export const action = ({ request, context, params }: ActionFunctionArgs) => lessonEditorAction(request, context, 'model', params.lessonId ?? '')

export default function LessonModelEditRoute() {
  const { model, refs, can } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <div>
          <h1>{model ? `${t('pages.lesson.model.edit')}: ${model.title}` : t('lesson.model.create')}</h1>
          {model ? <p className="hint">{t('lesson.model.published_count', { count: model.published_count })}</p> : null}
        </div>
        <div className="toolbar-actions">
          {model && can.preview ? (
            <Link to={`/lesson/model/preview/${model.id}`} className="btn">
              <Icon name="eye" /> {t('tms.model.preview')}
            </Link>
          ) : null}
          {model && can.publish ? (
            <Link to={`/lesson/lesson/edit/new?model=${model.id}`} className="btn">
              <Icon name="send" /> {t('tms.model.publish')}
            </Link>
          ) : null}
          <Link to="/lesson/model" className="btn">
            {t('tms.form.back')}
          </Link>
        </div>
      </div>
      <LessonEditor key={model ? `${model.id}/${model.updated_at}` : 'new'} initial={model ?? EMPTY} refs={refs} mediaLessonId={model?.id} />
    </>
  )
}

export const ErrorBoundary = RouteError
