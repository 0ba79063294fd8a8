import { Link } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type * as v from 'valibot'
import type { FieldSpec } from '~/lib/form-fields'
import { SimpleForm } from './simple-form'

/** A create or edit screen of a plain entity: title, a way back to its list, and the declared form. */
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
  return (
    <>
      <div className="page-header">
        <h1>{props.title}</h1>
        <Link to={props.back} className="btn">
          {t('tms.form.back')}
        </Link>
      </div>
      <SimpleForm
        fields={props.fields}
        schema={props.schema}
        initial={props.initial}
        timeZone={props.timeZone}
        submitLabel={t('tms.form.save')}
        protect={props.protect}
      />
      {props.children}
    </>
  )
}
