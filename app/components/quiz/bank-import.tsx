import type { SubmissionResult } from '@conform-to/react'
import { Form, useFetcher, useNavigation } from '@remix-run/react'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { CheckboxGroup, KitForm } from '~/components/form/kit'
import { errorText } from '~/lib/error-text'
import { QuizBankImportInput } from '#shared/schemas/quiz'

/** What a bank import answered (the route's `BankImportAnswer`): what it added and what it skipped, and why. */
export type BankReport = {
  imported: { id: string; position: number; text: string }[]
  skipped: { id: string; index: number; text: string; field: string; cause: string; message: string; value: unknown }[]
}

/**
 * The form's chosen ids as the schema's list: no box checked posts nothing and one box a lone value, so both become
 * a list (the form and its action read it the same way; none chosen is then "at least one question").
 */
export const bankIds = (values: Record<string, unknown>) => ({ ...values, ids: [values.ids ?? []].flat() })

/** The single-choice items of the question bank the screen offers (`like`: the search that found them). */
export type BankOffer = { items: { id: string; text: string }[]; more: boolean; failed: boolean; like: string }

/**
 * Import from the task question bank (issue 14), beside the file import on a quiz's control screen: a search over the
 * bank's single-choice statements (`?bank=`, a plain GET, so it works without script and survives a reload), the
 * items found as checkboxes, and after the import what was added and what was skipped with its reason (only
 * single-choice items with exactly three options, one correct, within the quiz's character limits fit).
 */
export function BankImport({ here, timeZone, bank }: { here: string; timeZone: string; bank: BankOffer }) {
  const { t } = useTranslation()
  const id = useId()
  const imp = useFetcher<SubmissionResult & { bank?: BankReport }>()
  const navigation = useNavigation()
  const searching = navigation.state === 'loading' && new URLSearchParams(navigation.location?.search).has('bank')
  const report = imp.state === 'idle' ? imp.data?.bank : undefined
  const reason = (s: BankReport['skipped'][number]) => {
    const text = errorText(t, s)
    const field = s.field.split('.')[2]
    return field ? `${t(`resources.quiz.fields.${field}`)}: ${text}` : text
  }
  return (
    // The whole width of the question forms' grid: statements are long.
    <section className="card simple-form" style={{ gridColumn: '1 / -1' }} aria-labelledby={`${id}-title`} aria-busy={searching || imp.state !== 'idle'}>
      <h3 id={`${id}-title`}>{t('resources.quiz.bank.title')}</h3>
      <p className="hint">{t('resources.quiz.bank.hint')}</p>
      <Form method="get" role="search" aria-label={t('resources.quiz.bank.search')} preventScrollReset>
        <div className="field">
          <label htmlFor={`${id}-like`}>{t('resources.quiz.bank.search')}</label>
          <div className="input-group">
            <input id={`${id}-like`} className="input" type="search" name="bank" defaultValue={bank.like} maxLength={200} autoComplete="off" />
            <button type="submit" className="btn" disabled={searching}>
              {searching ? t('resources.quiz.bank.searching') : t('resources.quiz.bank.search_button')}
            </button>
          </div>
        </div>
      </Form>
      {bank.failed ? (
        <p role="alert" className="error-text">
          {t('resources.quiz.bank.failed')}
        </p>
      ) : bank.items.length === 0 ? (
        <p className="hint">{bank.like ? t('resources.quiz.bank.none_for', { like: bank.like }) : t('resources.quiz.bank.empty')}</p>
      ) : (
        <KitForm
          id="quiz-question-bank"
          schema={QuizBankImportInput}
          fetcher={imp as never}
          lastResult={imp.data}
          action={`${here}?intent=bank`}
          defaultValue={{ ids: [] }}
          prepare={bankIds}
          timeZone={timeZone}
          className="simple-form"
          aria-label={t('resources.quiz.bank.title')}
          submitLabel={t('resources.quiz.bank.import')}
          submitIcon="upload"
          labels={{ ids: t('resources.quiz.bank.choose') }}
        >
          <CheckboxGroup name="ids" label={t('resources.quiz.bank.choose')} options={bank.items.map((b) => ({ value: b.id, label: b.text }))} />
          {bank.more ? <p className="hint">{t('resources.quiz.bank.more', { count: bank.items.length })}</p> : null}
        </KitForm>
      )}
      <div role="status" aria-live="polite">
        {report ? (
          <>
            <p>{t('resources.quiz.bank.imported', { count: report.imported.length })}</p>
            <ul>
              {report.imported.map((q) => (
                <li key={q.id}>
                  {q.position + 1}. {q.text}
                </li>
              ))}
            </ul>
            {report.skipped.length ? (
              <>
                <p>{t('resources.quiz.bank.skipped', { count: report.skipped.length })}</p>
                <ul>
                  {report.skipped.map((s) => (
                    <li key={`${s.index}-${s.id}`}>
                      {s.text || s.id} — {reason(s)}
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </>
        ) : null}
      </div>
    </section>
  )
}
