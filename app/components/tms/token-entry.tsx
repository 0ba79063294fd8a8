import { useFetcher } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { KitForm, TextInput } from '~/components/form/kit'

/** The token a student types to open a token-protected task (seed 001 §3 "Task token"). */
export const TokenForm = v.object({
  // Empty when the student opened the task before (the API asks the code on the first open only: token_required).
  token: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(40, 'validation.max_length'))),
})

/**
 * A token-protected task's code, posted to `action` (the task list's `?intent=open&task=`, which opens the task and
 * goes to its apply screen): the API's refusal (wrong code, no code) shows on the field, in words.
 */
export function TokenEntry({ taskId, action, timeZone }: { taskId: string; action: string; timeZone: string }) {
  const { t } = useTranslation()
  const fetcher = useFetcher()
  return (
    <KitForm
      id={`mtms-token-${taskId}`}
      schema={TokenForm}
      fetcher={fetcher}
      lastResult={fetcher.data}
      action={action}
      timeZone={timeZone}
      className="mtms-token"
      submitLabel={t('mobile.tms.open')}
      submitIcon="key"
      labels={{ token: t('mobile.tms.token') }}
    >
      <TextInput name="token" label={t('mobile.tms.token')} hint={t('mobile.tms.token_hint')} autoComplete="off" />
    </KitForm>
  )
}
