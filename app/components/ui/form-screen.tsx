import { Link, useActionData } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useTranslation } from '~/i18n/react'
import type * as v from 'valibot'
import { KitForm, SpecFields } from '~/components/form/kit'
import type { FieldSpec } from '~/lib/form-fields'

/**
 * A create or edit screen of a plain entity: title, a way back to its list, and the declared form on the kit
 * (its action is `saveForm`/`apiAction` with the same schema and fields).
 */
export function FormScreen(props: {
  title: string
  back: string
  fields: FieldSpec[]
  schema: v.GenericSchema
  initial: Record<string, unknown>
  timeZone: string
  protect?: boolean
  children?: ReactNode
}) {
  const { t } = useTranslation()
  const lastResult = useActionData()
  return (
    <>
      <div className="page-header">
        <h1>{props.title}</h1>
        <Link to={props.back} className="btn">
          {t('tms.form.back')}
        </Link>
      </div>
      <KitForm
        schema={props.schema}
        fields={props.fields}
        lastResult={lastResult}
        defaultValue={props.initial}
        timeZone={props.timeZone}
        protect={props.protect}
      >
        <SpecFields fields={props.fields} timeZone={props.timeZone} />
      </KitForm>
      {props.children}
    </>
  )
}
