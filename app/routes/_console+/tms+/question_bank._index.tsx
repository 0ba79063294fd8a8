import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from '~/i18n/react'
import { CrudList } from '~/components/ui/crud-list'
import { Dialog } from '~/components/ui/dialog'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { BankClassifyDialog } from '~/components/tms/bank-classify'
import { useToast } from '~/components/ui/toast'
import { translatedErrors } from '~/lib/error-text'
import { withFilterOptions } from '~/lib/list-format'
import bankList from '~/lists/tms-question-bank'
import type { BankItem } from '#shared/schemas/tms/bank'
import { loadList } from '~/server/list.server'
import { bankListAction, bankRefs } from './__bank.server'

export const handle = { title: 'pages.tms.question_bank.list' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query, user, api } = await loadList(request, context, bankList)
  const p = user.permissions
  const { categories, models } = await bankRefs(api, user)
  return {
    page,
    query,
    categories,
    models,
    can: {
      create: p.tms_question_bank_create,
      edit: p.tms_question_bank_edit,
      remove: p.tms_question_bank_delete,
      addToModel: Boolean(p.tms_model_edit && models.length),
    },
  }
}

export const action = ({ request, context }: ActionFunctionArgs) => bankListAction(request, context)

export default function QuestionBankListRoute() {
  const { page, query, categories, models, can } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const [adding, setAdding] = useState<string[] | null>(null)
  const [classifying, setClassifying] = useState<string[] | null>(null)
  const closeClassify = useCallback(() => setClassifying(null), [])
  const result = useActionData<typeof action>()
  const toast = useToast()
  useEffect(() => {
    if (result && !result.ok && result.intent === 'add_to_model') toast.pushErrors(translatedErrors(t, result.errors), { title: 'tms.bank.add_failed' })
  }, [result, toast, t])
  const spec = withFilterOptions(bankList, { category: categories.map((c) => ({ label: c.name, value: c.id })) })
  return (
    <>
      <CrudList<BankItem>
        spec={spec}
        page={page}
        query={query}
        title={t('pages.tms.question_bank.list')}
        create={can.create ? { to: '/tms/question_bank/create', label: t('pages.tms.question_bank.create') } : null}
        editTo={can.edit ? (row) => `/tms/question_bank/edit/${row.id}` : null}
        canDelete={can.remove}
        label={(row) => row.statement_text.slice(0, 60)}
        selectable={can.addToModel || can.edit}
        actions={(selected) => (
          <>
            {can.edit ? (
              <button type="button" className="btn" onClick={() => setClassifying(selected)}>
                <Icon name="edit" /> {t('tms.bank.classify')}
              </button>
            ) : null}
            {can.addToModel ? (
              <button type="button" className="btn" onClick={() => setAdding(selected)}>
                <Icon name="plus" /> {t('tms.bank.add_to_model')}
              </button>
            ) : null}
          </>
        )}
      />
      <Dialog
        open={adding !== null}
        onClose={() => setAdding(null)}
        title={t('tms.bank.add_to_model_title', { count: adding?.length ?? 0 })}
        labelledBy="add-to-model-title"
      >
        <Form method="post" className="simple-form">
          <input type="hidden" name="intent" value="add_to_model" />
          <input type="hidden" name="ids" value={JSON.stringify(adding ?? [])} />
          <div className="field">
            <label htmlFor="add-to-model">{t('tms.bank.model')}</label>
            <select id="add-to-model" name="model" className="input" required>
              {models.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.title}
                </option>
              ))}
            </select>
          </div>
          <div className="form-actions">
            <button type="submit" className="btn btn-primary">
              <Icon name="plus" /> {t('tms.bank.add_to_model')}
            </button>
          </div>
        </Form>
      </Dialog>
      <BankClassifyDialog ids={classifying} onClose={closeClassify} />
    </>
  )
}

export const ErrorBoundary = RouteError
