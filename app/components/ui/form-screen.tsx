import { useActionData } from '@remix-run/react'
import type { ReactNode } from 'react'
import type * as v from 'valibot'
import { KitForm, SpecFields } from '~/components/form/kit'
import { PageHeader } from '~/components/ui/page-header'
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
  const lastResult = useActionData()
  return (
    <>
      <PageHeader title={props.title} back={props.back} />
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
