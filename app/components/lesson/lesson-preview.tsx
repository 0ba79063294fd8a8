import type { LinksFunction } from '@remix-run/cloudflare'
import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { LessonView } from '~/components/lesson/lesson-view'
import { formulaLinks } from '~/components/tms/formula-styles'
import lessonStyles from '~/styles/lesson.css?url'
import type { ComponentProps } from 'react'

const TITLE = { model: 'pages.lesson.model.preview', lesson: 'pages.lesson.lesson.preview' } as const

export const lessonPreviewLinks: LinksFunction = () => [...formulaLinks(), { rel: 'stylesheet', href: lessonStyles }]

/** The preview page of a lesson model or a published lesson (`lesson/{model|lesson}/preview/{id}`): every content, with its exports. */
export function LessonPreview({ lesson, kind }: { lesson: ComponentProps<typeof LessonView>['lesson'] & { description?: string }; kind: 'model' | 'lesson' }) {
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header no-print">
        <div>
          <h1>{lesson.title}</h1>
          <p className="hint">
            {t(TITLE[kind])} · {t(`lesson.language.${lesson.language}`)}
          </p>
        </div>
        <Link to={`/lesson/${kind}`} className="btn">
          {t('tms.form.back')}
        </Link>
      </div>
      {lesson.description ? <p className="no-print">{lesson.description}</p> : null}
      <LessonView lesson={lesson} />
    </>
  )
}
