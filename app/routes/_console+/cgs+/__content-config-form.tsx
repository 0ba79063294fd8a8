import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { KitForm, SpecFields } from '~/components/form/kit'
import { GuidedTour } from '~/components/ui/guided-tour'
import * as v from 'valibot'
import { configForm, OPTIONS_BY_TYPE } from '#shared/schemas/lesson/genesis'
import { configFields, TOUR_STEPS } from './__content-config'
import type { configScreen } from './__content-config.server'

/**
 * The create and edit screen of one type's configuration: the guided tour (summary, class plan, narrative), the kit
 * form with the type's options, and the lessons generated with it (read only).
 */
export function ContentConfigForm() {
  const { type, row, agents, nick, timeZone } = useLoaderData<Awaited<ReturnType<typeof configScreen>>>()
  const lastResult = useActionData()
  const { t } = useTranslation()
  const fields = configFields(type, agents)
  const schema = configForm(type)
  const steps = TOUR_STEPS[type]
  const kind = t(`genesis.kind.${type}`)
  return (
    <>
      <div className="page-header">
        <h1>{row ? `${t('pages.cgs.content_config.edit')}: ${row.title}` : `${t('pages.cgs.content_config.create')} (${kind})`}</h1>
        <Link to={`/cgs/content_config/${type}`} className="btn">
          {t('tms.form.back')}
        </Link>
      </div>
      {steps ? <GuidedTour tour={`cgs.${type}`} prefix={`cgs.tour.${type}`} steps={steps} nick={nick} /> : null}
      <KitForm
        key={row?.id ?? 'new'}
        schema={schema}
        fields={fields}
        lastResult={lastResult}
        defaultValue={(row ?? { ...v.getDefaults(schema), options: v.getDefaults(OPTIONS_BY_TYPE[type]) }) as never}
        timeZone={timeZone}
        protect
      >
        <SpecFields fields={fields} timeZone={timeZone} />
      </KitForm>
      {row ? (
        <section className="card" aria-labelledby="linked-lessons">
          <h2 id="linked-lessons">{t('cgs.linked_lessons')}</h2>
          {row.linked_lessons?.length ? (
            <ul className="plain-list">
              {row.linked_lessons.map((l) => (
                <li key={l.job_id}>
                  {l.title || t('cgs.untitled')} — {l.created_at.slice(0, 10)}
                </li>
              ))}
            </ul>
          ) : (
            <p className="hint">{t('cgs.no_linked_lessons')}</p>
          )}
        </section>
      ) : null}
    </>
  )
}
