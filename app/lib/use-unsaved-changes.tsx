import { useBeforeUnload, useBlocker } from '@remix-run/react'
import { useCallback, useEffect, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '~/components/ui/dialog'

/**
 * Unsaved-changes protection (seed 000 §2.4): while `dirty`, leaving by an in-app navigation asks for confirmation
 * in a dialog, and closing or reloading the tab asks through the browser. Returns the dialog to render.
 */
export function useUnsavedChanges(dirty: boolean) {
  const { t } = useTranslation()
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname)
  useBeforeUnload(
    useCallback(
      (event: BeforeUnloadEvent) => {
        if (!dirty) return
        event.preventDefault()
        event.returnValue = ''
      },
      [dirty],
    ),
  )
  useEffect(() => {
    if (blocker.state === 'blocked' && !dirty) blocker.reset()
  }, [blocker, dirty])
  return (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      title={t('unsaved.title')}
      message={t('unsaved.message')}
      confirmLabel={t('unsaved.leave')}
      cancelLabel={t('unsaved.stay')}
      danger
      onConfirm={() => blocker.proceed?.()}
      onCancel={() => blocker.reset?.()}
    />
  )
}

/** Tracks whether a form differs from its initial state (any input or change event marks it dirty). */
export function useFormDirty() {
  const [dirty, setDirty] = useState(false)
  const onChange = useCallback((_e: FormEvent<HTMLFormElement>) => setDirty(true), [])
  return { dirty, setDirty, formProps: { onChange, onInput: onChange } }
}

/**
 * An editor's draft (the model editors and publish forms): its state, `set(patch)` that marks it changed, whether a
 * save was tried (live errors show from then), and the unsaved-changes dialog, armed while changed and not `saving`.
 */
export function useDraft<S extends object>(init: S | (() => S), saving: boolean) {
  const [state, setState] = useState(init)
  const [dirty, setDirty] = useState(false)
  const [tried, setTried] = useState(false)
  const guard = useUnsavedChanges(dirty && !saving)
  const set = (patch: Partial<S>) => {
    setDirty(true)
    setState((s) => ({ ...s, ...patch }))
  }
  return { state, setState, set, dirty, setDirty, tried, setTried, guard }
}
